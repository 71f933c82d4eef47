import { parseChain } from '../../../src/chain/parse.ts';
import { downloadBlob } from '../../ui/download.ts';
import { hashValue, uniqueName, type Chain } from '../../../src/chain/index.ts';
import { exportRunToOtlp, MAX_TRACE_BYTES } from '../../../src/trace/otlp/index.ts';
import { importTraceText, TRACE_FORMAT_NAMES } from '../../../src/formats/index.ts';
import { toRunFile, type RunMeta, type TraceEvent } from '../../../src/trace/index.ts';
import { markClean } from '../../persistence/autosave.ts';
import { getAutosave } from '../../persistence/bootstrap.ts';
import { listChainSummaries, saveChain } from '../../persistence/chains.ts';
import { getRunRepository, openDb } from '../../persistence/connection.ts';
import { useEditorStore } from '../../stores/editor-store.ts';
import { openRunData } from '../replay-load.ts';
import { refreshRuns } from '../run-actions.ts';
import { selectChain } from '../../stores/selectors.ts';
import { stepRegistry } from '../../../src/steps/index.ts';

/**
 * Runs in and out as files: OTLP/JSON (any OTel backend reads it) and the CLI's `.run.json`
 * (what `seamscope run` writes and `seamscope inspect` and `label` read); Langfuse trace exports
 * come in too. Import reads the whole file through importTraceText (which detects the format
 * from the content, never throws and stores nothing), checks the chain it carries, then writes
 * the chain (when new), the run and its events in one transaction: a file that is refused at
 * any point leaves the database exactly as it was.
 */
const safeId = (meta: RunMeta) => meta.id.replace(/[^A-Za-z0-9._-]+/g, '-');

export function otlpFileName(meta: RunMeta): string {
  return `${safeId(meta)}.otlp.json`;
}

function download(name: string, value: unknown): void {
  downloadBlob(name, new Blob([`${JSON.stringify(value, null, 2)}\n`], { type: 'application/json' }));
}

async function storedRun(runId: string): Promise<{ meta: RunMeta; events: TraceEvent[] }> {
  const repo = await getRunRepository();
  const [meta, events] = await Promise.all([repo.getRun(runId), repo.getEvents(runId)]);
  if (!meta) throw new Error('that run is no longer stored');
  return { meta, events };
}

export async function exportRunOtlp(runId: string): Promise<void> {
  const { meta, events } = await storedRun(runId);
  download(otlpFileName(meta), exportRunToOtlp(meta, events));
}

/** The run as the CLI writes it, labels included, for `seamscope inspect` elsewhere. */
export async function exportRunFile(runId: string): Promise<void> {
  const { meta, events } = await storedRun(runId);
  download(`${safeId(meta)}.run.json`, toRunFile(meta, events));
}

const withArticle = (name: string) => `${/^[aeiou]/i.test(name) ? 'an' : 'a'} ${name}`;

type Prepared = { ok: true; run: RunMeta; events: TraceEvent[]; chain: Chain; warnings: string[]; formatName: string } | { ok: false; message: string };

/** Everything that can refuse a file, before anything is written. */
function prepare(text: string): Prepared {
  const result = importTraceText(text, stepRegistry);
  if (!result.ok) return { ok: false, message: result.format ? `read as ${withArticle(TRACE_FORMAT_NAMES[result.format])}, but ${result.message}` : result.message };
  const parsed = parseChain(result.run.chain, stepRegistry);
  if (!parsed.ok) {
    const first = parsed.problems.slice(0, 3).map((p) => `${p.path} ${p.message}`).join('; ');
    return { ok: false, message: `the chain rebuilt from the trace is not valid: ${first}` };
  }
  if (parsed.chain.id !== result.run.chainId) return { ok: false, message: 'the trace names two different chains' };
  return { ok: true, run: result.run, events: result.events, chain: parsed.chain, warnings: result.warnings, formatName: TRACE_FORMAT_NAMES[result.format] };
}

/** The imported chain and its run under another name (the run names the chain it ran, and its revision). */
function renamed(p: { run: RunMeta; events: TraceEvent[]; chain: Chain }, name: string): { run: RunMeta; events: TraceEvent[]; chain: Chain } {
  const chain = { ...p.chain, name };
  const chainRevision = hashValue(chain);
  const run = { ...p.run, chainName: name, chain, chainRevision };
  const events = p.events.map((e) => (e.type === 'run.started' ? { ...e, chainName: name, chainRevision } : e));
  return { run, events, chain };
}

/** What storing a trace's text came to: refused (nothing stored), stored now, or stored before. */
export type StoredTrace =
  | { ok: true; outcome: 'added' | 'already'; run: RunMeta; calls: number; formatName: string; warnings: string[] }
  | { ok: false; message: string };

/**
 * Checks a trace's text as any imported file is, and stores it: the one import path for a file
 * the person chose and a trace a connected collector sent. Shows nothing; the callers do.
 */
export async function storeTraceText(text: string): Promise<StoredTrace> {
  if (text.length > MAX_TRACE_BYTES) return { ok: false, message: `it is larger than ${MAX_TRACE_BYTES / 1024 / 1024} MB` };
  const prepared = prepare(text);
  if (!prepared.ok) return prepared;
  const { warnings, formatName } = prepared;
  let { run, events, chain } = prepared;
  const db = await openDb();
  await getAutosave()?.flush();
  // One transaction: the chain (only when the library has none with this id), the run, its events.
  const outcome = await db.transaction('rw', db.chains, db.runs, db.events, async () => {
    if (await db.runs.get(run.id)) return 'already' as const;
    const stored = await db.chains.get(chain.id);
    if (!stored) {
      // Traces of one service share a root span name: the library never shows two alike.
      const name = uniqueName(chain.name, (await db.chains.toArray()).map((r) => r.chain.name));
      if (name !== chain.name) ({ run, events, chain } = renamed(prepared, name));
      await saveChain(db, chain);
    }
    await db.runs.add(run);
    await db.events.bulkAdd(events.map((event) => ({ runId: run.id, event })));
    return 'added' as const;
  });
  useEditorStore.getState().setLibrary(await listChainSummaries(db));
  return { ok: true, outcome, run, calls: events.filter((e) => e.type === 'step.attempt').length, formatName, warnings };
}

/** Opens a stored run's chain, so the run is in the run list; `replay` opens the run as well. */
export async function showStoredRun(run: RunMeta, { replay }: { replay: boolean }): Promise<void> {
  const open = (await (await openDb()).chains.get(run.chainId))?.chain;
  if (open && selectChain(useEditorStore.getState())?.id !== open.id) {
    markClean(open);
    useEditorStore.getState().openChain(open);
  }
  await refreshRuns(run.chainId);
  if (!replay) return;
  const repo = await getRunRepository();
  const [stored, storedEvents] = await Promise.all([repo.getRun(run.id), repo.getEvents(run.id)]);
  if (stored) openRunData(stored, storedEvents);
}

export async function importTraceFile(file: File): Promise<void> {
  const toast = useEditorStore.getState().pushToast;
  if (file.size > MAX_TRACE_BYTES) {
    toast('error', `Import failed: ${file.name} is larger than ${MAX_TRACE_BYTES / 1024 / 1024} MB`);
    return;
  }
  const stored = await storeTraceText(await file.text());
  if (!stored.ok) {
    toast('error', `Import failed: ${stored.message}`);
    return;
  }
  await showStoredRun(stored.run, { replay: true });
  const { warnings } = stored;
  if (stored.outcome === 'already') toast('info', 'This trace was imported before; opened it');
  else toast('info', `Imported ${stored.calls} model call(s) from ${file.name} (${stored.formatName})${warnings.length ? ` (${warnings.length} note${warnings.length === 1 ? '' : 's'}: ${warnings.join('; ')})` : ''}`);
}
