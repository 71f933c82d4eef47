interface Props {
  id: string;
  testId: string;
  value: unknown;
  /** Steps this one may fall back to (every other step). */
  stepIds: readonly string[];
  onChange(value: string): void;
}

const policies = [
  { value: 'abort', label: 'Abort the run' },
  { value: 'abstain', label: 'Abstain (no answer, say why)' },
  { value: 'escalate', label: 'Escalate to a person' },
  { value: 'fallback', label: 'Fall back to another step' },
];

/** abort | abstain | escalate | fallback:<stepId>: never "continue with bad output". */
export function OnFailField({ id, testId, value, stepIds, onChange }: Props) {
  const text = typeof value === 'string' ? value : 'abort';
  const isFallback = text.startsWith('fallback:');
  const target = isFallback ? text.slice('fallback:'.length) : '';
  return (
    <div className="row">
      <select
        id={id}
        data-testid={testId}
        className="input"
        value={isFallback ? 'fallback' : text}
        onChange={(e) => onChange(e.target.value === 'fallback' ? `fallback:${stepIds[0] ?? ''}` : e.target.value)}
      >
        {policies.map((p) => (
          <option key={p.value} value={p.value} disabled={p.value === 'fallback' && stepIds.length === 0}>
            {p.label}
          </option>
        ))}
      </select>
      {isFallback && (
        <select className="input" aria-label="Fallback step" value={target} onChange={(e) => onChange(`fallback:${e.target.value}`)}>
          {!stepIds.includes(target) && <option value={target}>{target || '(choose)'}</option>}
          {stepIds.map((sid) => (
            <option key={sid} value={sid}>
              {sid}
            </option>
          ))}
        </select>
      )}
    </div>
  );
}
