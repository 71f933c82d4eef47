import type { RunMeta } from '../../../src/trace/index.ts';
import { COLLECTOR_ADDRESS_KEY, collectorConsent } from '../../egress/collector-consent.ts';
import { useCollectorStore } from '../../stores/collector-store.ts';
import { useEditorStore } from '../../stores/editor-store.ts';
import { useRunStore } from '../../stores/run-store.ts';
import { selectChain } from '../../stores/selectors.ts';
import { showStoredRun, storeTraceText } from '../interop/trace-interop.ts';
import { refreshRuns } from '../run-actions.ts';
import { backlogChoiceFor, saveBacklogChoice } from './backlog-choice.ts';
import { cleanToken, collectorOrigin, readCollectorPage, type CollectorPage } from './collector-page.ts';

/**
 * A live connection to `seamscope collect`: the read API is polled, and each new run file goes
 * through the same import as a file chosen with Import trace (checked, then stored in IndexedDB).
 * Connecting is the person's consent to reach that origin (a consent of its own, not a webhook's:
 * app/egress/collector-consent.ts); the token stays in this tab's memory only. One connection per
 * tab. Traces the collector already held at the first connect are imported only if the person
 * says so (backlog-choice.ts).
 */
const POLL_MS = 1_000;
const MAX_BACKOFF_MS = 15_000;

interface Session {
  origin: string;
  token: string;
  cursor: number;
  collector: string | null;
  stop: AbortController;
  /** Only traces written after the first connect: the place reached is remembered as it moves. */
  onlyNew: boolean;
  /** The first page, held (nothing stored) while the person is asked about the backlog. */
  held: CollectorPage | null;
}

/** What connecting came to: connected, a problem to show in the dialog, or a question to ask. */
export type ConnectOutcome =
  | { connected: true }
  | { problem: string }
  /** The collector already holds `waiting` traces: import them, or only new ones? (answerBacklog) */
  | { waiting: number; restarted: boolean; origin: string };

let session: Session | null = null;

const setState = useCollectorStore.setState;

/** The address last connected on this device, to offer again (never the token). */
export function lastAddress(): string | null {
  try {
    return globalThis.localStorage?.getItem(COLLECTOR_ADDRESS_KEY) ?? null;
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

/** The person's Disconnect: polling stops, and this device no longer lets the app reach that address (every tab stops). */
export function disconnectByPerson(): void {
  if (session) collectorConsent.save(session.origin, null);
  disconnectCollector();
}

function start(s: Session, page: CollectorPage | null): ConnectOutcome {
  setState({ status: 'connected' });
  void poll(s, page);
  return { connected: true };
}

/**
 * Connects: the first page is read before this resolves, so a wrong address or token is said
 * in the dialog. When the collector already holds traces and the person has not said what to do
 * with them for this address, nothing is stored until answerBacklog() has their answer.
 */
export async function connectCollector(address: string, token: string): Promise<ConnectOutcome> {
  const where = collectorOrigin(address);
  if ('problem' in where) return where;
  const clean = cleanToken(token);
  if (!clean) return { problem: 'paste the token `seamscope collect` printed when it started' };
  disconnectCollector();
  const remembered = backlogChoiceFor(where.origin);
  const resumeAt = remembered?.choice === 'new' ? remembered.cursor : 0;
  const s: Session = { origin: where.origin, token: clean, cursor: resumeAt, collector: null, stop: new AbortController(), onlyNew: false, held: null };
  session = s;
  // The person asked for this origin by name: that is the consent, given before anything is sent.
  collectorConsent.save(s.origin, 'allowed');
  try {
    globalThis.localStorage?.setItem(COLLECTOR_ADDRESS_KEY, s.origin);
  } catch {
    // Storage blocked: the address is offered again only in this tab.
  }
  setState({ status: 'connecting', origin: s.origin, received: 0, lastName: null, problem: null });
  const first = await readCollectorPage(s.origin, s.token, resumeAt, s.stop.signal);
  if (session !== s) return { problem: 'disconnected' };
  if (!first.ok) {
    disconnectCollector();
    return { problem: first.message };
  }
  const page = first.page;
  s.collector = page.collector;
  if (remembered?.choice === 'all') return start(s, page);
  if (remembered?.choice === 'new' && remembered.collector === page.collector) {
    s.onlyNew = true;
    return start(s, page);
  }
  if (page.total === 0) {
    // Nothing to ask about. A person who chose only new ones keeps that choice, on this collector now.
    if (remembered) {
      s.onlyNew = true;
      saveBacklogChoice(s.origin, { choice: 'new', collector: page.collector, cursor: 0 });
    } else saveBacklogChoice(s.origin, { choice: 'all' });
    return start(s, page);
  }
  s.held = page;
  return { waiting: page.total, restarted: remembered !== null, origin: s.origin };
}

/**
 * The person's answer about the traces the collector already held: import them, only new ones,
 * or neither (the dialog closed: disconnected, nothing stored). Kept for this address.
 */
export function answerBacklog(choice: 'all' | 'new' | null): void {
  const s = session;
  const page = s?.held;
  if (!s || !page) return;
  s.held = null;
  if (choice === null) return disconnectCollector();
  if (choice === 'all') {
    saveBacklogChoice(s.origin, { choice: 'all' });
    s.cursor = 0;
    // The held page may start past 0 (a cursor remembered from before a restart): read again from 0.
    start(s, null);
    return;
  }
  s.onlyNew = true;
  s.cursor = page.total;
  saveBacklogChoice(s.origin, { choice: 'new', collector: page.collector, cursor: page.total });
  start(s, null);
}

async function poll(s: Session, firstPage: CollectorPage | null): Promise<void> {
  let page: CollectorPage | null = firstPage;
  let backoff = POLL_MS;
  while (session === s) {
    if (page) {
      await take(s, page);
      if (session !== s) return;
      if (!page.more) await sleep(POLL_MS, s.stop.signal);
    }
    if (session !== s) return;
    // Disconnected in another tab (consent withdrawn on this device): nothing more is sent.
    if (collectorConsent.answerFor(s.origin) !== 'allowed') return disconnectCollector(`${s.origin} was disconnected in another tab`);
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
    // Another collector answers at this address. Importing everything: its cursors start again
    // (what is stored is skipped). Only new ones: which of its traces are new cannot be told, so ask.
    if (s.onlyNew) return disconnectCollector(`another collector answers at ${s.origin} now: connect again to choose what to import from it`);
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
  const moved = page.next !== s.cursor;
  s.cursor = page.next;
  if (moved && s.onlyNew && s.collector) saveBacklogChoice(s.origin, { choice: 'new', collector: s.collector, cursor: s.cursor });
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
