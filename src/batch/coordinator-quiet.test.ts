import { describe, expect, it } from 'vitest';
import { createQuietWatch } from './coordinator.ts';

describe('createQuietWatch: how long the coordinator waits before asking whether the batch is done', () => {
  it('waits the cap until it has seen two results', () => {
    const watch = createQuietWatch(250);
    expect(watch.nextWaitMs()).toBe(250);
    watch.heard(1000);
    expect(watch.nextWaitMs()).toBe(250);
  });

  it('waits about four gaps in a fast batch, never under 20 ms, never over the cap', () => {
    const fast = createQuietWatch(250);
    for (let t = 0; t <= 600; t += 6) fast.heard(t);
    expect(fast.nextWaitMs()).toBe(24);
    const faster = createQuietWatch(250);
    for (let t = 0; t <= 200; t += 2) faster.heard(t);
    expect(faster.nextWaitMs()).toBe(20);
    const slow = createQuietWatch(250);
    for (let t = 0; t <= 10_000; t += 900) slow.heard(t);
    expect(slow.nextWaitMs()).toBe(250);
  });

  it('doubles after each quiet in a row, up to the cap, and starts over at the next result', () => {
    const watch = createQuietWatch(250);
    for (let t = 0; t <= 600; t += 6) watch.heard(t);
    const waits = [watch.nextWaitMs()];
    for (let i = 0; i < 5; i++) {
      watch.quiet();
      waits.push(watch.nextWaitMs());
    }
    expect(waits).toEqual([24, 48, 96, 192, 250, 250]);
    watch.heard(700);
    // The gap that spanned the quiet raises the average, and the streak is gone.
    expect(watch.nextWaitMs()).toBeGreaterThan(24);
    expect(watch.nextWaitMs()).toBeLessThan(250);
  });

  it('keeps a shorter cap (a short sweep interval) as its ceiling', () => {
    const watch = createQuietWatch(50);
    expect(watch.nextWaitMs()).toBe(50);
    for (let t = 0; t <= 10_000; t += 900) watch.heard(t);
    expect(watch.nextWaitMs()).toBe(50);
  });
});
