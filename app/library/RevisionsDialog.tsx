import { useEffect, useState } from 'react';
import type { Chain } from '../../src/chain/index.ts';
import { listRevisions } from '../persistence/chains.ts';
import { openDb } from '../persistence/connection.ts';
import type { RevisionRecord } from '../persistence/db.ts';
import { useEditorStore } from '../stores/editor-store.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { restoreRevision } from './library-actions.ts';

type Row = Omit<RevisionRecord, 'chain'>;

/** The open chain's saved revisions, newest first; restoring one is an undoable edit. */
export default function RevisionsDialog({ chain, onClose }: { chain: Chain; onClose(): void }) {
  const [rows, setRows] = useState<Row[] | null>(null);
  useEffect(() => {
    let live = true;
    void openDb()
      .then((db) => listRevisions(db, chain.id))
      .then((list) => live && setRows(list));
    return () => {
      live = false;
    };
  }, [chain.id]);

  const restore = (id: number) =>
    restoreRevision(id)
      .then(onClose)
      .catch((e: Error) => useEditorStore.getState().pushToast('error', `Could not restore: ${e.message}`));

  return (
    <Dialog title={`History of “${chain.name}”`} testId="revisions" onClose={onClose}>
      <p className="muted small">Kept: the state the chain arrived in, then the last state of each minute of editing (the newest 100). Restoring is one undo step.</p>
      {rows === null ? (
        <p className="muted">Loading…</p>
      ) : rows.length === 0 ? (
        <p className="muted">No saved revisions yet.</p>
      ) : (
        <ul className="plain-list revisions-list">
          {rows.map((r, i) => (
            <li key={r.id} className="revision-row" data-testid="revisions.item">
              <span>
                <strong>{new Date(r.savedAt).toLocaleString()}</strong>
                <span className="muted small"> · {r.name}{i === 0 ? ' · latest' : ''}</span>
              </span>
              <button type="button" className="button small" data-testid="revisions.restore" disabled={r.id === undefined} onClick={() => r.id !== undefined && void restore(r.id)}>
                Restore
              </button>
            </li>
          ))}
        </ul>
      )}
    </Dialog>
  );
}
