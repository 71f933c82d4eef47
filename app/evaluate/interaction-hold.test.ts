import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createInteractionHold } from './interaction-hold.ts';

describe('createInteractionHold', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  const settled = (p: Promise<void>) => {
    const state = { done: false };
    void p.then(() => (state.done = true));
    return state;
  };

  it('lets an item start at once when the canvas has not moved', async () => {
    const w = settled(createInteractionHold().wait());
    await vi.advanceTimersByTimeAsync(0);
    expect(w.done).toBe(true);
  });

  it('holds until the last report lapses, extended by each report', async () => {
    const hold = createInteractionHold();
    hold.extend(300);
    const w = settled(hold.wait());
    await vi.advanceTimersByTimeAsync(200);
    hold.extend(300);
    await vi.advanceTimersByTimeAsync(250);
    expect(w.done).toBe(false);
    await vi.advanceTimersByTimeAsync(60);
    expect(w.done).toBe(true);
  });

  it('never holds longer than maxWaitMs, however long the canvas keeps moving', async () => {
    const hold = createInteractionHold({ maxWaitMs: 1_000 });
    hold.extend(300);
    const w = settled(hold.wait());
    for (let t = 0; t < 900; t += 100) {
      await vi.advanceTimersByTimeAsync(100);
      hold.extend(300);
    }
    expect(w.done).toBe(false);
    await vi.advanceTimersByTimeAsync(100);
    expect(w.done).toBe(true);
  });

  it('lets go at once when the batch is cancelled', async () => {
    const hold = createInteractionHold();
    const controller = new AbortController();
    hold.extend(5_000);
    const w = settled(hold.wait(controller.signal));
    await vi.advanceTimersByTimeAsync(10);
    expect(w.done).toBe(false);
    controller.abort();
    await vi.advanceTimersByTimeAsync(0);
    expect(w.done).toBe(true);
  });
});
