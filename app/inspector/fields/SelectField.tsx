interface Props {
  id: string;
  testId: string;
  value: unknown;
  options: readonly string[];
  onChange(value: string): void;
}

export function SelectField({ id, testId, value, options, onChange }: Props) {
  const current = typeof value === 'string' ? value : '';
  return (
    <select id={id} data-testid={testId} className="input" value={current} onChange={(e) => onChange(e.target.value)}>
      {!options.includes(current) && <option value={current}>{current || '(none)'}</option>}
      {options.map((o) => (
        <option key={o} value={o}>
          {o}
        </option>
      ))}
    </select>
  );
}
