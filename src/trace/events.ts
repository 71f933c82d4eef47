import type { ChatMessage, FinishReason, TokenUsage, ToolCall } from '../providers/types.ts';
import type { SpanNode } from './span-tree.ts';

/**
 * The run trace: an append-only list of events, recorded as they happen. Every attempt of
 * every step carries the exact messages sent and what came back, so a run can be replayed
 * (never re-called) boundary by boundary.
 */
export { TRACE_VERSION } from './versions.ts';

export type RunStatus = 'running' | 'succeeded' | 'failed' | 'abstained' | 'escalated' | 'interrupted' | 'cancelled';
export type StepStatus = 'succeeded' | 'failed' | 'skipped' | 'abstained' | 'escalated';

/** One piece of the assembled prompt, for the truncation and boundary views. */
export interface PromptSegment {
  /** `system`, `template`, `binding:<name>`, `feedback` */
  kind: string;
  text: string;
  tokens: number;
  untrusted?: boolean;
}

export interface TruncationRecord {
  binding: string;
  from: 'end' | 'start';
  budget: number;
  /** Tokens of the whole assembled prompt before and after the cut. */
  totalBefore: number;
  totalAfter: number;
  bindingTokensBefore: number;
  bindingTokensKept: number;
  cutText: string;
}

/**
 * How a rerun call compares with the recorded call it repeats (src/trace/recorded-request.ts).
 * Each entry names a request setting with its value, e.g. `top_p 0.9`.
 */
export interface RerunFidelity {
  /** Recorded settings sent again as recorded. */
  sent: string[];
  /** Recorded settings the rerun did not send, each with why when it is not plain. */
  notSent: string[];
  /** Settings the rerun sent that the trace did not record (e.g. the profile's max tokens). */
  added: string[];
  /** False when the trace kept no request settings beyond model, cap, temperature and its JSON/stream flags: nothing else could be checked. */
  settingsRecorded: boolean;
}

export interface AttemptRecord {
  messages: ChatMessage[];
  segments: PromptSegment[];
  params: { model: string; maxTokens: number; temperature?: number; structured: boolean; stream: boolean };
  /** The exact JSON body sent to the endpoint; keys are never in it. */
  requestBody?: unknown;
  /**
   * An imported call's request settings as the trace recorded them besides the messages (top_p,
   * response_format, tools, tool_choice, stream…; src/trace/otlp/request-settings.ts). Not an
   * exact body: only what the recording tool kept. Absent from Seamscope's own calls.
   */
  recordedRequest?: Record<string, unknown>;
  /** On a rerun of a recorded call: what of the recorded request it sent again and what it did not. */
  asRecorded?: RerunFidelity;
  rawResponse?: unknown;
  text?: string;
  finishReason?: FinishReason;
  rawFinishReason?: string | null;
  /** Tool calls the model made in this attempt (name, JSON arguments, id). */
  toolCalls?: ToolCall[];
  /** Reasoning text returned beside the answer, kept for the replay. */
  reasoning?: string;
  output?: unknown;
  /** Empty when the attempt passed. */
  errors: string[];
  /** invalid_json | schema_violation | truncated | refusal | provider_error */
  failure?: string;
  /** What the next attempt was told (the validation errors as feedback). */
  feedback?: string;
  status?: number;
  latencyMs: number;
  usage?: TokenUsage;
  /** From the profile's prices; absent when the profile has none. */
  costUsd?: number;
  /** Set when the input budget cut a binding: exactly what was kept and what was cut. */
  truncation?: TruncationRecord;
  /** Hash of this step's prompt, model, parameters and validator together. */
  configHash: string;
}

export type TraceEvent =
  | { type: 'run.started'; at: number; runId: string; chainId: string; chainName: string; chainRevision: string; inputs: Record<string, unknown>; provider: string; model: string }
  | { type: 'run.resumed'; at: number; restoredSteps: string[]; restoredUnits: number }
  | { type: 'step.started'; at: number; stepId: string }
  | { type: 'step.attempt'; at: number; stepId: string; attempt: number; record: AttemptRecord; unit?: string }
  | { type: 'step.transport_retry'; at: number; stepId: string; attempt: number; error: string; status: number | null; waitMs: number }
  | { type: 'step.unit'; at: number; stepId: string; unitId: string; index: number; status: 'ok' | 'error'; output?: unknown; error?: { code: string; message: string } }
  | { type: 'step.check'; at: number; stepId: string; check: string; passed: boolean; problems: string[] }
  | { type: 'step.route'; at: number; stepId: string; label: string; chosen: string[] }
  | { type: 'step.finished'; at: number; stepId: string; status: StepStatus; output?: unknown; failure?: { code: string; message: string }; latencyMs: number; fallbackTo?: string; reused?: boolean }
  | { type: 'run.finished'; at: number; status: RunStatus; output?: unknown; error?: string; terminalStep?: string };

export type TraceEventType = TraceEvent['type'];

/** A person's judgement of one boundary: could the consumer's answer be derived from what it received? */
export type SufficiencyVerdict = 'derivable' | 'not-derivable' | 'unsure';

/**
 * A human sufficiency label: whether the consumer could have derived its answer from what it
 * received (a step cannot be more right than its input is sufficient). Kept on the run, not in its events: the events record what ran and
 * never change; a label is a later judgement and can be revised or withdrawn.
 */
export interface BoundaryLabel {
  /** The boundary's id in the replay view (the data edge producer → consumer). */
  boundaryId: string;
  producer: string;
  consumer: string;
  verdict: SufficiencyVerdict;
  note: string;
  at: number;
}

/** The stored summary of a run, kept apart from its events so a run list loads fast. */
export interface RunMeta {
  id: string;
  traceVersion: number;
  chainId: string;
  chainName: string;
  chainRevision: string;
  /** The chain exactly as it ran, so replay and rerun never depend on later edits. */
  chain: unknown;
  inputs: Record<string, unknown>;
  provider: string;
  model: string;
  /** The endpoint profile the run called, by the app's id (absent from the CLI and older runs). */
  profileId?: string;
  status: RunStatus;
  startedAt: number;
  finishedAt?: number;
  output?: unknown;
  error?: string;
  usage?: TokenUsage & { costUsd?: number };
  /** Set on a run forked from another at a step (rerun from a step). */
  forkedFrom?: { runId: string; stepId: string; editedOutput: boolean; reused: string[] };
  /** Human sufficiency labels, at most one per boundary. */
  labels?: BoundaryLabel[];
  /** The evaluation batch this run is an item of (absent from a person's own runs): run lists group these apart. */
  evalId?: string;
  /** An imported trace's span tree (agent → model calls → tools), depth-first; absent from Seamscope's own runs. */
  spans?: SpanNode[];
  /** Spans left out of `spans` (a trace larger than MAX_TREE_SPANS). */
  spansOmitted?: number;
}
