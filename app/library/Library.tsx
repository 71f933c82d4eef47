import { useRef, useState } from 'react';
import type { ChainProblem } from '../../src/chain/parse.ts';
import { useEditorStore } from '../stores/editor-store.ts';
import { selectChain, selectLibrary } from '../stores/selectors.ts';
import { duplicateChain, exportChain, importChainFile, newChain, openChain, removeChain } from './library-actions.ts';
import { ImportProblemsDialog } from './ImportProblemsDialog.tsx';

/** The chain library: list, open, new, duplicate, delete, import and export. */
export function Library() {
  const library = useEditorStore(selectLibrary);
  const open = useEditorStore(selectChain);
  const toast = useEditorStore((s) => s.pushToast);
  const fileInput = useRef<HTMLInputElement>(null);
  const [problems, setProblems] = useState<{ file: string; list: ChainProblem[] } | null>(null);

  const fail = (what: string) => (error: unknown) => toast('error', `${what}: ${(error as Error).message}`);

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    try {
      const found = await importChainFile(file);
      if (found) setProblems({ file: file.name, list: found });
    } catch (error) {
      fail('Import failed')(error);
    } finally {
      if (fileInput.current) fileInput.current.value = '';
    }
  };

  return (
    <section className="library" aria-label="Chains">
      <div className="section-title">
        Chains
        <span className="section-actions">
          <button type="button" className="button small" data-testid="library.new" onClick={() => newChain().catch(fail('Could not create a chain'))}>
            New
          </button>
          <label className="button small" title="Import a .chain.json file">
            Import
            <input ref={fileInput} type="file" accept=".json,application/json" data-testid="library.import" className="visually-hidden" onChange={(e) => void onFile(e.target.files?.[0])} />
          </label>
        </span>
      </div>
      <ul className="library-list">
        {library.map((entry) => {
          const isOpen = open?.id === entry.id;
          return (
            <li key={entry.id} className={isOpen ? 'library-row is-open' : 'library-row'}>
              <button type="button" className="library-item" data-testid={`library.item.${entry.id}`} onClick={() => openChain(entry.id).catch(fail('Could not open the chain'))}>
                {isOpen ? open.name : entry.name}
              </button>
              <button
                type="button"
                className="icon-button row-action"
                data-testid={`library.delete.${entry.id}`}
                aria-label={`Delete ${entry.name}`}
                title="Delete chain and its runs"
                onClick={() => removeChain(entry.id).then(() => toast('info', `Deleted "${entry.name}"`), fail('Could not delete'))}
              >
                ×
              </button>
            </li>
          );
        })}
        {library.length === 0 && <li className="muted small">No chains yet.</li>}
      </ul>
      {open && (
        <div className="library-foot">
          <button type="button" className="button small" data-testid="library.export" onClick={exportChain}>
            Export
          </button>
          <button type="button" className="button small" data-testid="library.duplicate" onClick={() => duplicateChain().catch(fail('Could not duplicate'))}>
            Duplicate
          </button>
        </div>
      )}
      {problems && <ImportProblemsDialog file={problems.file} problems={problems.list} onClose={() => setProblems(null)} />}
    </section>
  );
}
