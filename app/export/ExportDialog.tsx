import { useEffect, useMemo, useRef, useState } from 'react';
import { downloadBlob } from '../ui/download.ts';
import type { Chain } from '../../src/chain/index.ts';
import { createZip, exportChain, exportChainFiles, exportProgram, KEY_VARIABLES, type EndpointDefaults, type ExportedFile, type ExportLanguage, type ExportResult, type ProgramExport, type ReadExampleFile } from '../../src/export/index.ts';
import { demoUrl } from '../persistence/chains.ts';
import { programFileNameOf } from './file-names.ts';
import { Dialog } from '../ui/Dialog.tsx';
import './export.css';

/**
 * Export the open chain as a TypeScript or Python program: a read-only Monaco preview of each
 * file (the program first, then its runtime), copy, and download as a ZIP of the whole folder.
 * Nothing secret is ever written: the programs read their key from the environment.
 *
 * Test ids: export.lang.ts, export.lang.py, export.file.<path>, export.preview, export.copy,
 * export.download, export.status (the button that opens the dialog, export.open, is the host's).
 */
interface Props {
  chain: Chain;
  onClose(): void;
  /** Endpoint defaults written into the program (e.g. the active OpenAI-compatible profile's model); never a key. */
  endpoint?: EndpointDefaults;
  initialLang?: ExportLanguage;
}

type Monaco = typeof import('../inspector/monaco/setup.ts')['monaco'];

const LANGUAGE_LABEL: Record<ExportLanguage, string> = { ts: 'TypeScript', py: 'Python' };

// Monaco, its basic TypeScript/Python highlighting (no language workers) and nothing else, loaded once on first use.
let monacoLoading: Promise<Monaco> | null = null;
function loadMonaco(): Promise<Monaco> {
  monacoLoading ??= Promise.all([
    import('../inspector/monaco/setup.ts'),
    import('monaco-editor/languages/definitions/typescript/register'),
    import('monaco-editor/languages/definitions/python/register'),
  ]).then(([setup]) => setup.monaco);
  return monacoLoading;
}

function languageOf(path: string): string {
  if (path.endsWith('.ts')) return 'typescript';
  if (path.endsWith('.py')) return 'python';
  return path.endsWith('.json') ? 'json' : 'plaintext';
}

/** A read-only Monaco editor on `text`; a plain <pre> until Monaco has loaded (and if it cannot). */
function CodePreview({ path, text }: { path: string; text: string }) {
  const host = useRef<HTMLDivElement>(null);
  const [monaco, setMonaco] = useState<Monaco | null>(null);

  useEffect(() => {
    let live = true;
    loadMonaco().then((m) => live && setMonaco(m)).catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);

  useEffect(() => {
    const element = host.current;
    if (!monaco || !element) return;
    const model = monaco.editor.createModel(text, languageOf(path));
    const editor = monaco.editor.create(element, {
      model, readOnly: true, domReadOnly: true, theme: 'vs', automaticLayout: true, minimap: { enabled: false }, fontSize: 12,
      scrollBeyondLastLine: false, renderLineHighlight: 'none', wordWrap: 'off', unicodeHighlight: { ambiguousCharacters: true, invisibleCharacters: true },
    });
    return () => {
      editor.dispose();
      model.dispose();
    };
  }, [monaco, path, text]);

  return monaco ? (
    <div ref={host} className="export-preview" data-testid="export.preview" data-file={path} style={{ height: 420 }} />
  ) : (
    <pre className="export-preview" data-testid="export.preview" data-file={path} style={{ height: 420, overflow: 'auto', margin: 0 }}>
      {text}
    </pre>
  );
}

function download(name: string, bytes: Uint8Array): void {
  downloadBlob(name, new Blob([bytes.slice().buffer], { type: 'application/zip' }));
}

/**
 * The files a chain's `meta.inputFiles` names, from where the app keeps them: beside the demo
 * chains (public/demo), as the Run dialog reads them. A page served in their place (a host's
 * fallback to index.html) is not a file the chain named.
 */
const readExampleFile: ReadExampleFile = async (path) => {
  const response = await fetch(demoUrl(path));
  const html = response.headers.get('content-type')?.startsWith('text/html') && !/\.html?$/i.test(path);
  return response.ok && !html ? response.text() : undefined;
};

/** What the status line says after a download: the file count, and each example file left out. */
function downloadedText(zipName: string, full: ExportResult): string {
  const missing = full.missingExamples.map((m) => `${m.path} (for "${m.input}")`);
  const left = missing.length === 0 ? '' : `; not included, as the app does not have ${missing.length === 1 ? 'it' : 'them'}: ${missing.join(', ')}. --use-examples will ask for ${missing.length === 1 ? 'it' : 'them'}; put ${missing.length === 1 ? 'it' : 'them'} beside the program`;
  return `Downloaded ${zipName} (${full.files.length} files)${left}`;
}

function exportOf(chain: Chain, lang: ExportLanguage, endpoint: EndpointDefaults | undefined): { result: ProgramExport } | { error: string } {
  try {
    return { result: exportProgram(chain, { lang, endpoint, fileName: programFileNameOf(chain, lang) }) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

export default function ExportDialog({ chain, onClose, endpoint, initialLang = 'ts' }: Props) {
  const [lang, setLang] = useState<ExportLanguage>(initialLang);
  const [selected, setSelected] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);
  const exported = useMemo(() => exportOf(chain, lang, endpoint), [chain, lang, endpoint]);
  // The program shows at once; the runtime files join the list when their sources have loaded.
  const [all, setAll] = useState<{ for: ProgramExport; files: ExportedFile[] } | null>(null);
  useEffect(() => {
    if (!('result' in exported)) return;
    let live = true;
    exportChain(chain, { lang, endpoint, fileName: programFileNameOf(chain, lang) })
      .then((full) => live && setAll({ for: exported.result, files: full.files }))
      .catch((error: unknown) => live && setStatus(`Could not load the runtime files: ${(error as Error).message}`));
    return () => {
      live = false;
    };
  }, [exported, chain, lang, endpoint]);
  const files = 'result' in exported ? (all?.for === exported.result ? all.files : [exported.result.program]) : [];
  const current = files.find((f) => f.path === selected) ?? files[0];
  const folder = 'result' in exported ? exported.result.program.path.replace(/\.(ts|py)$/, '') : 'export';

  const chooseLanguage = (next: ExportLanguage) => {
    setLang(next);
    setSelected(null);
    setStatus('');
  };

  const onCopy = async () => {
    if (!current) return;
    try {
      await navigator.clipboard.writeText(current.contents);
      setStatus(`Copied ${current.path}`);
    } catch {
      setStatus('Could not copy: the browser refused access to the clipboard');
    }
  };

  const onDownload = async () => {
    if (!('result' in exported)) return;
    setBusy(true);
    try {
      // The rank table for Python token counts (budgets, split) is large: fetched only now.
      const full = await exportChainFiles(chain, { lang, endpoint, fileName: programFileNameOf(chain, lang), readExampleFile });
      download(`${folder}-${lang}.zip`, createZip(full.files.map((f) => ({ path: `${folder}/${f.path}`, contents: f.contents }))));
      setStatus(downloadedText(`${folder}-${lang}.zip`, full));
    } catch (error) {
      setStatus(`Could not build the download: ${(error as Error).message}`);
    } finally {
      setBusy(false);
    }
  };

  // --use-examples needs something to use: an example in the chain or a file it names.
  const named: unknown = chain.meta?.inputFiles;
  const hasExamples = chain.inputs.some((i) => i.example !== undefined) || (typeof named === 'object' && named !== null && Object.keys(named).length > 0);
  const run = lang === 'ts' ? `npm install && npx tsx ${current?.path ?? ''}` : `python3 ${'result' in exported ? exported.result.program.path : ''}`;

  return (
    <Dialog
      title="Export as code"
      testId="export.dialog"
      onClose={onClose}
      wide
      footer={
        <>
          <span className="muted small" data-testid="export.status" role="status">
            {status}
          </span>
          <button type="button" className="button" data-testid="export.copy" disabled={!current} onClick={() => void onCopy()}>
            Copy file
          </button>
          <button type="button" className="button primary" data-testid="export.download" disabled={!('result' in exported) || busy} onClick={() => void onDownload()}>
            {busy ? 'Preparing…' : 'Download ZIP'}
          </button>
        </>
      }
    >
      <div className="export-dialog">
        <div role="radiogroup" aria-label="Language" className="segmented">
          {(['ts', 'py'] as const).map((l) => (
            <button key={l} type="button" role="radio" aria-checked={lang === l} className={lang === l ? 'button small is-on' : 'button small'} data-testid={`export.lang.${l}`} onClick={() => chooseLanguage(l)}>
              {LANGUAGE_LABEL[l]}
            </button>
          ))}
        </div>
        {'error' in exported ? (
          <p className="field-error" role="alert">
            This chain cannot be exported yet: {exported.error}
          </p>
        ) : (
          <>
            <p className="muted small">
              One function per step, the control flow written out and the chain embedded (import the file to get the chain back), over the runtime folder beside it. Revision{' '}
              {exported.result.revision}. Run it with <code>{run} {hasExamples ? '--use-examples' : '--help'}</code> (the README tells the rest); the key comes only from{' '}
              <span data-testid="export.keys">
                {KEY_VARIABLES[lang].map((name, i, all) => (
                  <span key={name}>
                    {i === 0 ? '' : i === all.length - 1 ? ' or ' : ', '}
                    <code>{name}</code>
                  </span>
                ))}
              </span>
              .
            </p>
            {exported.result.notes.map((note) => (
              <p key={note} className="field-note small" data-testid="export.note">
                {note}
              </p>
            ))}
            <div className="export-body">
            <div className="export-files" role="tablist" aria-label="Files">
              {files.map((f) => (
                <button key={f.path} type="button" role="tab" aria-selected={f === current} className={f === current ? 'list-button is-open' : 'list-button'} data-testid={`export.file.${f.path}`} onClick={() => setSelected(f.path)}>
                  {f.path}
                </button>
              ))}
            </div>
            <div className="export-code">{current && <CodePreview path={current.path} text={current.contents} />}</div>
            </div>
          </>
        )}
      </div>
    </Dialog>
  );
}
