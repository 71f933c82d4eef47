import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { backlogChoiceFor, saveBacklogChoice } from './backlog-choice.ts';

/**
 * The backlog answer is read back from storage another tab, another version or a person may have
 * changed: only a well-formed answer counts, and anything else is asked again (never taken as
 * "import all"). The question itself, against a real collector, is in e2e/collector.spec.ts.
 */
const KEY = 'seamscope.collector.backlog.v1';
let items: Map<string, string>;
beforeEach(() => {
  items = new Map();
  vi.stubGlobal('localStorage', { getItem: (k: string) => items.get(k) ?? null, setItem: (k: string, v: string) => void items.set(k, v) });
});
afterEach(() => vi.unstubAllGlobals());

describe('the backlog answer per collector', () => {
  it('is kept per address, and one address never answers for another', () => {
    saveBacklogChoice('http://127.0.0.1:4318', { choice: 'new', collector: 'c-1', cursor: 12 });
    saveBacklogChoice('http://127.0.0.1:4400', { choice: 'all' });
    expect(backlogChoiceFor('http://127.0.0.1:4318')).toEqual({ choice: 'new', collector: 'c-1', cursor: 12 });
    expect(backlogChoiceFor('http://127.0.0.1:4400')).toEqual({ choice: 'all' });
    expect(backlogChoiceFor('http://localhost:4318')).toBeNull();
  });

  it('is asked again when what is stored is not an answer', () => {
    const origin = 'http://127.0.0.1:4318';
    for (const bad of [{ choice: 'everything' }, { choice: 'new' }, { choice: 'new', collector: 'c', cursor: -1 }, { choice: 'new', collector: 'c', cursor: 1.5 }, { choice: 'new', collector: 'x'.repeat(101), cursor: 1 }, 'all', null]) {
      items.set(KEY, JSON.stringify({ [origin]: bad }));
      expect(backlogChoiceFor(origin), JSON.stringify(bad)).toBeNull();
    }
    items.set(KEY, '{not json');
    expect(backlogChoiceFor(origin)).toBeNull();
    // A broken store is replaced by the next answer.
    saveBacklogChoice(origin, { choice: 'all' });
    expect(backlogChoiceFor(origin)).toEqual({ choice: 'all' });
  });
});
