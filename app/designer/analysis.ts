import type { LintFinding } from '../../src/chain/lint.ts';
import type { ChainProblem } from '../../src/chain/parse.ts';
import type { Chain } from '../../src/chain/schema.ts';
import { useEditorStore } from '../stores/editor-store.ts';
import { canvasRegistry } from './canvas-registry.ts';

/**
 * Problems, design lint and boundary markers for chains too large to check on every edit in
 * the main thread. Small chains are checked synchronously in the selectors (instant feedback);
 * above LIVE_ANALYSIS_MAX_STEPS the check runs in a worker after a short quiet period, and the
 * previous result for the same chain is shown meanwhile (lint of 3,000 steps takes ~0.4 s).
 */
export const LIVE_ANALYSIS_MAX_STEPS = 80;
const QUIET_MS = 300;

export interface AnalysisRequest {
  id: number;
  chain: Chain;
}

export interface AnalysisResponse {
  id: number;
  problems: ChainProblem[];
  /** Null when the chain has problems (lint needs a sound chain). */
  lint: LintFinding[] | null;
  unanswered: string[];
}

export interface Analysis {
  problems: readonly ChainProblem[];
  lint: readonly LintFinding[] | null;
  unanswered: ReadonlySet<string>;
}

export interface AnalysisStatus {
  analysis: Analysis | null;
  /** A newer revision is being checked; `analysis` is for an earlier one (or null). */
  pending: boolean;
}

export const isLargeChain = (chain: Chain) => chain.steps.length > LIVE_ANALYSIS_MAX_STEPS;

const done = new WeakMap<Chain, Analysis>();
const latestById = new Map<string, Analysis>();
let worker: Worker | null = null;
let queued: Chain | null = null;
let timer: ReturnType<typeof setTimeout> | null = null;
let nextId = 1;
const inFlight = new Map<number, Chain>();

/** A result landed: bump the store's version so every selector reading problems or lint runs again. */
const announce = () => useEditorStore.getState().bumpAnalysis();

function send(): void {
  timer = null;
  const chain = queued;
  queued = null;
  if (!chain || done.has(chain)) return;
  worker ??= createWorker();
  const id = nextId++;
  inFlight.set(id, chain);
  worker.postMessage({ id, chain } satisfies AnalysisRequest);
}

function createWorker(): Worker {
  const w = new Worker(new URL('./analysis.worker.ts', import.meta.url), { type: 'module', name: 'seamscope-analysis' });
  w.onmessage = (event: MessageEvent<AnalysisResponse>) => {
    const { id, problems, lint, unanswered } = event.data;
    const chain = inFlight.get(id);
    inFlight.delete(id);
    if (!chain) return;
    const analysis: Analysis = { problems, lint, unanswered: new Set(unanswered) };
    done.set(chain, analysis);
    latestById.set(chain.id, analysis);
    announce();
  };
  return w;
}

/** The analysis of this exact chain revision if it is done, else the last one for the chain (and a check is scheduled). */
export function backgroundAnalysis(chain: Chain): AnalysisStatus {
  const analysis = done.get(chain);
  if (analysis) return { analysis, pending: false };
  if (queued !== chain && ![...inFlight.values()].includes(chain)) {
    queued = chain;
    if (timer) clearTimeout(timer);
    // Wait for a pause in editing (and, on open, for the canvas to paint: handing a large chain
    // to the worker copies it on this thread).
    timer = setTimeout(send, QUIET_MS);
  }
  return { analysis: latestById.get(chain.id) ?? null, pending: true };
}

const noEdges: ReadonlySet<string> = new Set();
const unansweredCache = new WeakMap<Chain, ReadonlySet<string>>();

// Small chains are validated and linted in the main thread, by a module loaded after first paint.
let syncLint: typeof import('./lint-sync.ts') | null = null;
let loadingLint = false;
function lintModule(): typeof import('./lint-sync.ts') | null {
  if (!syncLint && !loadingLint) {
    loadingLint = true;
    void import('./lint-sync.ts').then((m) => {
      syncLint = m;
      announce();
    });
  }
  return syncLint;
}

/** parseChain's problems for a small chain, or null while the module is still loading (the engine validates again before it runs anything). */
export function problemsNow(chain: Chain): readonly ChainProblem[] | null {
  const m = lintModule();
  if (!m) return null;
  const result = m.parseChain(chain);
  return result.ok ? [] : result.problems;
}

/** Design lint of a small chain, or null while the lint module is still loading. */
export function lintNow(chain: Chain): LintFinding[] | null {
  return lintModule()?.lintChain(chain, canvasRegistry) ?? null;
}

/** False while this revision's problems or lint are still to come (callers must not cache derived values yet). */
export function analysisSettled(chain: Chain): boolean {
  return isLargeChain(chain) ? !backgroundAnalysis(chain).pending : lintModule() !== null;
}

/** Data edges whose boundary contract leaves a decision unanswered (the canvas marks them). */
export function unansweredOf(chain: Chain): ReadonlySet<string> {
  if (isLargeChain(chain)) return backgroundAnalysis(chain).analysis?.unanswered ?? noEdges;
  let ids = unansweredCache.get(chain);
  if (!ids) {
    const m = lintModule();
    if (!m) return noEdges;
    ids = m.unansweredEdgeIds(chain);
    unansweredCache.set(chain, ids);
  }
  return ids;
}
