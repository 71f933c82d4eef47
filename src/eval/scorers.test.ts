import { describe, expect, it } from 'vitest';
import type { DatasetItem } from './dataset.ts';
import { parseScorerArg } from './scorer-spec.ts';
import { defaultScorers, scoreItem, valueAt, type RunOutcome } from './scorers.ts';

const item = (expected: DatasetItem['expected']): DatasetItem => ({ id: 'i', inputs: {}, expected });
const ok = (output: unknown, extra: Partial<RunOutcome> = {}): RunOutcome => ({ status: 'succeeded', output, routes: [], ...extra });

describe('scorers', () => {
  it('facts: on meaning, as fact survival reads them', () => {
    const it = item({ facts: ['180 calendar days', '72 hours'] });
    expect(scoreItem(it, undefined, ok({ answer: 'Within the 180-day period; expedited in 72 hours.' })).pass).toBe(true);
    const missing = scoreItem(it, undefined, ok({ answer: 'Within 180 days; expedited promptly.' }));
    expect(missing.pass).toBe(false);
    expect(missing.scores[0]?.detail).toBe('missing: 72 hours');
  });

  it('exact and json-field: deep equality; strings compared case- and space-insensitively', () => {
    expect(scoreItem(item({ output: { days: 180 } }), undefined, ok({ days: 180 })).pass).toBe(true);
    expect(scoreItem(item({ output: 'Billing ' }), undefined, ok('billing')).pass).toBe(true);
    expect(scoreItem(item({ output: { days: 180, note: 'x' } }), [{ type: 'json-field', path: 'days' }], ok({ days: 180, note: 'other' })).pass).toBe(true);
    expect(scoreItem(item({ output: { days: 180 } }), [{ type: 'json-field', path: 'days' }], ok({ days: 120 })).scores[0]?.detail).toBe('expected 180, got 120');
  });

  it('number: with units on meaning, bare numbers with a tolerance', () => {
    expect(scoreItem(item({ output: '60 days' }), [{ type: 'number', path: 'answer' }], ok({ answer: 'a 60-day window' })).pass).toBe(true);
    expect(scoreItem(item({ output: '60 days' }), [{ type: 'number', path: 'answer' }], ok({ answer: '60 hours' })).pass).toBe(false);
    expect(scoreItem(item({ output: 1500 }), [{ type: 'number' }], ok('The cap is $1,500 a year')).pass).toBe(true);
    expect(scoreItem(item({ output: 0.5 }), [{ type: 'number', tolerance: 0.01 }], ok(0.495)).pass).toBe(true);
  });

  it('contains and regex (linear time; a pattern RE2 cannot run is a failed score, not a hang)', () => {
    expect(scoreItem(item({}), [{ type: 'contains', text: 'qualified independent contractor' }], ok('The Qualified  Independent Contractor decides')).pass).toBe(true);
    expect(scoreItem(item({}), [{ type: 'regex', pattern: '^\\d{3}-day' }], ok('180-day period')).pass).toBe(true);
    const backref = scoreItem(item({}), [{ type: 'regex', pattern: '(a)\\1' }], ok('aa'));
    expect(backref.pass).toBe(false);
    expect(backref.scores[0]?.detail).toContain('cannot run in linear time');
    expect(scoreItem(item({}), [{ type: 'regex', pattern: '^(a+)+$' }], ok(`${'a'.repeat(50_000)}b`)).pass).toBe(false);
  });

  it('route and abstain; an expected abstention is the whole answer', () => {
    expect(scoreItem(item({ route: 'billing_reply' }), undefined, ok('x', { routes: ['billing_reply'], terminalStep: 'billing_reply' })).pass).toBe(true);
    expect(scoreItem(item({ abstain: true, facts: ['180 days'] }), undefined, { status: 'abstained', output: undefined, routes: [] })).toMatchObject({ pass: true, scores: [{ scorer: 'abstain' }] });
    expect(scoreItem(item({ facts: ['180 days'] }), undefined, { status: 'escalated', output: undefined, routes: [] }).scores[0]?.detail).toBe('the run escalated: no output to score');
    expect(scoreItem(item({ abstain: false }), undefined, { status: 'abstained', output: undefined, routes: [] }).pass).toBe(false);
  });

  it('the expected keys choose the scorers when none are named', () => {
    expect(defaultScorers({ facts: ['a'], route: 'r', abstain: false }).map((s) => s.type)).toEqual(['facts', 'route', 'abstain']);
    expect(scoreItem(item({}), undefined, ok('x'))).toMatchObject({ pass: false, scores: [{ scorer: 'none' }] });
  });

  it('reads dotted paths through own properties only', () => {
    expect(valueAt({ a: { b: [1, { c: 2 }] } }, 'a.b.1.c')).toBe(2);
    expect(valueAt({}, '__proto__')).toBeUndefined();
    expect(valueAt({ a: 1 }, 'a.toString')).toBeUndefined();
  });

  it('parses scorers as written on the command line', () => {
    expect(parseScorerArg('json-field:answer.days')).toEqual({ ok: true, spec: { type: 'json-field', path: 'answer.days' } });
    expect(parseScorerArg('regex:^\\d+ days$')).toEqual({ ok: true, spec: { type: 'regex', pattern: '^\\d+ days$' } });
    expect(parseScorerArg('judge:judges/appeals.chain.json')).toEqual({ ok: true, spec: { type: 'judge', chain: 'judges/appeals.chain.json' } });
    expect(parseScorerArg('judge').ok).toBe(false);
    expect(parseScorerArg('facts')).toEqual({ ok: true, spec: { type: 'facts' } });
    expect(parseScorerArg('judge')).toMatchObject({ ok: false, message: expect.stringContaining('scorers: facts') });
    expect(parseScorerArg('json-field')).toMatchObject({ ok: false });
  });
});
