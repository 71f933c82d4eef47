import { useEffect, useState } from 'react';
import type { RunMeta } from '../../../src/trace/index.ts';
import { openDb } from '../../persistence/connection.ts';
import type { DatasetRecord } from '../../persistence/db.ts';
import { addItemToDataset, listDatasets } from '../../persistence/datasets.ts';
import { useEditorStore } from '../../stores/editor-store.ts';
import { Dialog } from '../../ui/Dialog.tsx';

const NEW = '\u0000new';
const pretty = (v: unknown) => (v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v, null, 2));

/** The corrected output as the dataset stores it: JSON when it parses as JSON, else the text as typed. */
function expectedOutput(text: string): unknown {
  const t = text.trim();
  if (t === '') return undefined;
  try {
    return JSON.parse(t) as unknown;
  } catch {
    return text;
  }
}

/**
 * "Add to dataset" from the replay view: the run's inputs become an item's inputs, and what
 * the person corrects becomes its `expected` (the output, the facts the answer must contain,
 * the step it should end in, whether it should have abstained). The item is checked like a
 * line of a dataset file before anything is stored.
 */
export default function AddToDatasetDialog({ meta, terminalStep, onClose }: { meta: RunMeta; terminalStep?: string; onClose(): void }) {
  const [datasets, setDatasets] = useState<DatasetRecord[]>([]);
  const [target, setTarget] = useState<string>(NEW);
  const [newName, setNewName] = useState(`${meta.chainName} cases`);
  const [itemId, setItemId] = useState(`run-${meta.id.slice(-8)}`);
  const [output, setOutput] = useState(pretty(meta.output));
  const [facts, setFacts] = useState('');
  const [route, setRoute] = useState(terminalStep ?? '');
  const [abstain, setAbstain] = useState(meta.status === 'abstained' || meta.status === 'escalated');
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    void openDb().then(listDatasets).then((list) => {
      setDatasets(list);
      if (list[0]) setTarget(list[0].id);
    });
  }, []);

  const save = async () => {
    const expected: Record<string, unknown> = {};
    const out = expectedOutput(output);
    if (out !== undefined) expected.output = out;
    const factList = facts.split('\n').map((f) => f.trim()).filter(Boolean);
    if (factList.length) expected.facts = factList;
    if (route.trim()) expected.route = route.trim();
    expected.abstain = abstain;
    const item = { id: itemId.trim(), inputs: meta.inputs, expected };
    const result = await addItemToDataset(await openDb(), target === NEW ? { name: newName } : { datasetId: target }, item);
    if (!result.ok) return setError(result.message);
    useEditorStore.getState().pushToast('info', `Added ${item.id} to the dataset (${result.items} item${result.items === 1 ? '' : 's'})`);
    onClose();
  };

  return (
    <Dialog
      title="Add this run to a dataset"
      testId="addToDataset.dialog"
      onClose={onClose}
      footer={
        <>
          <button type="button" className="button" onClick={onClose}>Cancel</button>
          <button type="button" className="button primary" data-testid="addToDataset.save" onClick={() => void save()}>Add item</button>
        </>
      }
    >
      <div>
        <label className="field">
          <span className="field-label">Dataset</span>
          <select className="input" value={target} onChange={(e) => setTarget(e.target.value)} data-testid="addToDataset.dataset">
            {datasets.map((d) => <option key={d.id} value={d.id}>{d.name} · {d.items} items</option>)}
            <option value={NEW}>New dataset…</option>
          </select>
        </label>
        {target === NEW && (
          <label className="field">
            <span className="field-label">Name</span>
            <input className="input" value={newName} onChange={(e) => setNewName(e.target.value)} data-testid="addToDataset.name" />
          </label>
        )}
        <label className="field">
          <span className="field-label">Item id</span>
          <input className="input mono" value={itemId} onChange={(e) => setItemId(e.target.value)} data-testid="addToDataset.id" />
        </label>
        <p className="muted small">Inputs: {Object.keys(meta.inputs).join(', ') || 'none'} (as this run had them).</p>
        <label className="field">
          <span className="field-label">Expected output (correct it: it becomes the item’s expected output; empty for none)</span>
          <textarea className="input mono" rows={6} value={output} onChange={(e) => setOutput(e.target.value)} data-testid="addToDataset.output" spellCheck={false} />
        </label>
        <label className="field">
          <span className="field-label">Facts the answer must contain (one per line)</span>
          <textarea className="input" rows={3} value={facts} onChange={(e) => setFacts(e.target.value)} data-testid="addToDataset.facts" />
        </label>
        <label className="field">
          <span className="field-label">Route (the step it should end in)</span>
          <input className="input mono" value={route} onChange={(e) => setRoute(e.target.value)} data-testid="addToDataset.route" />
        </label>
        <label className="checkbox">
          <input type="checkbox" checked={abstain} onChange={(e) => setAbstain(e.target.checked)} data-testid="addToDataset.abstain" />
          The right behaviour is to abstain or escalate
        </label>
        {error && <p className="field-error" role="alert" data-testid="addToDataset.error">{error}</p>}
      </div>
    </Dialog>
  );
}
