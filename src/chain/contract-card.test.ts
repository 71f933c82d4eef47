import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { contractCards } from './contract-card.ts';
import type { Chain } from './schema.ts';
import { stepRegistry } from '../steps/index.ts';

const demo = (file: string) => JSON.parse(readFileSync(new URL(`../../public/demo/${file}`, import.meta.url), 'utf8')) as Chain;

describe('boundary contract cards', () => {
  it('answers the four questions for the failing design the way seed 000 does', () => {
    const card = contractCards(demo('summarise-then-answer.chain.json'), stepRegistry).find((c) => c.producer === 'summarise' && c.consumer === 'answer')!;
    expect(card.carries.kind).toBe('typed');
    expect(card.carries.provenance).toEqual([]);
    expect(card.consumerHoldsSource.holds).toBe(false);
    expect(card.consumerHoldsSource.summary).toContain('never sees inputs.document');
    expect(card.whenWrong.policy).toBe('abort');
    expect(card.unanswered).toEqual(expect.arrayContaining([
      'The consumer cannot check the intermediate against the source: it neither holds the source nor gets provenance.',
      'No defined behaviour when the intermediate arrives wrong (abstain, escalate or fall back).',
    ]));
  });

  it('finds provenance, a validating gate and the source held downstream in the design that holds', () => {
    const cards = contractCards(demo('select-quotes-then-answer.chain.json'), stepRegistry);
    const select = cards.find((c) => c.producer === 'select' && c.consumer === 'quotes_check')!;
    expect(select.carries.provenance).toEqual(expect.arrayContaining(['relevant_sections[].section_id', 'relevant_sections[].quote']));
    expect(select.validated.by.join(' ')).toContain('quoteContainment');
    expect(select.whenWrong.policy).not.toBe('abort');
    expect(select.unanswered).toEqual([]);
  });

  it('counts a gate that checks the producer on the edge to another consumer', () => {
    const chain = demo('select-quotes-then-answer.chain.json');
    // A second reader of `select` beside the gate: its card should name the gate too.
    const extra = { ...chain.steps.find((s) => s.id === 'final')!, id: 'raw', config: { bindings: { value: 'steps.select' } } };
    const cards = contractCards({ ...chain, steps: [...chain.steps, extra] }, stepRegistry);
    const raw = cards.find((c) => c.producer === 'select' && c.consumer === 'raw')!;
    expect(raw.validated.by.join(' ')).toContain('gate "');
    expect(raw.validated.by.join(' ')).toContain('quoteContainment');
  });
});
