import { lintChain } from '../../src/chain/lint.ts';
import { parseChain } from '../../src/chain/parse.ts';
import type { AnalysisRequest, AnalysisResponse } from './analysis.ts';
import { canvasRegistry } from './canvas-registry.ts';
import { unansweredEdgeIds } from './contract-cards.ts';
import { stepRegistry } from '../../src/steps/index.ts';

/** Problems, design lint and boundary markers of a chain: the analysis worker's one job. */
export function analyse({ id, chain }: AnalysisRequest): AnalysisResponse {
  const parsed = parseChain(chain, stepRegistry);
  return {
    id,
    problems: parsed.ok ? [] : parsed.problems,
    lint: parsed.ok ? lintChain(parsed.chain, canvasRegistry) : null,
    unanswered: parsed.ok ? [...unansweredEdgeIds(parsed.chain)] : [],
  };
}
