interface Props {
  id: string;
  testId: string;
  value: unknown;
  placeholder?: string;
  /** The registry default for this key: when it is null, clearing the box writes null back. */
  nullable: boolean;
  onChange(value: string | null): void;
}

export function TextField({ id, testId, value, placeholder, nullable, onChange }: Props) {
  return (
    <input
      id={id}
      data-testid={testId}
      className="input"
      type="text"
      value={typeof value === 'string' ? value : value == null ? '' : String(value)}
      placeholder={placeholder}
      onChange={(e) => onChange(e.target.value === '' && nullable ? null : e.target.value)}
    />
  );
}
