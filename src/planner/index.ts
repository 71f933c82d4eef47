/**
 * The decomposition planner: how many groups an output-bound job should be split
 * into, and what each choice costs in tokens, money, seams, wall clock and failure.
 *
 * @example
 * import { planJob, PLAN_DEFAULTS } from '../src/planner/index.ts';
 * const plan = planJob({ units, sharedTokens: 3800, sharedInDocumentTokens: 0, expansion: 1.2, headroom: 0.6, writer, reader, failRate: 0.005 });
 * plan.recommended; // 6
 */
export { planJob, PLAN_DEFAULTS, type Granularity, type Plan, type PlanJob, type ReaderModel, type WriterModel } from './planner.ts';
export { WALL_CLOCK_MODELS, type WallClock } from './wall-clock.ts';
export { jobFromChain, partitionSteps, splitStepOf, type ChainJob, type ChainJobOptions, type WriterProfile } from './from-chain.ts';
