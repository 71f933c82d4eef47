import { create } from 'zustand';
import type { BoundaryReport } from '../../src/inspect/index.ts';
import type { StepMetrics } from '../../src/inspect/index.ts';
import type { RunDiff } from '../../src/inspect/index.ts';
import type { BoundaryLabel, RunMeta, RunStatus, StepStatus, TraceEvent } from '../../src/trace/index.ts';
import type { RunView } from '../../src/trace/index.ts';

/** What the canvas and the step panel show about one step of the live run. */
export interface LiveStep {
  status: StepStatus | 'running';
  attempts: number;
  failure?: { code: string; message: string };
  /** The last endpoint error seen on this step (status code and message), if any. */
  endpointError?: { status: number | null; message: string };
}

/** Text streaming in for a step's current attempt (model steps with `stream: true`); never recorded. */
export interface PartialText {
  text: string;
  unit?: string;
}

export interface LiveRun {
  runId: string;
  chainId: string;
  status: RunStatus;
  steps: Readonly<Record<string, LiveStep>>;
  partial: Readonly<Record<string, PartialText>>;
  error?: string;
}

export interface ReplayState {
  meta: RunMeta;
  events: readonly TraceEvent[];
  view: RunView;
  /** One report per boundary, in `view.boundaries` order; empty while the run is live. */
  reports: readonly BoundaryReport[];
  /** The boundary on show; in a run with no boundaries (one step, an imported trace), the step. */
  index: number;
  /** The run is still going: the view grows as events arrive. */
  live: boolean;
  /** Compare mode: two runs step by step, A the earlier (a fork's parent), B the later. */
  compare: { a: RunMeta; b: RunMeta; diff: RunDiff } | null;
}

/** Per-step metrics across the open chain's stored runs (for the node badges and the table). */
export interface ChainMetrics {
  chainId: string;
  runs: number;
  byStep: ReadonlyMap<string, StepMetrics>;
}

/**
 * Live and replayed runs, apart from the editor store. Events from the engine are folded in
 * by a pure reducer; starting the engine and reading the database happen in app/runs.
 */
export interface RunState {
  live: LiveRun | null;
  runs: readonly RunMeta[];
  replay: ReplayState | null;
  metrics: ChainMetrics | null;
  startLive(runId: string, chainId: string): void;
  applyEvent(event: TraceEvent): void;
  /** Appends streamed text, batched per step by the caller. */
  applyDeltas(deltas: Readonly<Record<string, PartialText>>): void;
  finishLive(meta: Pick<RunMeta, 'id' | 'status' | 'error'>): void;
  setRuns(runs: readonly RunMeta[]): void;
  setMetrics(metrics: ChainMetrics | null): void;
  openReplay(replay: Omit<ReplayState, 'index' | 'compare'> & { index?: number }): void;
  /** The live run's replay grew; ignored unless that run's live replay is the one open. */
  updateLiveReplay(runId: string, events: readonly TraceEvent[], view: RunView): void;
  closeReplay(): void;
  /** A run's sufficiency labels changed (already stored): the open replay and the run list follow. */
  setRunLabels(runId: string, labels: readonly BoundaryLabel[]): void;
  moveBoundary(delta: number): void;
  setBoundary(index: number): void;
  setCompare(compare: ReplayState['compare']): void;
}

/** Streamed text kept per step: the tail is what the node shows, the rest is not needed. */
const PARTIAL_LIMIT = 4000;

/** What ← and → step through: boundaries, or the steps when no data crossed between two of them. */
const stops = (view: RunView) => view.boundaries.length || view.steps.length;

function foldEvent(live: LiveRun, event: TraceEvent): LiveRun {
  const patchStep = (stepId: string, patch: (s: LiveStep) => LiveStep, clearPartial = false): LiveRun => {
    const current = live.steps[stepId] ?? { status: 'running', attempts: 0 };
    const steps = { ...live.steps, [stepId]: patch(current) };
    if (!clearPartial || !live.partial[stepId]) return { ...live, steps };
    const { [stepId]: _done, ...partial } = live.partial;
    return { ...live, steps, partial };
  };
  switch (event.type) {
    case 'run.started':
      return live;
    case 'step.started':
      return patchStep(event.stepId, () => ({ status: 'running', attempts: 0 }), true);
    case 'step.attempt': {
      const r = event.record;
      // The attempt is recorded now: its text lives in the trace, the stream starts over.
      return patchStep(event.stepId, (s) => ({
        ...s,
        attempts: event.attempt,
        endpointError: r.failure === 'provider_error' ? { status: r.status ?? null, message: r.errors.join('; ') } : s.endpointError,
      }), true);
    }
    case 'step.transport_retry':
      return patchStep(event.stepId, (s) => ({ ...s, endpointError: { status: event.status, message: event.error } }));
    case 'step.finished':
      return patchStep(event.stepId, (s) => ({ ...s, status: event.status, failure: event.failure }), true);
    case 'run.finished':
      return { ...live, status: event.status, error: event.error, partial: {} };
    default:
      return live;
  }
}

function appendDeltas(live: LiveRun, deltas: Readonly<Record<string, PartialText>>): LiveRun {
  const partial = { ...live.partial };
  for (const [stepId, d] of Object.entries(deltas)) {
    const before = partial[stepId];
    const text = before && before.unit === d.unit ? before.text + d.text : d.text;
    partial[stepId] = { text: text.length > PARTIAL_LIMIT ? text.slice(-PARTIAL_LIMIT) : text, unit: d.unit };
  }
  return { ...live, partial };
}

export const useRunStore = create<RunState>()((set) => ({
  live: null,
  runs: [],
  replay: null,
  metrics: null,
  startLive: (runId, chainId) => set({ live: { runId, chainId, status: 'running', steps: {}, partial: {} } }),
  applyEvent: (event) => set((state) => (state.live ? { live: foldEvent(state.live, event) } : {})),
  applyDeltas: (deltas) => set((state) => (state.live?.status === 'running' ? { live: appendDeltas(state.live, deltas) } : {})),
  finishLive: (meta) =>
    set((state) => (state.live?.runId === meta.id ? { live: { ...state.live, status: meta.status, error: meta.error, partial: {} } } : {})),
  setRuns: (runs) => set({ runs }),
  setMetrics: (metrics) => set({ metrics }),
  openReplay: ({ index = 0, ...replay }) => {
    const max = Math.max(0, stops(replay.view) - 1);
    set({ replay: { ...replay, index: Math.min(max, Math.max(0, index)), compare: null } });
  },
  updateLiveReplay: (runId, events, view) =>
    set((state) => {
      const open = state.replay;
      if (!open?.live || open.meta.id !== runId) return {};
      // The first boundary arriving switches what the index counts: start at that boundary.
      const index = open.view.boundaries.length === 0 && view.boundaries.length > 0 ? 0 : open.index;
      return { replay: { ...open, events, view, index } };
    }),
  closeReplay: () => set({ replay: null }),
  setRunLabels: (runId, labels) =>
    set((state) => {
      const withLabels = (meta: RunMeta): RunMeta => {
        const { labels: _old, ...rest } = meta;
        return labels.length ? { ...rest, labels: [...labels] } : rest;
      };
      return {
        runs: state.runs.map((r) => (r.id === runId ? withLabels(r) : r)),
        ...(state.replay?.meta.id === runId ? { replay: { ...state.replay, meta: withLabels(state.replay.meta) } } : {}),
      };
    }),
  moveBoundary: (delta) =>
    set((state) => {
      if (!state.replay) return {};
      const max = Math.max(0, stops(state.replay.view) - 1);
      const index = Math.min(max, Math.max(0, state.replay.index + delta));
      return index === state.replay.index ? {} : { replay: { ...state.replay, index } };
    }),
  setBoundary: (index) => set((state) => (state.replay ? { replay: { ...state.replay, index } } : {})),
  setCompare: (compare) => set((state) => (state.replay ? { replay: { ...state.replay, compare } } : {})),
}));
