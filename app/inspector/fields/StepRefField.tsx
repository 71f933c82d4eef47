interface Props {
  id: string;
  testId: string;
  value: unknown;
  stepIds: readonly string[];
  emptyLabel: string;
  onChange(value: string | null): void;
}

/** One other step of the chain, or none. */
export function StepRefField({ id, testId, value, stepIds, emptyLabel, onChange }: Props) {
  const current = typeof value === 'string' ? value : '';
  return (
    <select id={id} data-testid={testId} className="input mono" value={current} onChange={(e) => onChange(e.target.value || null)}>
      <option value="">{emptyLabel}</option>
      {current && !stepIds.includes(current) && <option value={current}>{current} (missing)</option>}
      {stepIds.map((sid) => (
        <option key={sid} value={sid}>
          {sid}
        </option>
      ))}
    </select>
  );
}
