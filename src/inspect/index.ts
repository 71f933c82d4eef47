/**
 * Boundary analyses over a stored run: fact survival and the lossy-handoff flag, per-step
 * metrics and run diffs.
 *
 * @example
 * import { inspectRun } from '../src/inspect/index.ts';
 * const { boundaries } = inspectRun(meta, events, { registry: stepRegistry });
 * for (const report of boundaries) if (report.lossy) console.log(report.producer, '→', report.consumer);
 */
export { extractFacts, factKey, FACT_KINDS, type Fact, type FactKind } from './facts.ts';
export { factSurvival, type FactStatus, type Occurrence, type SurvivalFact, type SurvivalReport } from './survival.ts';
export { askedFacts, questionForm, type AskedFact, type QuestionForm } from './relevance.ts';
export { askedKinds } from './question-kinds.ts';
export { leadFact, questionAsks, type LeadFact } from './headline.ts';
export { boundarySufficiency, inspectBoundary, inspectRun, runSufficiency, type BoundaryReport, type InspectOptions, type RunInspection } from './boundary.ts';
export { boundaryVerdict } from './verdict.ts';
export { estimateSufficiency, goldFactSurvives, summarizeSufficiency, type BoundarySufficiency, type GoldFacts, type SufficiencyEstimate, type SufficiencySummary } from './sufficiency.ts';
export { containsId, stageRecall, type StageRecall } from './stage-recall.ts';
export { stepMetrics, percentile, type StepMetrics } from './metrics.ts';
export { diffRuns, type RunDiff, type StepDiff } from './run-diff.ts';
export { runOutputs, type RunOutput, type RunOutputState } from './run-outputs.ts';
export { judgeAgreement, JUDGE_TRUST, type ConfusionTable, type JudgeAgreement, type LabelPair } from './judge-agreement.ts';
export { conditionsNeeded, describeCondition, type NeededCondition } from './condition-needs.ts';
export { asksToKeepConditions, boundaryConditions, conditionLint, type BoundaryConditions, type ConditionOptions } from './boundary-conditions.ts';
