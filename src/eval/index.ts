/**
 * Evaluation: datasets (`*.dataset.jsonl`, streamed and checked line by line), scorers, batch
 * runs of several variants over one dataset through a bounded pool with a shared rate limit,
 * and the comparison table (accuracy with its noise, latency, tokens, calls, spend a month).
 *
 * @example
 * import { evalTable, readDatasetText, runEval } from '../src/eval/index.ts';
 * const read = await readDatasetText(text);
 * if (read.ok) {
 *   const results = [];
 *   await runEval({ variants, dataset: read.dataset, provider, model, repo, onResult: async (r) => void results.push(r) });
 *   console.log(evalTable(variants, results, { volume: 400_000, priceIn: 0.4, priceOut: 1.6 }));
 * }
 */
export { acceptItem, DATASET_FORMAT, MAX_DATASET_LINES, readDataset, readDatasetText, textLines, type Dataset, type DatasetItem, type DatasetResult, type Expected } from './dataset.ts';
export { parseScorerArg, scorerSpecSchema, type ScorerSpec } from './scorer-spec.ts';
export { defaultScorers, scoreItem, scorerName, valueAt, type RunOutcome, type ScoreResult } from './scorers.ts';
export { outcomeOf, resultKey, runEval, runEvalItem, type EvalItemContext, type EvalOptions, type EvalProgress, type EvalVariant, type ItemBoundary, type ItemResult, type StepOutcome, type VariantKind } from './run-eval.ts';
export { shareRateLimit, type SharedLimit } from './shared-limit.ts';
export { abstentionCalibration, type AbstentionCalibration, type AbstentionItem } from './abstention.ts';
export { evalTable, formatEvalTable, TIE_RULE, withinNoise, type BoundaryRow, type CompoundingRow, type EvalTable, type Pricing, type StepRow, type VariantRow } from './table.ts';
export { seamQuestions, type SeamAnswer, type SeamQuestions } from './seam-questions.ts';
export { ablate, buildControls, generatedBaseline, identity, singlePromptProblem, type ControlPlan } from './controls.ts';
export { estimateEval, type EvalEstimate } from './estimate.ts';
export { csvRecords, csvTarget, readCsvDataset, type CsvRecord, type CsvTarget } from './dataset-csv.ts';
export { addUsage, intermediateText, judgeBoundary, readJudgement, type BoundaryJudgement, type JudgedBoundary, type JudgeContext, type JudgeUsage } from './sufficiency-judge.ts';
