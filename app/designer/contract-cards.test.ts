import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { contractCard, contractCards } from '../../src/chain/index.ts';
import { chainEdges } from '../../src/chain/index.ts';
import { parseChain } from '../../src/chain/parse.ts';
import { stepRegistry } from '../../src/steps/index.ts';
import { routedChain, twoStepChain } from '../../src/testing/index.ts';
import { makeBenchChain } from './bench-fixture.ts';
import { contractCardFor, unansweredEdgeIds } from './contract-cards.ts';

const demoDir = new URL('../../public/demo/', import.meta.url);
const demos = readdirSync(demoDir).filter((f) => f.endsWith('.chain.json')).map((f) => {
  const parsed = parseChain(readFileSync(new URL(f, demoDir), 'utf8'), stepRegistry);
  if (!parsed.ok) throw new Error(`${f} does not parse`);
  return parsed.chain;
});

describe('contract cards from one shared index', () => {
  it('gives exactly the cards of one card computed on its own, on every demo chain and the fixtures', () => {
    expect(demos.length).toBeGreaterThan(3);
    for (const chain of [...demos, twoStepChain(), routedChain(), makeBenchChain(60)]) {
      const alone = chainEdges(chain, stepRegistry).filter((e) => e.kind === 'data').map((e) => contractCard(chain, e, stepRegistry));
      expect(contractCards(chain, stepRegistry)).toEqual(alone);
    }
  });

  it('finds one card by edge id and lists the edges with unanswered questions', () => {
    const chain = twoStepChain();
    const card = contractCardFor(chain, 'data:extract->answer:facts');
    expect(card).toMatchObject({ producer: 'extract', consumer: 'answer' });
    expect(contractCardFor(chain, 'input:document->extract:document')).toBeNull();
    expect([...unansweredEdgeIds(chain)]).toEqual(contractCards(chain, stepRegistry).filter((c) => c.unanswered.length).map((c) => c.edgeId));
  });

  it('covers every data edge of a 3,000-step chain', () => {
    const chain = makeBenchChain(3000);
    expect(contractCards(chain, stepRegistry)).toHaveLength(chainEdges(chain, stepRegistry).filter((e) => e.kind === 'data').length);
  });
});
