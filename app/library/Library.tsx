import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import type { ChainProblem } from '../../src/chain/parse.ts';
import type { Chain } from '../../src/chain/index.ts';
import type { FidelityReport } from '../../src/formats/index.ts';
import type { BroughtFile } from './flow-folder.ts';
import type { ChainEndpoint } from '../profiles/chain-endpoint.ts';
import { useEditorStore } from '../stores/editor-store.ts';
import { selectChain, selectLibrary } from '../stores/selectors.ts';
import type { ChainSummary } from '../stores/workspace-slice.ts';
import './library.css';
import { useFileDrop } from './use-file-drop.ts';

// The commands (and the storage modules behind them) load on first use, not at start-up.
const actions = () => import('./library-actions.ts');
const RevisionsDialog = lazy(() => import('./RevisionsDialog.tsx'));
const EndpointConfirm = lazy(() => import('../profiles/EndpointConfirm.tsx'));
const ImportProblemsDialog = lazy(() => import('./ImportProblemsDialog.tsx').then((m) => ({ default: m.ImportProblemsDialog })));
const ImportReportDialog = lazy(() => import('./ImportReportDialog.tsx').then((m) => ({ default: m.ImportReportDialog })));

/**
 * The file picker's accepted types, from the formats registry. The registry (and the readers
 * behind it) loads after first paint; until then the picker offers every file, which is only a
 * hint either way: whatever is picked goes through the registry.
 */
function useAcceptedFileTypes(): string | undefined {
  const [accept, setAccept] = useState<string>();
  useEffect(() => {
    let live = true;
    void import('../../src/formats/index.ts').then((m) => live && setAccept(m.acceptedFileTypes));
    return () => {
      live = false;
    };
  }, []);
  return accept;
}

function RenameBox({ entry, onDone }: { entry: ChainSummary; onDone(): void }) {
  const [name, setName] = useState(entry.name);
  const commit = () => {
    onDone();
    if (name.trim() && name.trim() !== entry.name) {
      void actions().then((a) => a.renameChain(entry.id, name)).catch((e: Error) => useEditorStore.getState().pushToast('error', `Could not rename: ${e.message}`));
    }
  };
  return (
    <input
      className="input library-rename"
      data-testid="library.rename.input"
      aria-label={`New name for ${entry.name}`}
      value={name}
      maxLength={200}
      autoFocus
      onFocus={(e) => e.target.select()}
      onChange={(e) => setName(e.target.value)}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === 'Enter') commit();
        else if (e.key === 'Escape') onDone();
      }}
    />
  );
}

/** Picked files with the paths the browser gives (a folder pick's `web-classification/flow.dag.yaml`). */
const broughtFrom = (files: FileList): BroughtFile[] => Array.from(files, (file) => ({ path: file.webkitRelativePath || file.name, file }));

/** The chain library: list, open, new, rename, duplicate, delete (undoable), history, import (also by drop) and export. */
export function Library() {
  const library = useEditorStore(selectLibrary);
  const open = useEditorStore(selectChain);
  const fileInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const [problems, setProblems] = useState<{ file: string; list: ChainProblem[] } | null>(null);
  const [renaming, setRenaming] = useState<string | null>(null);
  const [endpoint, setEndpoint] = useState<{ chain: Chain; endpoint: ChainEndpoint } | null>(null);
  const [history, setHistory] = useState(false);
  const [report, setReport] = useState<{ chain: string; report: FidelityReport } | null>(null);
  const accept = useAcceptedFileTypes();

  const fail = (what: string) => (error: unknown) => useEditorStore.getState().pushToast('error', `${what}: ${(error as Error).message}`);

  const onFiles = useCallback(async (brought: BroughtFile[]) => {
    try {
      const outcome = await (await import('./import-flow.ts')).importFiles(brought);
      const shown = brought.length === 1 ? brought[0]?.file.name ?? '' : `${brought.length} files${brought[0]?.path.includes('/') ? ` from ${brought[0].path.split('/')[0]}` : ''}`;
      if (outcome && 'problems' in outcome) setProblems({ file: shown, list: outcome.problems });
      else if (outcome && 'report' in outcome) setReport(outcome.report);
      else if (outcome) setEndpoint(outcome.confirm);
    } catch (error) {
      fail('Import failed')(error);
    } finally {
      if (fileInput.current) fileInput.current.value = '';
      if (folderInput.current) folderInput.current.value = '';
    }
  }, []);
  const dropping = useFileDrop(onFiles);

  const remove = async (entry: ChainSummary) => {
    const snapshot = await (await actions()).removeChain(entry.id);
    if (!snapshot) return;
    useEditorStore.getState().pushToast('info', `Deleted "${entry.name}"`, {
      label: 'Undo',
      run: () => void actions().then((a) => a.restoreDeleted(snapshot)).catch(fail('Could not restore')),
    });
  };

  return (
    <section className="library" aria-label="Chains">
      <div className="section-title">
        Chains
        <span className="section-actions">
          <button type="button" className="button small" data-testid="library.new" onClick={() => actions().then((a) => a.newChain()).catch(fail('Could not create a chain'))}>
            New
          </button>
          <label className="button small" title="Import a chain file, a program exported from Seamscope, a Langflow or Flowise flow, or a trace (or drop it on the window)">
            Import
            <input ref={fileInput} type="file" multiple accept={accept} data-testid="library.import" className="visually-hidden" onChange={(e) => e.target.files?.length && void onFiles(broughtFrom(e.target.files))} />
          </label>
          <label className="button small" title="Import a flow with the files beside it: a Prompt flow's folder (flow.dag.yaml, its Jinja prompts and data.jsonl)">
            Folder
            <input ref={folderInput} type="file" {...{ webkitdirectory: '' }} data-testid="library.import.folder" className="visually-hidden" onChange={(e) => e.target.files?.length && void onFiles(broughtFrom(e.target.files))} />
          </label>
        </span>
      </div>
      <ul className="library-list">
        {library.map((entry) => {
          const isOpen = open?.id === entry.id;
          const name = isOpen ? open.name : entry.name;
          return (
            <li key={entry.id} className={isOpen ? 'library-row is-open' : 'library-row'}>
              {renaming === entry.id ? (
                <RenameBox entry={{ ...entry, name }} onDone={() => setRenaming(null)} />
              ) : (
                <button
                  type="button"
                  className="library-item"
                  data-testid={`library.item.${entry.id}`}
                  title={`${name}\nClick to open, double-click to rename`}
                  onClick={() => actions().then((a) => a.openChain(entry.id)).catch(fail('Could not open the chain'))}
                  onDoubleClick={() => setRenaming(entry.id)}
                >
                  {name}
                </button>
              )}
              <button type="button" className="icon-button row-action" data-testid={`library.rename.${entry.id}`} aria-label={`Rename ${name}`} title="Rename" onClick={() => setRenaming(entry.id)}>
                ✎
              </button>
              <button
                type="button"
                className="icon-button row-action"
                data-testid={`library.delete.${entry.id}`}
                aria-label={`Delete ${name}`}
                title="Delete chain and its runs (undo from the message)"
                onClick={() => remove({ ...entry, name }).catch(fail('Could not delete'))}
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
          <button type="button" className="button small" data-testid="library.export" onClick={() => actions().then((a) => a.exportChain()).catch(fail('Could not export'))}>
            Export
          </button>
          <button type="button" className="button small" data-testid="library.duplicate" onClick={() => actions().then((a) => a.duplicateChain()).catch(fail('Could not duplicate'))}>
            Duplicate
          </button>
          <button type="button" className="button small" data-testid="library.history" title="Saved revisions of this chain" onClick={() => setHistory(true)}>
            History
          </button>
        </div>
      )}
      {dropping && (
        <div className="drop-overlay" data-testid="library.drop">
          Drop a chain, a flow from another tool (a Prompt flow's folder too) or a trace to import it
        </div>
      )}
      <Suspense fallback={null}>
        {problems && <ImportProblemsDialog file={problems.file} problems={problems.list} onClose={() => setProblems(null)} />}
        {report && <ImportReportDialog chain={report.chain} report={report.report} onClose={() => setReport(null)} />}
        {history && open && <RevisionsDialog chain={open} onClose={() => setHistory(false)} />}
        {endpoint && <EndpointConfirm chain={endpoint.chain} endpoint={endpoint.endpoint} onClose={() => setEndpoint(null)} />}
      </Suspense>
    </section>
  );
}
