import { hashValue } from '../chain/hash.ts';
import { parseChain } from '../chain/parse.ts';
import type { Chain } from '../chain/schema.ts';
import { runChain as runOnEngine } from '../engine/run.ts';
import { createAnthropicProvider } from '../providers/anthropic.ts';
import { createOpenAIProvider } from '../providers/openai.ts';
import type { ModelProvider as EngineProvider } from '../providers/types.ts';
import { chainEgress } from '../steps/egress.ts';
import { stepRegistry } from '../steps/index.ts';
import { createStepRegistry, type AnyStepDefinition, type StepRegistry } from '../steps/registry.ts';
import type { StepRunContext } from '../steps/types.ts';
import type { TraceEvent as EngineEvent } from '../trace/events.ts';
import { createMemoryRunRepository } from '../trace/repository.ts';
import { toRunFile } from '../trace/run-file.ts';
import type { ChainDefinition, EndpointSettings, ModelProvider, ProgramRunOptions, RunResult, Step, StepFunction, TraceEvent } from './api.ts';

const BASE: EndpointSettings = { protocol: 'openai', baseUrl: '', model: 'gpt-4.1-mini', maxOutputTokens: 4096, contextWindow: 128_000, structuredOutput: true, maxTokensParam: 'max_tokens' };
const DEFAULT_BASE_URL = { openai: 'https://api.openai.com/v1', anthropic: 'https://api.anthropic.com' } as const;

/** The step kinds the runtime runs (the engine's step registry). */
export const stepKinds: readonly string[] = stepRegistry.all().map((d) => d.kind);

/** Endpoint settings: the program's defaults, then the environment, then explicit options. */
export function resolveSettings(defaults: Partial<EndpointSettings>, env: Record<string, string | undefined>, options: Partial<EndpointSettings>): EndpointSettings {
  const num = (v: string | undefined) => (v !== undefined && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : undefined);
  const bool = (v: string | undefined) => (v === undefined || v === '' ? undefined : !/^(0|false|no|off)$/i.test(v));
  const protocol = env.SEAMSCOPE_PROTOCOL === 'anthropic' || env.SEAMSCOPE_PROTOCOL === 'openai' ? env.SEAMSCOPE_PROTOCOL : undefined;
  const fromEnv: Partial<EndpointSettings> = {
    protocol,
    baseUrl: env.SEAMSCOPE_BASE_URL || (protocol === 'anthropic' ? env.ANTHROPIC_BASE_URL : env.OPENAI_BASE_URL) || undefined,
    model: env.SEAMSCOPE_MODEL || undefined,
    maxOutputTokens: num(env.SEAMSCOPE_MAX_OUTPUT_TOKENS),
    contextWindow: num(env.SEAMSCOPE_CONTEXT_WINDOW),
    structuredOutput: bool(env.SEAMSCOPE_STRUCTURED_OUTPUT),
    maxTokensParam: env.SEAMSCOPE_MAX_TOKENS_PARAM === 'max_completion_tokens' ? 'max_completion_tokens' : undefined,
    anthropicVersion: env.SEAMSCOPE_ANTHROPIC_VERSION === '2023-06-01' || env.SEAMSCOPE_ANTHROPIC_VERSION === '2026-10-21' ? env.SEAMSCOPE_ANTHROPIC_VERSION : undefined,
  };
  const pick = <K extends keyof EndpointSettings>(key: K): EndpointSettings[K] => options[key] ?? fromEnv[key] ?? defaults[key] ?? BASE[key];
  const settings: EndpointSettings = {
    protocol: pick('protocol'), baseUrl: pick('baseUrl'), model: pick('model'), maxOutputTokens: pick('maxOutputTokens'),
    contextWindow: pick('contextWindow'), structuredOutput: pick('structuredOutput'), maxTokensParam: pick('maxTokensParam'),
    // Only when set, so settings without it read as before.
    ...(options.anthropicVersion ?? fromEnv.anthropicVersion ?? defaults.anthropicVersion ? { anthropicVersion: options.anthropicVersion ?? fromEnv.anthropicVersion ?? defaults.anthropicVersion } : {}),
  };
  return { ...settings, baseUrl: settings.baseUrl || DEFAULT_BASE_URL[settings.protocol] };
}

/** The engine's client for the endpoint: OpenAI-compatible chat completions or Anthropic Messages. */
export function createProvider(settings: EndpointSettings, apiKey?: string): ModelProvider {
  return settings.protocol === 'anthropic'
    ? createAnthropicProvider({ baseUrl: settings.baseUrl, apiKey, structuredOutput: settings.structuredOutput, apiVersion: settings.anthropicVersion })
    : createOpenAIProvider({ baseUrl: settings.baseUrl, apiKey, structuredOutput: settings.structuredOutput, maxTokensParam: settings.maxTokensParam });
}

/** The key from the environment: SEAMSCOPE_API_KEY, else the protocol's own variable. */
function keyFrom(env: Record<string, string | undefined>, protocol: EndpointSettings['protocol']): string | undefined {
  return env.SEAMSCOPE_API_KEY || (protocol === 'anthropic' ? env.ANTHROPIC_API_KEY : env.OPENAI_API_KEY) || undefined;
}

/** The engine's registry, with each kind's `run` handing the steps the program defines to its functions. */
function programRegistry(chain: Chain, steps: Readonly<Record<string, StepFunction>> | undefined): StepRegistry {
  if (!steps) return stepRegistry;
  for (const id of Object.keys(steps)) if (!chain.steps.some((s) => s.id === id)) throw new Error(`the program has a function for "${id}", which is not a step of the chain`);
  const withFunctions = (def: AnyStepDefinition): AnyStepDefinition => ({
    ...def,
    run: (ctx: StepRunContext<unknown>) => {
      const fn = Object.hasOwn(steps, ctx.step.id) ? steps[ctx.step.id] : undefined;
      if (!fn) return def.run(ctx);
      const step: Step = { id: ctx.step.id, kind: ctx.step.kind, values: ctx.values, run: (config) => def.run({ ...ctx, config: def.config.parse(config) }) };
      return fn(step);
    },
  });
  return createStepRegistry(stepRegistry.all().map(withFunctions));
}

/**
 * Runs a chain once on the engine: the chain is restored (migrated and checked) as every load
 * path does, the endpoint settled from the defaults, the environment and the options, and the
 * program's step functions run in place of the kinds' own. A failed step ends the run as its
 * on-fail policy says; it never throws.
 */
export async function runChain(chainDefinition: ChainDefinition, inputs: Record<string, unknown>, options: ProgramRunOptions = {}): Promise<RunResult> {
  const env = options.env ?? (typeof process !== 'undefined' ? process.env : {});
  const settings = resolveSettings(options.endpoint ?? {}, env, options);
  const parsed = parseChain(chainDefinition, stepRegistry);
  // An invalid chain goes to the engine as it is: the run fails with the engine's own words.
  const chain = parsed.ok ? parsed.chain : (chainDefinition as unknown as Chain);
  const registry = programRegistry(chain, options.steps);
  const repo = createMemoryRunRepository();
  const envTimeout = Number(env.SEAMSCOPE_TIMEOUT_MS?.trim() || NaN);
  const timeoutMs = options.timeoutMs ?? (Number.isFinite(envTimeout) && envTimeout > 0 ? envTimeout : undefined);
  const provider = (options.provider ?? createProvider(settings, options.apiKey ?? keyFrom(env, settings.protocol))) as EngineProvider;
  const meta = await runOnEngine({
    chain, inputs, provider, repo, registry, runId: options.runId, fetch: options.fetch, signal: options.signal, concurrency: options.concurrency,
    model: { name: settings.model, maxOutputTokens: settings.maxOutputTokens, structuredOutput: settings.structuredOutput, contextWindow: settings.contextWindow },
    // The program posts where its code says: the chain's own webhook origins were chosen when it was exported.
    allowEgress: parsed.ok ? chainEgress(chain, registry).map((t) => t.origin) : [],
    ...(timeoutMs ? { transport: { timeoutMs } } : {}),
    ...(options.onEvent ? { onEvent: options.onEvent as (event: EngineEvent) => void } : {}),
  });
  const events = await repo.getEvents(meta.id);
  const finished = events.findLast((e) => e.type === 'run.finished');
  return {
    id: meta.id, chainId: meta.chainId, chainRevision: meta.chainRevision ?? hashValue(chain), status: meta.status, output: meta.output, error: meta.error,
    ...(finished?.type === 'run.finished' && finished.terminalStep ? { terminalStep: finished.terminalStep } : {}),
    events: events as TraceEvent[],
    toRunFile: () => toRunFile(meta, events) as unknown as Record<string, unknown>,
  };
}
