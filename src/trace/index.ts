/**
 * Runs as data: trace events and run metadata, the replay view folded from them, the run
 * repository interface, run files, format migrations, and OTLP/JSON interop. Registry-aware
 * folds (`buildRunView`, `createRunViewBuilder`, `importOtlpTrace`) take the registry as an
 * argument; this area imports no step.
 *
 * @example
 * import { buildRunView } from '../src/trace/index.ts';
 * import { stepRegistry } from '../src/steps/index.ts';
 * const view = buildRunView(meta, events, stepRegistry);
 * for (const boundary of view.boundaries) console.log(boundaryLabel(view, boundary));
 */
export { TRACE_VERSION, type AttemptRecord, type BoundaryLabel, type PromptSegment, type RunMeta, type RerunFidelity, type SufficiencyVerdict, type RunStatus, type StepStatus, type TraceEvent, type TruncationRecord } from './events.ts';
export { boundaryLabel, buildRunView, checksOnBoundary, createRunViewBuilder, stepLabel, type Boundary, type RunView, type StepView } from './replay.ts';
export { createMemoryRunRepository, type RunRepository } from './repository.ts';
export { parseRunFile, toRunFile, type RunFile } from './run-file.ts';
export { clearBoundaryLabel, labelOf, setBoundaryLabel, type LabelResult } from './labels.ts';
export { upToDateEvents, upToDateRunMeta } from './restore.ts';
export type { PromptTemplate, SpanKind, SpanNode } from './span-tree.ts';
export { applyTemplateEdit, planSpanRerun, recordedCalls, renderPromptTemplate, spanOfStep, type PlannedStep, type SpanRerunPlan } from './rerun-span.ts';
export { rerunRequestOf, type RerunRequest } from './recorded-request.ts';
