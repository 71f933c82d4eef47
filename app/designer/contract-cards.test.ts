import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { contractCards } from '../../src/chain/contract-card.ts';
import { chainEdges } from '../../src/chain/graph.ts';
import { parseChain } from '../../src/chain/parse.ts';
import { stepRegistry } from '../../src/steps/index.ts';
import { routedChain, twoStepChain } from '../../src/testing/chain-fixtures.ts';
import { makeBenchChain } from './bench-fixture.ts';
import { contractCardFor, contractCardsFast, unansweredEdgeIds } from './contract-cards.ts';

const demoDir = new URL('../../public/demo/', import.meta.url);
const demos = readdirSync(demoDir).filter((f) => f.endsWith('.chain.json')).map((f) => {
  const parsed = parseChain(readFileSync(new URL(f, demoDir), 'utf8'));
  if (!parsed.ok) throw new Error(`${f} does not parse`);
  return parsed.chain;
});

describe('contract cards on sub-chains', () => {
  it('gives exactly the cards contractCards gives, on every demo chain and the fixtures', () => {
    expect(demos.length).toBeGreaterThan(3);
    for (const chain of [...demos, twoStepChain(), routedChain(), makeBenchChain(60)]) {
      expect(contractCardsFast(chain)).toEqual(contractCards(chain));
    }
  });

  it('finds one card by edge id and lists the edges with unanswered questions', () => {
    const chain = twoStepChain();
    const card = contractCardFor(chain, 'data:extract->answer:facts');
    expect(card).toMatchObject({ producer: 'extract', consumer: 'answer' });
    expect(contractCardFor(chain, 'input:document->extract:document')).toBeNull();
    expect([...unansweredEdgeIds(chain)]).toEqual(contractCards(chain).filter((c) => c.unanswered.length).map((c) => c.edgeId));
  });

  it('stays fast on a 3,000-step chain', () => {
    const chain = makeBenchChain(3000);
    const started = performance.now();
    expect(contractCardsFast(chain)).toHaveLength(chainEdges(chain, stepRegistry).filter((e) => e.kind === 'data').length);
    expect(performance.now() - started).toBeLessThan(5000);
  });
});
