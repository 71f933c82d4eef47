/**
 * Chain validation, the design lint and boundary cards, loaded after first paint: drawing a
 * chain needs none of them, and validation brings the JSON Schema checker and strict JSON
 * reader along (about 8 KiB gzip the canvas would otherwise wait for).
 */
export { parseChain } from '../../src/chain/parse.ts';
export { lintChain } from '../../src/chain/lint.ts';
export { unansweredEdgeIds } from './contract-cards.ts';
