import { create } from 'zustand';
import type { RunMeta, RunStatus, StepStatus, TraceEvent } from '../../src/trace/events.ts';
import type { RunView } from '../../src/trace/replay.ts';

/** What the canvas and the step panel show about one step of the live run. */
export interface LiveStep {
  status: StepStatus | 'running';
  attempts: number;
  failure?: { code: string; message: string };
  /** The last endpoint error seen on this step (status code and message), if any. */
  endpointError?: { status: number | null; message: string };
}

export interface LiveRun {
  runId: string;
  chainId: string;
  status: RunStatus;
  steps: Readonly<Record<string, LiveStep>>;
  error?: string;
}

export interface ReplayState {
  meta: RunMeta;
  view: RunView;
  index: number;
}

/**
 * Live and replayed runs, apart from the editor store. Events from the engine are folded in
 * by a pure reducer; starting the engine and reading the database happen in app/runs.
 */
export interface RunState {
  live: LiveRun | null;
  runs: readonly RunMeta[];
  replay: ReplayState | null;
  startLive(runId: string, chainId: string): void;
  applyEvent(event: TraceEvent): void;
  finishLive(meta: Pick<RunMeta, 'id' | 'status' | 'error'>): void;
  setRuns(runs: readonly RunMeta[]): void;
  openReplay(meta: RunMeta, view: RunView): void;
  closeReplay(): void;
  moveBoundary(delta: number): void;
  setBoundary(index: number): void;
}

function foldEvent(live: LiveRun, event: TraceEvent): LiveRun {
  const patchStep = (stepId: string, patch: (s: LiveStep) => LiveStep): LiveRun => {
    const current = live.steps[stepId] ?? { status: 'running', attempts: 0 };
    return { ...live, steps: { ...live.steps, [stepId]: patch(current) } };
  };
  switch (event.type) {
    case 'run.started':
      return live;
    case 'step.started':
      return patchStep(event.stepId, () => ({ status: 'running', attempts: 0 }));
    case 'step.attempt': {
      const r = event.record;
      return patchStep(event.stepId, (s) => ({
        ...s,
        attempts: event.attempt,
        endpointError: r.failure === 'provider_error' ? { status: r.status ?? null, message: r.errors.join('; ') } : s.endpointError,
      }));
    }
    case 'step.transport_retry':
      return patchStep(event.stepId, (s) => ({ ...s, endpointError: { status: event.status, message: event.error } }));
    case 'step.finished':
      return patchStep(event.stepId, (s) => ({ ...s, status: event.status, failure: event.failure }));
    case 'run.finished':
      return { ...live, status: event.status, error: event.error };
    default:
      return live;
  }
}

export const useRunStore = create<RunState>()((set) => ({
  live: null,
  runs: [],
  replay: null,
  startLive: (runId, chainId) => set({ live: { runId, chainId, status: 'running', steps: {} } }),
  applyEvent: (event) => set((state) => (state.live ? { live: foldEvent(state.live, event) } : {})),
  finishLive: (meta) =>
    set((state) => (state.live?.runId === meta.id ? { live: { ...state.live, status: meta.status, error: meta.error } } : {})),
  setRuns: (runs) => set({ runs }),
  openReplay: (meta, view) => set({ replay: { meta, view, index: 0 } }),
  closeReplay: () => set({ replay: null }),
  moveBoundary: (delta) =>
    set((state) => {
      if (!state.replay) return {};
      const max = Math.max(0, state.replay.view.boundaries.length - 1);
      const index = Math.min(max, Math.max(0, state.replay.index + delta));
      return index === state.replay.index ? {} : { replay: { ...state.replay, index } };
    }),
  setBoundary: (index) => set((state) => (state.replay ? { replay: { ...state.replay, index } } : {})),
}));
