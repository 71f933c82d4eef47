/**
 * The public types of the runtime an exported TypeScript program runs on (see index.ts). They
 * are written out here, self-contained, so the declaration file the export ships
 * (`seamscope-runtime/index.d.ts`, generated from this file and index.ts) needs no other
 * package: the implementation behind them is the engine, bundled.
 */

/** A chain definition as Seamscope stores it (`*.chain.json`). */
export type ChainDefinition = {
  format: 'seamscope.chain';
  version: number;
  id: string;
  name: string;
  inputs: ({ name: string; schema: Record<string, unknown>; trust?: string; required?: boolean; example?: unknown } & Record<string, unknown>)[];
  steps: ({ id: string; kind: string; name: string; config: Record<string, unknown> } & Record<string, unknown>)[];
} & Record<string, unknown>;

/** Which protocol the endpoint speaks: OpenAI-compatible chat completions or Anthropic Messages. */
export type Protocol = 'openai' | 'anthropic';

/** The endpoint a run calls: the program's defaults, then the environment, then run options. */
export interface EndpointSettings {
  protocol: Protocol;
  /** OpenAI-compatible: up to `/v1`; Anthropic: `https://api.anthropic.com`. */
  baseUrl: string;
  model: string;
  maxOutputTokens: number;
  contextWindow: number;
  /** Send each output schema as structured output (`response_format` / `output_config`). */
  structuredOutput: boolean;
  /** OpenAI-compatible only: newer (reasoning) models want `max_completion_tokens`. */
  maxTokensParam: 'max_tokens' | 'max_completion_tokens';
  /** Anthropic only: the `anthropic-version` (SEAMSCOPE_ANTHROPIC_VERSION); absent: the current 2026-10-21. */
  anthropicVersion?: '2026-10-21' | '2023-06-01';
}

/** A model endpoint client, as the engine calls it (made by `createProvider`). */
export interface ModelProvider {
  readonly kind: string;
}

/** What a step function returns. A failure is data: the engine applies the step's on-fail policy. */
export type StepOutcome =
  | { status: 'succeeded'; output: unknown; terminal?: 'output' | 'abstain' | 'escalate'; chosen?: string[]; label?: string }
  | { status: 'failed'; failure: { code: string; message: string; details?: unknown } };

/** A step's settings, as its kind reads them (checked by the kind's schema when the step runs). */
export type StepConfig = Record<string, unknown>;

/** One step as the engine hands it to the program's function for it. */
export interface Step {
  readonly id: string;
  readonly kind: string;
  /** Binding name → the value it resolved to. */
  readonly values: Readonly<Record<string, unknown>>;
  /** Runs the step's kind, exactly as the engine implements it, with these settings. */
  run(config: StepConfig): Promise<StepOutcome>;
}

/** The program's function for one step. */
export type StepFunction = (step: Step) => Promise<StepOutcome>;

export type RunStatus = 'running' | 'succeeded' | 'failed' | 'abstained' | 'escalated' | 'interrupted' | 'cancelled';

/** One trace event (`run.started`, `step.attempt`, `step.finished`, …), as Seamscope records it. */
export type TraceEvent = { type: string; at: number } & Record<string, unknown>;

export interface RunOptions extends Partial<EndpointSettings> {
  /** Defaults to SEAMSCOPE_API_KEY, then OPENAI_API_KEY or ANTHROPIC_API_KEY by protocol; never written anywhere. */
  apiKey?: string;
  runId?: string;
  fetch?: typeof fetch;
  signal?: AbortSignal;
  /** How long one request may go unanswered before it is given up and retried (SEAMSCOPE_TIMEOUT_MS). */
  timeoutMs?: number;
  /** How many steps that read none of each other run at once (the engine's default: 4). */
  concurrency?: number;
  /** Environment variables (Node: process.env); keys and endpoint settings are read from here. */
  env?: Record<string, string | undefined>;
  /** Another endpoint client instead of the one the settings describe. */
  provider?: ModelProvider;
  onEvent?: (event: TraceEvent) => void;
}

/** What the program passes besides the caller's options: its endpoint defaults and its step functions. */
export interface ProgramRunOptions extends RunOptions {
  endpoint?: Partial<EndpointSettings>;
  /** Step id → the program's function for it; a step without one runs as the chain says. */
  steps?: Readonly<Record<string, StepFunction>>;
}

export interface RunResult {
  id: string;
  chainId: string;
  chainRevision: string;
  status: RunStatus;
  output?: unknown;
  error?: string;
  /** The terminal step the run ended at, if any. */
  terminalStep?: string;
  events: TraceEvent[];
  /** The run as a `seamscope.run` file: `seamscope inspect` and the app open it. */
  toRunFile(): Record<string, unknown>;
}

/** A program's `runChain`. */
export type RunProgram<I> = (inputs: I, options?: RunOptions) => Promise<RunResult>;
