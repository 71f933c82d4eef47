/**
 * The chain model: the `Chain` document and its types, pure edits, references, templates,
 * history, and the analyses that read a chain (edges, contract cards, lint, compounding).
 * Everything that needs to know the step kinds takes the registry as an argument; this area
 * imports no step (the registry lives in `src/steps`).
 *
 * Declared entries beside this one, so that loading the chain model loads none of them:
 * - `src/chain/schema.ts`: the zod schemas (`runBudgetSchema`, `CHAIN_FORMAT`); this entry
 *   re-exports their types only;
 * - `src/chain/parse.ts`: `parseChain`, `restoreChain`, with the JSON Schema checks; kept off
 *   the app's first paint (app/designer/lint-sync.ts loads it lazily);
 * - `src/chain/lint.ts`: `lintChain` (it reads parse.ts);
 * - `src/chain/layout.ts`: `layoutChain` (dagre, loaded with import()).
 *
 * @example
 * import { addStep, connect, createEmptyChain } from '../src/chain/index.ts';
 * import { stepRegistry } from '../src/steps/index.ts';
 * let chain = createEmptyChain('c1', 'Summarise then answer');
 * const a = addStep(chain, 'model', { x: 0, y: 0 }, stepRegistry);
 * const b = addStep(a.chain, 'model', { x: 280, y: 0 }, stepRegistry);
 * chain = connect(b.chain, a.stepId, b.stepId, undefined, stepRegistry);
 */
// Types only: schema.ts builds zod schemas at module level (a side effect the bundler keeps),
// and re-exported here it would tie every importer of this entry to it; Rolldown then splits
// the app's first-paint chunk (+2.8 KiB gzip measured). The schemas are their own entry.
export type { Chain, ChainInput, Ref, RunBudget, StepDef } from './schema.ts';
export {
  addInput, addStep, bindAfterBranch, bindingsKey, connect, connectInput, createEmptyChain, disconnect, freshId, moveInputs, moveStep, moveSteps,
  removeBinding, removeBranch, removeBranchesTo, removeInput, removeStep, renameBinding, renameStep, renameStepId, setBinding,
  setBudgetLimit, stepIdProblem, updateInput, updateStepConfig, type XY,
} from './edit.ts';
export { chainEdges, type ChainEdge } from './graph.ts';
export { asRunId, asStepId, type RunId, type StepId } from './ids.ts';
export { parseStep, type ParsedStep } from './parsed-step.ts';
export { hashValue, stableStringify } from './hash.ts';
export { uniqueName } from './unique-name.ts';
export { canRedo, canUndo, createHistory, record, redo, undo, type History } from './history.ts';
export { getPath, parseRef, resolveRef } from './refs.ts';
export { ownValue, setOwn } from './own.ts';
export { findPlaceholders } from './template.ts';
export { copySteps, isFragment, pasteSteps, type ChainFragment } from './clipboard.ts';
export { contractCard, contractCards, contractIndex, type ContractCard } from './contract-card.ts';
// Type only: lint.ts reads parse.ts (the chain schema), so lintChain is its own entry, src/chain/lint.ts.
export type { LintFinding } from './lint.ts';
export { estimateCompounding, type StepRate } from './compounding.ts';
