import { describe, expect, it } from 'vitest';
import type { Chain } from '../chain/schema.ts';
import type { RunMeta, TraceEvent } from '../trace/index.ts';
import { outcomeOf, type EvalVariant, type ItemResult } from './run-eval.ts';
import { evalTable, formatEvalTable } from './table.ts';

/** select (reads the question) → check (a gate, passes select on) → answer → final. */
const chain: Chain = {
  format: 'seamscope.chain', version: 1, id: 'sel', name: 'Select',
  inputs: [{ name: 'question', schema: { type: 'string' }, trust: 'trusted', required: true }],
  steps: [
    { id: 'select', kind: 'model', name: 'Select', position: { x: 0, y: 0 }, config: { bindings: { question: 'inputs.question' }, prompt: '{question}', outputSchema: { type: 'object', properties: { ids: { type: 'array', items: { type: 'string' } } }, required: ['ids'] } } },
    { id: 'check', kind: 'gate', name: 'Check', position: { x: 0, y: 0 }, config: { bindings: { value: 'steps.select' }, check: { type: 'jsonSchema', schema: { type: 'object' } } } },
    { id: 'answer', kind: 'model', name: 'Answer', position: { x: 0, y: 0 }, config: { bindings: { evidence: 'steps.check' }, prompt: '{evidence}', outputSchema: { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] } } },
    { id: 'final', kind: 'output', name: 'Final', position: { x: 0, y: 0 }, config: { bindings: { value: 'steps.answer' } } },
  ],
};
const variant: EvalVariant = { name: 'sel', kind: 'chain', chain };

/** Item i: select's first attempt invalid for i < 2 (retried, recovered for i = 0); select's handoff lossy for i = 3. */
function item(i: number): ItemResult {
  const lossy = i === 3;
  const pass = i !== 1 && !lossy;
  return {
    variant: 'sel', itemId: `q${i}`, runId: `r${i}`, status: i === 1 ? 'failed' : 'succeeded', pass, abstained: false, scores: [],
    latencyMs: 10, inputTokens: 100, outputTokens: 10, calls: 2, steps: [
      { stepId: 'select', status: i === 1 ? 'failed' : 'succeeded', attempts: i < 2 ? 2 : 1, invalid: i < 2 ? 1 : 0, latencyMs: 5 },
      { stepId: 'check', status: i === 1 ? 'skipped' : 'succeeded', attempts: 0, invalid: 0, latencyMs: 0 },
      { stepId: 'answer', status: i === 1 ? 'skipped' : 'succeeded', attempts: 1, invalid: 0, latencyMs: 5 },
    ],
    boundaries: i === 1 ? [] : [
      { id: 'select->check', producer: 'select', consumer: 'check', estimate: lossy ? 'insufficient' : 'sufficient', basis: 'gold', recall: { gold: 2, k: 3, output: lossy ? 0.5 : 1, sent: null, lostInPrompt: [] } },
      { id: 'check->answer', producer: 'check', consumer: 'answer', estimate: lossy ? 'insufficient' : 'sufficient', basis: 'gold', recall: { gold: 2, k: 3, output: lossy ? 0.5 : 1, sent: lossy ? 0 : 0.5, lostInPrompt: lossy ? [] : ['c5'] } },
    ],
  };
}

describe('evalTable: stage metrics, seams and compounding', () => {
  const table = evalTable([variant], [0, 1, 2, 3, 4].map(item));

  it('rates a step over the items it ran for: a step skipped after a failure is not counted as a success', () => {
    expect(table.steps.find((s) => s.stepId === 'select')?.runs).toBe(5);
    expect(table.steps.find((s) => s.stepId === 'answer')?.runs).toBe(4);
  });

  it('counts an abstain terminal as that step abstaining (it finishes as a step that worked)', () => {
    const meta = { id: 'r', chainId: 'c', status: 'abstained', startedAt: 0 } as unknown as RunMeta;
    const events = [
      { type: 'step.finished', at: 1, stepId: 'route', status: 'succeeded', latencyMs: 0 },
      { type: 'step.finished', at: 1, stepId: 'answer', status: 'skipped', latencyMs: 0 },
      { type: 'step.finished', at: 1, stepId: 'no_answer', status: 'succeeded', latencyMs: 0 },
      { type: 'run.finished', at: 2, status: 'abstained', terminalStep: 'no_answer' },
    ] as unknown as TraceEvent[];
    const { steps } = outcomeOf(meta, events);
    expect(steps.map((s) => [s.stepId, s.status])).toEqual([['route', 'succeeded'], ['answer', 'skipped'], ['no_answer', 'abstained']]);
  });

  it('averages recall on the stage output and on the text sent, and counts the items whose prompt lost gold', () => {
    const seam = table.boundaries.find((b) => b.boundary === 'check->answer');
    expect(seam?.recall).toEqual({ items: 4, k: 3, output: (1 + 1 + 0.5 + 1) / 4, sent: (0.5 + 0.5 + 0 + 0.5) / 4, lostInPrompt: 3 });
    expect(table.boundaries.find((b) => b.boundary === 'select->check')?.recall?.sent).toBeNull();
  });

  it('answers the three questions per seam from the chain and the labels', () => {
    const first = table.boundaries.find((b) => b.producer === 'select')?.questions;
    expect(first?.input.answer).toBe('yes');
    expect(first?.verdict.answer).toBe('yes');
    expect(first?.groundTruth).toEqual({ answer: 'conditional', why: '4 of 5 items carry gold ids' });
    const gate = table.boundaries.find((b) => b.producer === 'check')?.questions;
    expect(gate?.input).toMatchObject({ answer: 'conditional' });
    expect(gate?.input.why).toContain('reads select');
    expect(gate?.groundTruth.why).toContain('its own input');
  });

  it('predicts the end-to-end rate from measured step rates (seed 002) and sets it beside the measured accuracy', () => {
    const [row] = table.compounding;
    // select: 2 of 5 runs invalid, 1 of them recovered; 1 of 5 handoffs lossy (counted once, not again at the gate).
    expect(row?.rates).toEqual([{ stepId: 'select', errorRate: 0.4, catchRate: 1, retrySuccess: 0.5, uncaughtRate: 0.2 }]);
    expect(row?.predicted).toBeCloseTo((1 - 0.4 * 0.5) * (1 - 0.2), 10);
    expect(row?.measured).toBe(3 / 5);
    const text = formatEvalTable(table).join('\n');
    expect(text).toContain('predicted 64.0%, measured 60.0%');
    expect(text).toMatch(/check → answer {2}recall@3\.0 output 0\.88, sent 0\.38; the prompt lost gold in 3 of 4 items/);
    expect(text).toContain('select → check: yes · yes · conditional');
  });
});

describe('evalTable: abstention calibration', () => {
  it('counts the fire rate, takes reviews by result key over the dataset, and multiplies through volume and handling minutes', () => {
    const base = item(0);
    const results: ItemResult[] = Array.from({ length: 10 }, (_, i) => ({ ...base, itemId: `q${i}`, abstained: i < 4, status: i < 4 ? 'abstained' : 'succeeded', ...(i === 0 ? { expectedAbstain: true } : {}) }));
    const reviews = new Map([['sel\u0000q1', true], ['sel\u0000q2', false]]);
    const row = evalTable([variant], results, { volume: 100_000, handlingMinutes: 6, reviews }).variants[0];
    expect(row?.abstention).toMatchObject({ fired: 4, fireRate: 0.4, judged: 3, answerable: 1, toReview: ['q3'] });
    expect(row?.abstention.perMonth?.unnecessary).toBeCloseTo(100_000 * 0.4 / 3, 6);
    expect(row?.abstention.steps.at(-1)).toBe('handling: 13,333 × 6 min = 1,333 hours a month');
  });
});
