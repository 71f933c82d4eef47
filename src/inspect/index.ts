/** Boundary analyses over a stored run: fact survival and the lossy-handoff flag. */
export { extractFacts, factKey, FACT_KINDS, type Fact, type FactKind } from './facts.ts';
export { factSurvival, type Occurrence, type SurvivalFact, type SurvivalReport } from './survival.ts';
export { askedKinds } from './question-kinds.ts';
export { inspectBoundary, inspectRun, type BoundaryReport, type InspectOptions, type RunInspection } from './boundary.ts';
export { stepMetrics, percentile, type StepMetrics } from './metrics.ts';
export { diffRuns, type RunDiff, type StepDiff } from './run-diff.ts';
