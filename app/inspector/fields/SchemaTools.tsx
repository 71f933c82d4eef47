import { isRecord } from '../../../src/files/index.ts';
import { useMemo, useState } from 'react';
import type { Chain, StepDef } from '../../../src/chain/index.ts';
import { setDynamicEnum, stringFields } from '../../designer/dynamic-enum-edit.ts';
import { exampleFromSchema } from '../../designer/example-from-schema.ts';
import { useEditorStore } from '../../stores/editor-store.ts';

interface Props {
  chain: Chain;
  step: StepDef;
  keyPath: string;
  schema: unknown;
  bindings: Record<string, string>;
}

/**
 * Under an output schema: an example instance (so the contract reads as data, not only as
 * schema), and a helper that turns a string field into a dynamic enum of a bound document's
 * section ids (`"x-dynamicEnum": {"binding": …, "from": "sectionIds"}`).
 */
export function SchemaTools({ chain, step, keyPath, schema, bindings }: Props) {
  const example = useMemo(() => (schema && typeof schema === 'object' ? JSON.stringify(exampleFromSchema(schema), null, 2) : null), [schema]);
  const fields = useMemo(() => stringFields(schema), [schema]);
  // Documents are text: inputs first, then whatever else the step reads.
  const candidates = Object.entries(bindings).sort(([, a], [, b]) => Number(b.startsWith('inputs.')) - Number(a.startsWith('inputs.')));
  const [fieldIndex, setFieldIndex] = useState(0);
  const [binding, setBinding] = useState(candidates[0]?.[0] ?? '');
  const field = fields[Math.min(fieldIndex, fields.length - 1)];
  const chosenBinding = candidates.some(([name]) => name === binding) ? binding : (candidates[0]?.[0] ?? '');
  const marked = fields.filter((f) => f.dynamic);

  const write = (next: Record<string, unknown>) => useEditorStore.getState().updateStepConfig(step.id, keyPath, next);
  const apply = () => {
    if (field && chosenBinding && isRecord(schema)) write(setDynamicEnum(schema, field.path, { binding: chosenBinding, from: 'sectionIds' }));
  };

  if (!example) return null;
  return (
    <div className="schema-tools">
      <details className="schema-example" open>
        <summary className="field-label">Example output</summary>
        <pre className="json-fallback" data-testid="schema.example">{example}</pre>
      </details>
      {fields.length > 0 && (
        <div className="dynamic-enum" data-testid="schema.dynamicEnum">
          <div className="field-label">Dynamic enum</div>
          {marked.map((f) => (
            <div key={f.label} className="row small" data-testid="schema.dynamicEnum.marked">
              <span className="mono">{f.label}</span>
              <span className="muted">← section ids of {f.dynamic?.binding}</span>
              <button type="button" className="link-button" onClick={() => isRecord(schema) && write(setDynamicEnum(schema, f.path, null))}>
                remove
              </button>
            </div>
          ))}
          {candidates.length === 0 ? (
            <p className="muted small">Bind a document under “Reads” to generate an enum from its section ids.</p>
          ) : (
            <div className="row">
              <select className="input mono" aria-label="String field" data-testid="schema.dynamicEnum.field" value={fieldIndex} onChange={(e) => setFieldIndex(Number(e.target.value))}>
                {fields.map((f, i) => (
                  <option key={f.label} value={i}>
                    {f.label}
                  </option>
                ))}
              </select>
              <select className="input mono" aria-label="Document binding" data-testid="schema.dynamicEnum.binding" value={chosenBinding} onChange={(e) => setBinding(e.target.value)}>
                {candidates.map(([name, ref]) => (
                  <option key={name} value={name}>
                    {name} ({ref})
                  </option>
                ))}
              </select>
              <button type="button" className="button small" data-testid="schema.dynamicEnum.apply" onClick={apply} title="At run time the enum is the document's section ids">
                Use section ids
              </button>
            </div>
          )}
          <p className="muted tiny">The field may then only hold ids that exist in {chain.inputs.length ? 'the bound document' : 'the document'}: an invented id cannot be produced under strict structured output.</p>
        </div>
      )}
    </div>
  );
}
