import { findPlaceholders } from '../../../src/chain/template.ts';

interface Props {
  id: string;
  testId: string;
  value: unknown;
  rows?: number;
  /** When set, `{placeholder}`s are checked against these binding names. */
  bindings: readonly string[] | null;
  onChange(value: string): void;
}

/** A prompt template; a placeholder that names no binding is reported right under the box. */
export function TemplateField({ id, testId, value, rows, bindings, onChange }: Props) {
  const text = typeof value === 'string' ? value : '';
  const unknown = bindings ? [...new Set(findPlaceholders(text).filter((p) => !bindings.includes(p.binding)).map((p) => p.name))] : [];
  return (
    <>
      <textarea id={id} data-testid={testId} className="input mono" rows={rows ?? 4} value={text} spellCheck={false} onChange={(e) => onChange(e.target.value)} />
      {unknown.map((name) => (
        <div key={name} className="field-error">
          {`{${name}} names no binding: add "${name.split('.')[0]}" under reads`}
        </div>
      ))}
    </>
  );
}
