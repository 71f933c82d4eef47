import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TraceEvent } from './events.ts';
import { createTraceRecorder } from './recorder.ts';
import type { RunRepository } from './repository.ts';

const event = (stepId: string): TraceEvent => ({ type: 'step.started', at: 0, stepId });

function repoSpy() {
  const writes: string[][] = [];
  const repo = { appendEvents: async (_id: string, batch: readonly TraceEvent[]) => void writes.push(batch.map((e) => (e as { stepId: string }).stepId)) } as unknown as RunRepository;
  return { repo, writes };
}

describe('trace recorder', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('writes on flush at once, in order', async () => {
    const { repo, writes } = repoSpy();
    const recorder = createTraceRecorder(repo, 'r', { intervalMs: 100 });
    recorder.append(event('a'));
    recorder.append(event('b'));
    await recorder.flush();
    recorder.append(event('c'));
    await recorder.flush();
    expect(writes).toEqual([['a', 'b'], ['c']]);
    await recorder.close();
  });

  it('writes an event within one interval without a flush, also after an earlier flush', async () => {
    const { repo, writes } = repoSpy();
    const recorder = createTraceRecorder(repo, 'r', { intervalMs: 100 });
    recorder.append(event('a'));
    await recorder.flush();
    await vi.advanceTimersByTimeAsync(40);
    recorder.append(event('b'));
    expect(writes).toEqual([['a']]);
    await vi.advanceTimersByTimeAsync(60);
    expect(writes).toEqual([['a'], ['b']]);
    recorder.append(event('c'));
    await vi.advanceTimersByTimeAsync(99);
    expect(writes).toEqual([['a'], ['b']]);
    await vi.advanceTimersByTimeAsync(1);
    expect(writes).toEqual([['a'], ['b'], ['c']]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('arms one timer at a time however often it is flushed, and close leaves none behind', async () => {
    const { repo, writes } = repoSpy();
    const recorder = createTraceRecorder(repo, 'r', { intervalMs: 250 });
    for (let i = 0; i < 50; i++) {
      recorder.append(event(`u${i}`));
      await recorder.flush();
      expect(vi.getTimerCount()).toBe(1);
    }
    recorder.append(event('last'));
    await recorder.close();
    expect(vi.getTimerCount()).toBe(0);
    expect(writes.flat()).toEqual([...Array.from({ length: 50 }, (_, i) => `u${i}`), 'last']);
  });

  it('calls onEvent for every event as it is appended', () => {
    const { repo } = repoSpy();
    const seen: string[] = [];
    const recorder = createTraceRecorder(repo, 'r', { onEvent: (e) => seen.push((e as { stepId: string }).stepId) });
    recorder.append(event('a'));
    recorder.append(event('b'));
    expect(seen).toEqual(['a', 'b']);
    void recorder.close();
  });
});
