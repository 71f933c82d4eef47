import { describe, expect, it } from 'vitest';
import { ReadyQueue } from './ready-queue.ts';

describe('ReadyQueue', () => {
  it('gives ids back in plan order, each once, whatever order they came in', () => {
    const ids = Array.from({ length: 200 }, (_, i) => `s${i}`);
    const queue = new ReadyQueue(ids, new Map(ids.map((id, i) => [id, i])));
    // A fixed shuffle (a linear congruential sequence), with repeats and an unknown id.
    const order: string[] = [];
    for (let x = 7, i = 0; i < 400; i++) order.push(ids[(x = (x * 1103515245 + 12345) % 2147483648) % 200] as string);
    for (const id of [...order, 'nowhere']) queue.add(id);
    const expected = [...new Set(order)].sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));
    expect(queue.size).toBe(expected.length);
    expect(new Set(queue.values())).toEqual(new Set(expected));
    const out: string[] = [];
    for (let id = queue.peek(); id !== undefined; id = queue.peek()) {
      expect(queue.pop()).toBe(id);
      out.push(id);
    }
    expect(out).toEqual(expected);
    // Taken out, an id may come back.
    queue.add('s3');
    expect(queue.pop()).toBe('s3');
    expect(queue.pop()).toBeUndefined();
  });
});
