import { useState } from 'react';
import { chainEdges } from '../../../src/chain/index.ts';
import type { Chain } from '../../../src/chain/index.ts';
import { stepRegistry } from '../../../src/steps/index.ts';
import { useEditorStore } from '../../stores/editor-store.ts';

interface Props {
  testId: string;
  chain: Chain;
  stepId: string;
  bindings: Record<string, string>;
}

/** Steps this one may read without making a cycle: everything not downstream of it. */
function upstreamCandidates(chain: Chain, stepId: string): string[] {
  const out = new Map<string, string[]>();
  for (const e of chainEdges(chain, stepRegistry)) out.set(e.source, [...(out.get(e.source) ?? []), e.target]);
  const downstream = new Set<string>([stepId]);
  const queue = [stepId];
  while (queue.length) {
    for (const next of out.get(queue.shift() as string) ?? []) {
      if (downstream.has(next)) continue;
      downstream.add(next);
      queue.push(next);
    }
  }
  return chain.steps.map((s) => s.id).filter((id) => !downstream.has(id));
}

/** `steps.a.b.c` → base `steps.a` and path `b.c`. */
function splitRef(ref: string): { base: string; path: string } {
  const [root = '', name = '', ...rest] = ref.split('.');
  return { base: `${root}.${name}`, path: rest.join('.') };
}

const identifier = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

function BindingRow({ stepId, name, source, options }: { stepId: string; name: string; source: string; options: string[] }) {
  const { setBinding, renameBinding, disconnect } = useEditorStore.getState();
  const [draftName, setDraftName] = useState(name);
  const { base, path } = splitRef(source);
  const commitName = () => {
    if (draftName !== name && identifier.test(draftName)) renameBinding(stepId, name, draftName);
    else setDraftName(name);
  };
  return (
    <div className="binding-row" data-testid={`binding.${name}`}>
      <input
        className={identifier.test(draftName) ? 'input mono binding-name' : 'input mono binding-name is-invalid'}
        aria-label="Binding name"
        value={draftName}
        onChange={(e) => setDraftName(e.target.value)}
        onBlur={commitName}
        onKeyDown={(e) => e.key === 'Enter' && commitName()}
      />
      <span className="binding-arrow">←</span>
      <select className="input mono" aria-label="Reads" value={base} onChange={(e) => setBinding(stepId, name, e.target.value + (path ? `.${path}` : ''))}>
        {!options.includes(base) && <option value={base}>{base}</option>}
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
      <input
        className="input mono binding-path"
        aria-label="Field path"
        placeholder=".field"
        defaultValue={path}
        onBlur={(e) => {
          const p = e.target.value.replace(/^\.+/, '').trim();
          if (p === '' || /^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*$/.test(p)) setBinding(stepId, name, p ? `${base}.${p}` : base);
        }}
      />
      <button type="button" className="icon-button" aria-label={`Remove ${name}`} title="Remove" onClick={() => disconnect(stepId, name)}>
        ×
      </button>
    </div>
  );
}

/** name → ref rows; the ref picker offers the chain inputs and the steps upstream of this one. */
export function BindingsField({ testId, chain, stepId, bindings }: Props) {
  const options = [...chain.inputs.map((i) => `inputs.${i.name}`), ...upstreamCandidates(chain, stepId).map((id) => `steps.${id}`)];
  const add = () => {
    const ref = options[0];
    if (!ref) return;
    let name = ref.split('.')[1] ?? 'value';
    for (let n = 2; name in bindings; n++) name = `${ref.split('.')[1]}_${n}`;
    useEditorStore.getState().setBinding(stepId, name, ref);
  };
  return (
    <div className="bindings" data-testid={testId}>
      {Object.entries(bindings).map(([name, ref]) => (
        <BindingRow key={`${name}:${ref}`} stepId={stepId} name={name} source={ref} options={options} />
      ))}
      {Object.keys(bindings).length === 0 && <div className="muted small">Reads nothing yet.</div>}
      <button type="button" className="button small" onClick={add} disabled={options.length === 0}>
        Add binding
      </button>
    </div>
  );
}
