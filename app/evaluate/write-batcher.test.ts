import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createWriteBatcher } from './write-batcher.ts';

describe('createWriteBatcher', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  const recorder = () => {
    const writes: number[][] = [];
    return { writes, write: async (items: number[]) => void writes.push(items) };
  };

  it('writes what arrives within an interval as one batch', async () => {
    const r = recorder();
    const batcher = createWriteBatcher(r.write, { intervalMs: 250 });
    for (let i = 0; i < 5; i++) batcher.add(i);
    expect(r.writes).toEqual([]);
    await vi.advanceTimersByTimeAsync(250);
    batcher.add(5);
    await vi.advanceTimersByTimeAsync(250);
    expect(r.writes).toEqual([[0, 1, 2, 3, 4], [5]]);
  });

  it('writes at once when maxItems are waiting', async () => {
    const r = recorder();
    const batcher = createWriteBatcher(r.write, { intervalMs: 10_000, maxItems: 3 });
    for (let i = 0; i < 7; i++) batcher.add(i);
    await vi.advanceTimersByTimeAsync(0);
    expect(r.writes).toEqual([[0, 1, 2], [3, 4, 5]]);
    await batcher.flush();
    expect(r.writes).toEqual([[0, 1, 2], [3, 4, 5], [6]]);
  });

  it('loses nothing on flush (the end of a batch, or its cancel): every item written once, in order', async () => {
    let release: () => void = () => undefined;
    const writes: number[][] = [];
    // The first write is slow: later batches wait for it, and flush waits for all of them.
    const write = async (items: number[]) => {
      if (writes.length === 0) await new Promise<void>((r) => (release = r));
      writes.push(items);
    };
    const batcher = createWriteBatcher(write, { intervalMs: 50 });
    batcher.add(1);
    batcher.add(2);
    await vi.advanceTimersByTimeAsync(50);
    batcher.add(3);
    const flushed = batcher.flush();
    let done = false;
    void flushed.then(() => (done = true));
    await vi.advanceTimersByTimeAsync(100);
    expect(done).toBe(false);
    release();
    await flushed;
    expect(writes).toEqual([[1, 2], [3]]);
    expect(writes.flat()).toEqual([1, 2, 3]);
  });

  it('a failed write stops the batch: the next add throws it and flush rejects with it', async () => {
    const batcher = createWriteBatcher<number>(async () => { throw new Error('quota exceeded'); }, { intervalMs: 10 });
    batcher.add(1);
    await vi.advanceTimersByTimeAsync(10);
    expect(() => batcher.add(2)).toThrow('quota exceeded');
    await expect(batcher.flush()).rejects.toThrow('quota exceeded');
  });
});
