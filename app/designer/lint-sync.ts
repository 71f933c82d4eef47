import { lintChain } from '../../src/chain/lint.ts';
import { parseChain } from '../../src/chain/parse.ts';
import type { Chain } from '../../src/chain/index.ts';
import type { AnalysisResult } from './analysis.ts';
import { canvasRegistry } from './canvas-registry.ts';
import { unansweredEdgeIds } from './contract-cards.ts';
import { stepRegistry } from '../../src/steps/index.ts';

/**
 * Chain validation, the design lint and boundary cards, loaded after first paint: drawing a
 * chain needs none of them, and validation brings the JSON Schema checker and strict JSON
 * reader along (about 8 KiB gzip the canvas would otherwise wait for).
 */
export { parseChain } from '../../src/chain/parse.ts';

/** Problems, design lint (only for a sound chain) and boundary markers of a small chain, in this thread. */
export function analyseNow(chain: Chain): AnalysisResult {
  const parsed = parseChain(chain, stepRegistry);
  const problems = parsed.ok ? [] : parsed.problems;
  return { problems, lint: problems.length ? null : lintChain(chain, canvasRegistry), unanswered: [...unansweredEdgeIds(chain)] };
}
