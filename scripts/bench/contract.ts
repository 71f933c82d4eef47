/**
 * The peer benchmark's contestant contract, restated here so the adapter type-checks without
 * reaching outside the project. The source of truth is `src/contestant.d.ts` of the harness
 * in ../shared/bench/peers; keep the two in step.
 */

/** One step of a chain as the harness hands it over: `{{name}}` placeholders, no escaping. */
export interface StepSpec {
  id: string;
  template: string;
  schema: Record<string, unknown>;
}

export interface BenchSpec {
  SYSTEM_PROMPT: string;
  MODEL: string;
  /** Attempts per step including the first (retry with validation errors as feedback). */
  MAX_ATTEMPTS: number;
  W1: { id: 'W1'; input: { topic: string }; steps: StepSpec[] };
  W2: { id: 'W2'; input: { topic: string; units: string[] }; unit: StepSpec; merge: StepSpec };
  W3: { id: 'W3'; count: number; concurrency: number; step: StepSpec };
}

export interface BenchEnv {
  /** e.g. http://127.0.0.1:PORT/lat/0/v1 — POST `${baseURL}/chat/completions`. */
  baseURL: string;
  apiKey: string;
  model: string;
  /** true in W1s: request SSE streaming. */
  stream: boolean;
  spec: BenchSpec;
}

/** One record per model call attempt. */
export interface BenchTraceEvent {
  stepId: string;
  /** Unit / item index for W2 units and W3 items. */
  index?: number;
  attempt: number;
  startMs: number;
  endMs: number;
  ok: boolean;
  error?: string;
}

export interface RunResult<T> {
  output: T;
  trace: BenchTraceEvent[];
}

export interface Engine {
  sequential(input: { topic: string }): Promise<RunResult<unknown[]>>;
  fanOut(input: { topic: string; units: string[] }): Promise<RunResult<unknown>>;
  map(input: { items: string[]; concurrency: number }): Promise<RunResult<unknown[]>>;
  close?(): Promise<void>;
}

export type CreateEngine = (env: BenchEnv) => Promise<Engine> | Engine;
