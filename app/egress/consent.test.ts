import { beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import type { Chain } from '../../src/chain/index.ts';
import { useEgressStore } from '../stores/egress-store.ts';
import { COLLECTOR_ADDRESS_KEY, collectorConsent, separateCollectorConsent } from './collector-consent.ts';
import { confirmEgress, loadEgressAnswers, saveEgressAnswer, unconfirmedTargets } from './consent.ts';

/** localStorage as the browser has it, for Node. */
function fakeStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (k) => items.get(k) ?? null,
    key: (i) => [...items.keys()][i] ?? null,
    removeItem: (k) => void items.delete(k),
    setItem: (k, v) => void items.set(k, String(v)),
  };
}

const hook = (id: string, url: string) => ({ id, kind: 'webhook', name: `Send ${id}`, position: { x: 0, y: 0 }, config: { bindings: { value: 'inputs.q' }, url } });
const chain = {
  format: 'seamscope.chain', version: 1, id: 'c', name: 'Two hooks',
  inputs: [{ name: 'q', schema: { type: 'string' }, trust: 'trusted', required: true }],
  steps: [hook('a', 'https://hooks.example.com/a'), hook('b', 'https://hooks.example.com/b?x=1'), hook('c', 'http://127.0.0.1:9911/hook')],
} as unknown as Chain;

/** Answers each question the dialog would show with the next answer, and records what was asked. */
function answering(answers: ('allowed' | 'refused' | null)[]): string[] {
  const asked: string[] = [];
  const unsubscribe = useEgressStore.subscribe((s) => {
    const q = s.asking;
    if (!q) return;
    asked.push(`${q.origin} ${q.chainName} ${q.steps.join('+')}`);
    queueMicrotask(() => q.answer(answers.shift() ?? null));
  });
  onTestFinished(unsubscribe);
  return asked;
}

describe('webhook consent on this device', () => {
  beforeEach(() => {
    Object.defineProperty(globalThis, 'localStorage', { value: fakeStorage(), configurable: true });
    loadEgressAnswers();
  });

  it('asks once per origin (naming the chain and its steps), stores the answers, and asks no more', async () => {
    const asked = answering(['allowed', 'allowed']);
    expect(await confirmEgress(chain)).toEqual({ origins: ['https://hooks.example.com', 'http://127.0.0.1:9911'] });
    expect(asked).toEqual(['https://hooks.example.com Two hooks Send a+Send b', 'http://127.0.0.1:9911 Two hooks Send c']);
    expect(await confirmEgress(chain)).toEqual({ origins: ['https://hooks.example.com', 'http://127.0.0.1:9911'] });
    expect(asked).toHaveLength(2);
    expect(unconfirmedTargets(chain, useEgressStore.getState().answers)).toEqual([]);
  });

  it('a refusal stops at that origin, is remembered, and can be forgotten; closing the dialog is no answer', async () => {
    const asked = answering(['refused', null]);
    const first = await confirmEgress(chain);
    expect('refused' in first && first.refused).toContain('https://hooks.example.com');
    expect('refused' in first && first.refused).toContain('Nothing was sent');
    expect(asked).toHaveLength(1);
    expect(await confirmEgress(chain)).toMatchObject({ refused: expect.stringContaining('not allowed on this device') });
    expect(asked).toHaveLength(1);
    expect(unconfirmedTargets(chain, useEgressStore.getState().answers).map((t) => [t.stepId, t.refused])).toEqual([['a', true], ['b', true], ['c', false]]);
    saveEgressAnswer('https://hooks.example.com', null);
    expect(await confirmEgress(chain)).toMatchObject({ refused: expect.stringContaining('not confirmed') });
    expect(asked).toHaveLength(2);
  });

  it('a chain without webhooks asks nothing', async () => {
    const asked = answering([]);
    expect(await confirmEgress({ ...chain, steps: [] })).toEqual({ origins: [] });
    expect(asked).toEqual([]);
  });
});

describe('collector consent is not webhook consent', () => {
  const collector = 'http://127.0.0.1:9911';
  beforeEach(() => {
    Object.defineProperty(globalThis, 'localStorage', { value: fakeStorage(), configurable: true });
    loadEgressAnswers();
  });

  it('a connected collector does not let a chain webhook post to its address: the run asks first', async () => {
    collectorConsent.save(collector, 'allowed');
    const asked = answering(['refused']);
    const hookToCollector = { ...chain, steps: [hook('c', `${collector}/hook`)] } as unknown as Chain;
    expect(await confirmEgress(hookToCollector)).toMatchObject({ refused: expect.stringContaining(collector) });
    expect(asked).toEqual([`${collector} Two hooks Send c`]);
    // Refusing the webhook leaves the collector allowed.
    expect(collectorConsent.answerFor(collector)).toBe('allowed');
  });

  it('a webhook allowed to an address does not let the app read a collector there, and forgetting one leaves the other', async () => {
    answering(['allowed']);
    expect(await confirmEgress({ ...chain, steps: [hook('c', `${collector}/hook`)] } as unknown as Chain)).toEqual({ origins: [collector] });
    expect(collectorConsent.answerFor(collector)).toBeUndefined();
    collectorConsent.save(collector, 'allowed');
    collectorConsent.save(collector, null);
    expect(useEgressStore.getState().answers).toEqual({ [collector]: 'allowed' });
    saveEgressAnswer(collector, null);
    collectorConsent.save(collector, 'allowed');
    saveEgressAnswer(collector, 'allowed');
    saveEgressAnswer(collector, null);
    expect(collectorConsent.answerFor(collector)).toBe('allowed');
  });

  it('takes back, once, the webhook answer an earlier version stored when a collector was connected', () => {
    localStorage.setItem('seamscope.webhook-consent.v1', JSON.stringify({ [collector]: 'allowed', 'https://hooks.example.com': 'allowed' }));
    localStorage.setItem(COLLECTOR_ADDRESS_KEY, collector);
    separateCollectorConsent();
    loadEgressAnswers();
    expect(useEgressStore.getState().answers).toEqual({ 'https://hooks.example.com': 'allowed' });
    // Once: a webhook the person allows there afterwards is theirs, and stays.
    saveEgressAnswer(collector, 'allowed');
    separateCollectorConsent();
    loadEgressAnswers();
    expect(useEgressStore.getState().answers).toEqual({ 'https://hooks.example.com': 'allowed', [collector]: 'allowed' });
  });
});
