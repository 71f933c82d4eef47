/** The design lint and boundary cards, loaded after first paint (they are not needed to draw the chain). */
export { lintChain } from '../../src/chain/lint.ts';
export { unansweredEdgeIds } from './contract-cards.ts';
