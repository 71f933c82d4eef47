import { beforeEach, describe, expect, it } from 'vitest';
import type { AttemptRecord, RunMeta, TraceEvent } from '../../src/trace/index.ts';
import type { RunView } from '../../src/trace/index.ts';
import { useRunStore } from './run-store.ts';

const record = { messages: [], segments: [], params: { model: 'm', maxTokens: 1, structured: false, stream: true }, errors: [], latencyMs: 1, configHash: 'h' } as AttemptRecord;
const meta = (id: string) => ({ id, chainId: 'c' }) as RunMeta;
const view = (boundaries: number, steps = 2) => ({ steps: Array.from({ length: steps }, (_, i) => ({ stepId: `s${i}` })), boundaries: Array.from({ length: boundaries }, (_, i) => ({ id: `b${i}` })) }) as unknown as RunView;

beforeEach(() => useRunStore.setState({ live: null, replay: null, runs: [], metrics: null }));

describe('run store', () => {
  it('streams text onto the running step and clears it when the attempt is recorded', () => {
    const s = useRunStore.getState();
    s.startLive('r', 'c');
    s.applyEvent({ type: 'step.started', at: 1, stepId: 'a' });
    s.applyDeltas({ a: { text: 'Hel' } });
    s.applyDeltas({ a: { text: 'lo' } });
    expect(useRunStore.getState().live?.partial.a?.text).toBe('Hello');
    // A transport retry keeps what arrived; the recorded attempt replaces it.
    s.applyEvent({ type: 'step.transport_retry', at: 2, stepId: 'a', attempt: 1, error: 'cut', status: null, waitMs: 5 });
    expect(useRunStore.getState().live?.partial.a?.text).toBe('Hello');
    s.applyEvent({ type: 'step.attempt', at: 3, stepId: 'a', attempt: 1, record } as TraceEvent);
    expect(useRunStore.getState().live?.partial.a).toBeUndefined();
    // Another unit's stream starts over rather than gluing onto the last one.
    s.applyDeltas({ a: { text: 'x', unit: 'u1' } });
    s.applyDeltas({ a: { text: 'y', unit: 'u2' } });
    expect(useRunStore.getState().live?.partial.a).toEqual({ text: 'y', unit: 'u2' });
  });

  it('grows only the live replay of that run, and steps through steps when there are no boundaries', () => {
    const s = useRunStore.getState();
    s.openReplay({ meta: meta('r1'), events: [], view: view(0, 3), reports: [], live: true });
    s.moveBoundary(1);
    expect(useRunStore.getState().replay?.index).toBe(1);
    s.updateLiveReplay('other', [], view(2));
    expect(useRunStore.getState().replay?.view.boundaries).toHaveLength(0);
    // The first boundary arriving resets what the index counts.
    s.updateLiveReplay('r1', [], view(2));
    expect(useRunStore.getState().replay?.index).toBe(0);
    s.openReplay({ meta: meta('r2'), events: [], view: view(2), reports: [], live: false });
    s.updateLiveReplay('r1', [], view(5));
    expect(useRunStore.getState().replay?.meta.id).toBe('r2');
    expect(useRunStore.getState().replay?.view.boundaries).toHaveLength(2);
  });

  it('follows the stored labels of a run in the open replay and the run list, and drops the field when none are left', () => {
    const s = useRunStore.getState();
    s.setRuns([meta('r1'), meta('r2')]);
    s.openReplay({ meta: meta('r1'), events: [], view: view(1), reports: [], live: false });
    const label = { boundaryId: 'b0', producer: 's0', consumer: 's1', verdict: 'derivable' as const, note: '', at: 1 };
    s.setRunLabels('r1', [label]);
    expect(useRunStore.getState().replay?.meta.labels).toEqual([label]);
    expect(useRunStore.getState().runs.map((r) => r.labels?.length ?? 0)).toEqual([1, 0]);
    s.setRunLabels('r1', []);
    expect('labels' in (useRunStore.getState().replay?.meta ?? {})).toBe(false);
    // Another run's labels leave the open replay alone.
    s.setRunLabels('r2', [label]);
    expect(useRunStore.getState().replay?.meta.labels).toBeUndefined();
  });
});
