/// <reference lib="webworker" />
import { lintChain } from '../../src/chain/lint.ts';
import { parseChain } from '../../src/chain/parse.ts';
import type { AnalysisRequest, AnalysisResponse } from './analysis.ts';
import { canvasRegistry } from './canvas-registry.ts';
import { unansweredEdgeIds } from './contract-cards.ts';

// Problems, design lint and boundary markers of a large chain, off the main thread.
self.onmessage = (event: MessageEvent<AnalysisRequest>) => {
  const { id, chain } = event.data;
  const parsed = parseChain(chain);
  const problems = parsed.ok ? [] : parsed.problems;
  const response: AnalysisResponse = {
    id,
    problems,
    lint: parsed.ok ? lintChain(parsed.chain, canvasRegistry) : null,
    unanswered: parsed.ok ? [...unansweredEdgeIds(parsed.chain)] : [],
  };
  self.postMessage(response);
};
