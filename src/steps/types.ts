import type { ZodMiniType } from 'zod/mini';
import type { RunId, StepId } from '../chain/ids.ts';
import type { Chain, Ref, StepDef } from '../chain/schema.ts';
import type { ChatMessage, ModelRequest, ModelResponse } from '../providers/types.ts';
import type { TraceEvent } from '../trace/events.ts';

/** The groups the palette shows, in this order. */
export const stepGroups = ['Model', 'Control', 'Check', 'Terminal'] as const;
export type StepGroup = (typeof stepGroups)[number];

/**
 * The closed set of editor field kinds; the inspector renders each with an exhaustive switch.
 * `key` is a dotted path into the step's config.
 */
export type FieldSpec =
  | { kind: 'text'; key: string; label: string; placeholder?: string }
  | { kind: 'textarea'; key: string; label: string; rows?: number; template?: boolean }
  | { kind: 'number'; key: string; label: string; min?: number; max?: number; step?: number }
  | { kind: 'select'; key: string; label: string; options: readonly string[] }
  | { kind: 'bindings'; key: string; label: string }
  | { kind: 'json'; key: string; label: string; schemaHint?: 'jsonSchema' | 'json' }
  | { kind: 'onFail'; key: string; label: string }
  /** A router's routes: rows of label value → step, edited as a table rather than JSON. */
  | { kind: 'routes'; key: string; label: string }
  /** An endpoint profile by name, or none (the run's profile). */
  | { kind: 'profile'; key: string; label: string }
  /** Another step of the chain by id, or none (`emptyLabel` says what none means). */
  | { kind: 'stepRef'; key: string; label: string; emptyLabel: string };

/** What a failed step does after its retries: never silently continue on bad output. */
export type OnFail = 'abort' | 'abstain' | 'escalate' | `fallback:${string}`;

export interface StepFailure {
  /** invalid_json | schema_violation | truncated | refusal | provider_error | gate_failed | missing_input | ... */
  code: string;
  message: string;
  details?: unknown;
}

export type StepOutcome =
  | { status: 'succeeded'; output: unknown; terminal?: 'output' | 'abstain' | 'escalate'; chosen?: string[]; label?: string }
  | { status: 'failed'; failure: StepFailure };

/** One model call as the engine performs it: transport retries, timing and trace included. */
export interface ModelCallResult {
  response: ModelResponse;
  latencyMs: number;
}

/** The label a new branch is taken on, or the branch taken when no label matches. */
export type BranchChoice = { kind: 'label'; equals: unknown } | { kind: 'otherwise' };

/** What a kind whose edges are labelled branches tells the editor about them. */
export interface LabelledBranches<C> {
  /** Where the label is read (a ref and a dotted field in it), to offer the values its schema allows; null when nothing is bound yet. */
  labelSource(config: C): { ref: Ref; field: string } | null;
  /** The label values already taken, and the step "otherwise" goes to (null: none). */
  taken(config: C): { labels: unknown[]; otherwise: string | null };
  /** The config with a branch to `targetId` on `choice` ("otherwise" moves to `targetId` when it went elsewhere). */
  add(config: C, targetId: string, choice: BranchChoice): C;
  /** The value each branch hands on: what a step after a branch reads unless the person binds another. */
  carries(config: C): Ref | null;
}

export interface StepBranch {
  label: string;
  to: string;
  kind: 'route' | 'fallback';
}

/**
 * A binding a kind reads by name (`ctx.values.<name>` in its `run`). Drawing an edge into the
 * step binds the first of these that is still unbound, and lint reports a required one that
 * nothing is bound to, so a sketched chain reads what its steps actually look up.
 */
export interface ExpectedBinding {
  name: string;
  /** Without it the step cannot do its job (a missing one is an error, not a hint). */
  required: boolean;
  /** What to connect, completing "connect …", e.g. "the step whose label it branches on". */
  connect: string;
}

export interface StepRunContext<C> {
  /** The run's id: stable across retries and resumes, so side effects can derive idempotency keys from it. */
  runId: RunId;
  /** `step.id`, branded: what a side effect keys on beside the run's id. */
  stepId: StepId;
  /** The run's injected fetch, for steps with side effects (webhooks). */
  fetch: typeof fetch;
  chain: Chain;
  step: StepDef;
  config: C;
  /** Binding name → resolved value. */
  values: Record<string, unknown>;
  /** Binding names whose value derives from an untrusted input. */
  untrusted: ReadonlySet<string>;
  signal: AbortSignal;
  /** Model defaults from the run's endpoint profile. */
  model: { name: string; maxOutputTokens: number; structuredOutput: boolean; contextWindow?: number; prices?: { input: number; output: number } };
  /** Calls the run's provider; throws ProviderError after its own bounded transport retries. */
  callModel(request: ModelRequest, onDelta?: (text: string) => void): Promise<ModelCallResult>;
  /** Receives partial text while a streamed call arrives (for the UI); optional. */
  onDelta?: (text: string, unit?: string) => void;
  /** Validates a value against a JSON Schema (compiled once per distinct schema). */
  validate(schema: Record<string, unknown>, value: unknown): string[];
  emit(event: TraceEvent): void;
  /** Units of this step finished before an interruption: reused on resume, never re-called. */
  completedUnits?: ReadonlyMap<string, { status: 'ok' | 'error'; output?: unknown; error?: { code: string; message: string } }>;
  /** Makes everything emitted so far durable (map units call it after each unit). */
  checkpoint(): Promise<void>;
  /** Counts tokens with the run's real tokenizer. */
  countTokens(text: string): number;
  now(): number;
}

/**
 * What lint and contract cards know of a step that calls a model: its contract, how often it
 * retries and how big its prompt may get. Read from the config by the kind, so no consumer
 * reads a model config's fields by name.
 */
export interface ModelContract {
  outputSchema: Record<string, unknown> | null;
  /** The system message template ('' when none). */
  system: string;
  /** The prompt template, as written: lint reads what the step is told to do (summarise, keep conditions). */
  prompt: string;
  /** Validation retries after the first attempt. */
  retries: number;
  /** Input budget in tokens; 0 means none. */
  inputBudget: number;
  /** How an over-budget prompt is cut (one binding, from its end or start); null: it fails instead. */
  truncate: { binding: string; from: 'end' | 'start' } | null;
}

/**
 * Where a step's output comes from: a model call (with its contract), code, or the value one
 * binding reads, passed on unchanged once checked (a gate): reading the step is then reading it.
 */
export type StepProduces<C> =
  | { by: 'model'; contract(config: C): ModelContract }
  | { by: 'code' }
  | { by: 'passThrough'; binding: string };

/** A router's branches as plain data: what the Python export writes as if/else on a label. */
export interface BranchTable {
  /** Dotted path into the value bound as `value`; empty reads the value itself. */
  field: string;
  /** In order; a route with `when: 'empty'` is taken on an empty or missing label (isEmptyValue). */
  routes: { equals?: unknown; when?: 'empty'; to: string; label?: string }[];
  defaultTo: string | null;
  /** A missing label fails the step (as the engine does) unless the chain chose "otherwise". */
  failOnMissing: boolean;
}

/**
 * How the Python export writes a kind's function; the export reads this, never the kind's name.
 * (A TypeScript export runs on the engine itself, so it needs nothing per kind.) The spec is an
 * instance of the runtime class `spec` (seamscope_runtime/specs.py) holding the fields every
 * step has, the prompt, system and schema constants when `model`, and `fields(config)` as
 * literals, in that order:
 * - `call`: the function is `return run.<method>(SPEC, reads)`;
 * - `map`: the runtime's bounded-concurrency loop of `run.unit` over the items it reads;
 * - `branch`: plain if/else over `branch(config)`, calling `run.route`.
 */
export type PythonExport<C> =
  | { form: 'call'; spec: string; method: string; model?: boolean; fields?(config: C): Record<string, unknown> }
  | { form: 'map'; spec: string; fields(config: C): { concurrency: number } & Record<string, unknown> }
  | { form: 'branch'; spec: string; branch(config: C): BranchTable };

/** A finding one kind's own lint rule reports about one step (lint adds the step id). */
export interface StepLintFinding {
  code: string;
  severity: 'error' | 'warning' | 'info';
  message: string;
}

/** What a kind's lint rule may look at besides its own parsed config. */
export interface StepLintSubject<C> {
  step: StepDef;
  config: C;
  chain: Chain;
  /** The definition of the step a ref reads (`steps.<id>…`), when it names one of a known kind. */
  producerOf(ref: Ref): StepDefinition<string, unknown> | undefined;
  /** Whether the ref reads an input the chain marks untrusted. */
  readsUntrusted(ref: Ref): boolean;
}

export interface StepDefinition<K extends string = string, C = unknown> {
  kind: K;
  title: string;
  group: StepGroup;
  /** One line for the palette tooltip. */
  description: string;
  config: ZodMiniType<C>;
  defaults(): C;
  /** Binding name → ref. These are the data edges into the step. */
  bindings(config: C): Record<string, Ref>;
  /**
   * Control edges out of the step, with labels: `route` edges (a router's branches) decide
   * which steps run; a `fallback` edge names a step that runs only in place of this one.
   */
  branches(config: C): StepBranch[];
  /**
   * Present when an edge drawn from this step is a labelled branch (a router's), not "the
   * target reads my output": the edge needs a label the person chooses, or an explicit
   * "otherwise", before it exists.
   */
  labelledBranches?: LabelledBranches<C>;
  /** The bindings the kind reads by name, in the order edges drawn into it should fill them. */
  expectedBindings?(config: C): ExpectedBinding[];
  /** Names a template may use besides the bindings (a map's current unit). */
  templateNames?(config: C): string[];
  /**
   * The URLs the step sends data to on its own (a webhook), beside model calls. Egress needs
   * consent: the engine refuses a run reaching an origin its caller did not allow.
   */
  egress?(config: C): string[];
  /** Whether the step ends the run when reached. */
  terminal: boolean;
  /** Where the output comes from (lint, contract cards and the exporters read this, not the kind). */
  produces: StepProduces<C>;
  /**
   * A fan-out: the output is a typed collection of units, each ok or error on its own, so one
   * failed unit is data rather than the step's failure. `ids` names the units the step will
   * produce from the values it reads (the timeline shows the ones not attempted yet).
   */
  units?: { ids(config: C, values: Record<string, unknown>): string[] | null };
  /** What happens once retries are spent (abort when absent). The engine and contract cards read it. */
  onFail?(config: C): string;
  /** Whether a run of this step counts tokens exactly (budgets, splits by size): the tokenizer ships with an export. */
  needsTokenizer?(config: C): boolean;
  /** Refs to the exact fields the step reads, when narrower than its bindings (a router's label field). */
  consumes?(config: C): Ref[];
  /**
   * Bindings the step runs without: a value that is not there (an optional input not given) is
   * passed as undefined instead of failing the step before it runs, because the step itself
   * decides on it (a router with a route on an empty value). Absent: every binding must hold a value.
   */
  runsWithout?(config: C): readonly string[];
  /** A check's short name for contract cards ("jsonSchema", "quotesContained"): present on steps that validate what they read. */
  checks?(config: C): string;
  /**
   * What the step covers of the document it reads: a `ranking` keeps the best few units and
   * drops the rest (retrieval); a `partition` must cover every unit of its `binding` exactly once
   * (a split for a whole-document rewrite). Lint flags a partition fed by a ranking.
   */
  coverage?: { kind: 'ranking' } | { kind: 'partition'; binding: string };
  /** How the Python export writes the kind (see PythonExport). */
  python: PythonExport<C>;
  /** The kind's own design lint, beside the rules every step gets. Pure. */
  lint?(subject: StepLintSubject<C>): StepLintFinding[];
  fields: readonly FieldSpec[];
  /** Lines shown on the canvas node body (model, schema fields, routes…). */
  summary(config: C): string[];
  /** JSON Schema of what the step outputs, when known (used for template completion and lint). */
  outputSchema(config: C): Record<string, unknown> | null;
  /**
   * Every JSON Schema the config carries, with its path inside the config, so chain validation
   * checks each one before anything runs (a broken schema would otherwise fail after a paid call).
   */
  schemas?(config: C): ConfigSchema[];
  run(ctx: StepRunContext<C>): Promise<StepOutcome>;
}

/** A JSON Schema found in a step's config, and where. */
export interface ConfigSchema {
  path: (string | number)[];
  schema: unknown;
}

/** Identity helper that keeps the literal `kind` type for the registry union. */
export function defineStep<K extends string, C>(definition: StepDefinition<K, C>): StepDefinition<K, C> {
  return definition;
}

export type { ChatMessage };
