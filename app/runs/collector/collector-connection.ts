import type { RunMeta } from '../../../src/trace/index.ts';
import { egressAnswerFor, saveEgressAnswer } from '../../egress/consent.ts';
import { useCollectorStore } from '../../stores/collector-store.ts';
import { useEditorStore } from '../../stores/editor-store.ts';
import { useRunStore } from '../../stores/run-store.ts';
import { selectChain } from '../../stores/selectors.ts';
import { showStoredRun, storeTraceText } from '../interop/trace-interop.ts';
import { refreshRuns } from '../run-actions.ts';
import { cleanToken, collectorOrigin, readCollectorPage, type CollectorPage } from './collector-page.ts';

/**
 * A live connection to `seamscope collect`: the read API is polled, and each new run file goes
 * through the same import as a file chosen with Import trace (checked, then stored in IndexedDB).
 * Connecting is the person's consent to reach that origin (kept with the other egress answers);
 * the token stays in this tab's memory only. One connection per tab.
 */
const POLL_MS = 1_000;
const MAX_BACKOFF_MS = 15_000;
const ADDRESS_KEY = 'seamscope.collector.address.v1';

interface Session {
  origin: string;
  token: string;
  cursor: number;
  collector: string | null;
  stop: AbortController;
}

let session: Session | null = null;

const setState = useCollectorStore.setState;

/** The address last connected on this device, to offer again (never the token). */
export function lastAddress(): string | null {
  try {
    return globalThis.localStorage?.getItem(ADDRESS_KEY) ?? null;
  } catch {
    return null;
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });
}

/** Stops polling. What was stored stays stored. */
export function disconnectCollector(problem: string | null = null): void {
  session?.stop.abort();
  session = null;
  setState({ status: 'off', problem });
}

/**
 * Connects: the first page is read before this resolves, so a wrong address or token is said
 * in the dialog. Resolves to null when connected, or to what went wrong.
 */
export async function connectCollector(address: string, token: string): Promise<string | null> {
  const where = collectorOrigin(address);
  if ('problem' in where) return where.problem;
  const clean = cleanToken(token);
  if (!clean) return 'paste the token `seamscope collect` printed when it started';
  disconnectCollector();
  const s: Session = { origin: where.origin, token: clean, cursor: 0, collector: null, stop: new AbortController() };
  session = s;
  // The person asked for this origin by name: that is the consent, given before anything is sent.
  saveEgressAnswer(s.origin, 'allowed');
  try {
    globalThis.localStorage?.setItem(ADDRESS_KEY, s.origin);
  } catch {
    // Storage blocked: the address is offered again only in this tab.
  }
  setState({ status: 'connecting', origin: s.origin, received: 0, lastName: null, problem: null });
  const first = await readCollectorPage(s.origin, s.token, 0, s.stop.signal);
  if (session !== s) return 'disconnected';
  if (!first.ok) {
    disconnectCollector();
    return first.message;
  }
  setState({ status: 'connected' });
  void poll(s, first.page);
  return null;
}

async function poll(s: Session, firstPage: CollectorPage): Promise<void> {
  let page: CollectorPage | null = firstPage;
  let backoff = POLL_MS;
  while (session === s) {
    if (page) {
      await take(s, page);
      if (session !== s) return;
      if (!page.more) await sleep(POLL_MS, s.stop.signal);
    }
    if (session !== s) return;
    // Consent withdrawn (here or in another tab): nothing more is sent.
    if (egressAnswerFor(s.origin) !== 'allowed') return disconnectCollector(`${s.origin} is no longer allowed on this device`);
    const read = await readCollectorPage(s.origin, s.token, s.cursor, s.stop.signal);
    if (session !== s) return;
    if (read.ok) {
      page = read.page;
      backoff = POLL_MS;
      setState({ status: 'connected', problem: null });
      continue;
    }
    // A refused token will not be accepted later: the collector was restarted with a new one.
    if (read.status === 401) return disconnectCollector(read.message);
    page = null;
    setState({ status: 'retrying', problem: read.message });
    await sleep(backoff, s.stop.signal);
    backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
  }
}

/** Stores a page's runs, one by one, each through the import a chosen file goes through. */
async function take(s: Session, page: CollectorPage): Promise<void> {
  if (s.collector !== null && s.collector !== page.collector) {
    // Another collector answers at this address: its cursors start again (what is stored is skipped).
    s.collector = page.collector;
    s.cursor = 0;
    return;
  }
  s.collector = page.collector;
  let newest: RunMeta | null = null;
  for (const run of page.runs) {
    const stored = await storeTraceText(run.text);
    if (session !== s) return;
    if (!stored.ok) useEditorStore.getState().pushToast('error', `A collected trace (${run.name}) was not imported: ${stored.message}`);
    else if (stored.outcome === 'added') {
      newest = stored.run;
      const { received } = useCollectorStore.getState();
      setState({ received: received + 1, lastName: stored.run.chainName });
    }
  }
  s.cursor = page.next;
  if (newest) await show(newest);
}

/**
 * A trace that arrived is put in view when nothing else is: its chain opens, with the run in the
 * run list. During a replay or a run the person is left where they are, and told.
 */
async function show(run: RunMeta): Promise<void> {
  const busy = useRunStore.getState().replay !== null || useRunStore.getState().live?.status === 'running';
  if (!busy) return showStoredRun(run, { replay: false });
  if (selectChain(useEditorStore.getState())?.id === run.chainId) await refreshRuns(run.chainId);
  useEditorStore.getState().pushToast('info', `Collected "${run.chainName}"`, { label: 'Open', run: () => void showStoredRun(run, { replay: true }) });
}
