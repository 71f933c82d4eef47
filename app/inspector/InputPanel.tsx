import { useState } from 'react';
import type { Chain, ChainInput } from '../../src/chain/index.ts';
import { useEditorStore } from '../stores/editor-store.ts';

const types = ['string', 'number', 'integer', 'boolean', 'object', 'array'];
const identifier = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** One chain input: its name (renaming rewrites the bindings that read it), type and trust. */
export function InputPanel({ chain, input }: { chain: Chain; input: ChainInput }) {
  const { updateInput, removeInput } = useEditorStore.getState();
  const [draftName, setDraftName] = useState(input.name);
  const taken = chain.inputs.some((i) => i.name === draftName && i.name !== input.name);
  const nameOk = identifier.test(draftName) && !taken;
  const commitName = () => (nameOk ? updateInput(input.name, { name: draftName }) : setDraftName(input.name));
  const type = typeof input.schema.type === 'string' ? input.schema.type : '';
  return (
    <div className="panel-body" key={input.name}>
      <div className="panel-title">
        <span className="step-kind">Input</span>
        <code className="muted">inputs.{input.name}</code>
      </div>
      <div className="field">
        <label className="field-label" htmlFor="input-name">Name</label>
        <input id="input-name" className={nameOk ? 'input mono' : 'input mono is-invalid'} value={draftName} onChange={(e) => setDraftName(e.target.value)} onBlur={commitName} onKeyDown={(e) => e.key === 'Enter' && commitName()} />
        {!nameOk && <div className="field-error">{taken ? 'Another input has this name' : 'Letters, digits and _, starting with a letter or _'}</div>}
      </div>
      <div className="field">
        <label className="field-label" htmlFor="input-type">Type</label>
        <select id="input-type" className="input" value={type} onChange={(e) => updateInput(input.name, { schema: { ...input.schema, type: e.target.value } })}>
          {!types.includes(type) && <option value={type}>{type || '(any)'}</option>}
          {types.map((t) => <option key={t} value={t}>{t}</option>)}
        </select>
      </div>
      <div className="field">
        <label className="field-label" htmlFor="input-trust">Trust</label>
        <select id="input-trust" className="input" value={input.trust} onChange={(e) => updateInput(input.name, { trust: e.target.value as ChainInput['trust'] })}>
          <option value="trusted">Trusted</option>
          <option value="untrusted">Untrusted: framed as data in every prompt</option>
        </select>
      </div>
      <label className="checkbox">
        <input type="checkbox" checked={input.required} onChange={(e) => updateInput(input.name, { required: e.target.checked })} /> Required
      </label>
      <div className="field">
        <label className="field-label" htmlFor="input-description">Description</label>
        <textarea id="input-description" className="input" rows={2} value={input.description ?? ''} onChange={(e) => updateInput(input.name, { description: e.target.value || undefined })} />
      </div>
      <button type="button" className="button danger small" onClick={() => removeInput(input.name)}>
        Remove input
      </button>
    </div>
  );
}
