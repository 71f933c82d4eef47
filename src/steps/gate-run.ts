import { getPath } from '../chain/refs.ts';
import type { GateCheck } from './gate.ts';
import { checkCitations, checkIdSet, checkNumbers, checkQuotes, checkRule } from './gate-checks.ts';
import { selectAll } from './select-path.ts';

/**
 * What a gate checks, run: loaded when a gate first runs (its checks bring a JSON Logic
 * interpreter and the section splitter), not with the step registry.
 */
/** Kept for callers that check a flat list of quotes. */
export function checkQuoteContainment(quotes: unknown[], source: string): string[] {
  return checkQuotes({ quotes }, source, 'quotes[*]');
}

export function runCheck(check: GateCheck, values: Record<string, unknown>, validate: (s: Record<string, unknown>, v: unknown) => string[]): string[] {
  const { value, source, expected } = values;
  const needSource = () => (typeof source === 'string' ? null : ['the gate has no source text bound (bind "source" to the document)']);
  switch (check.type) {
    case 'jsonSchema':
      return validate(check.schema, value);
    case 'quoteContainment':
      return needSource() ?? checkQuotes(value, source as string, check.quotesPath, check.sectionField);
    case 'idSet':
      return checkIdSet(selectAll(value, check.returnedPath), selectAll(expected, check.expectedPath));
    case 'citations':
      return checkCitations(selectAll(value, check.claimsPath), selectAll(expected, check.availablePath), check);
    case 'numberConsistency': {
      const answer = getPath(value, check.answerPath.split('.'));
      if (typeof answer !== 'string') return [`the answer at ${check.answerPath} is not text`];
      return needSource() ?? checkNumbers(answer, selectAll(value, check.citedPath), source as string);
    }
    case 'rule':
      return checkRule(check.rule, { value, source, expected }, check.message);
  }
}
