/**
 * Seamscope as a contestant of the peer benchmark (../shared/bench/peers, see its README,
 * "Adding a contestant"). The default export builds the three workloads' chains as ordinary
 * Seamscope chain files from `env.spec` (W4 times this) and runs each call through the real
 * engine: `runChain` + the OpenAI-compatible provider with structured output + an in-memory
 * run repository, so trace recording (every attempt's messages, request body and raw
 * response, cloned into the repository) is part of every figure.
 *
 * scripts/bench-engine.ts bundles this file to plain ESM with esbuild, because the harness
 * runs plain Node 20, which does not strip types.
 *
 * Knobs for experiments (read once, in createEngine; the harness passes the environment on):
 *   SEAMSCOPE_BENCH_VALIDATOR=per-run   let every run build its own validator, as the app and the
 *                                        CLI do today (default: one validator per engine, passed as
 *                                        RunOptions.validator and compiled in createEngine, like the floor)
 *   SEAMSCOPE_BENCH_TOKENIZER=real      count tokens with the real o200k tokenizer, as the app does
 *                                        (default: a cheap length estimate; the peers count nothing)
 */
import { parseChain } from '../../src/chain/parse.ts';
import type { Chain } from '../../src/chain/schema.ts';
import { runChain, type RunModelSettings } from '../../src/engine/run.ts';
import { createSchemaValidator } from '../../src/engine/validate.ts';
import { createOpenAIProvider } from '../../src/providers/openai.ts';
import { estimateTokens, loadTokenCounter, type TokenCounter } from '../../src/providers/tokenizer.ts';
import type { ModelProvider } from '../../src/providers/types.ts';
import type { TraceEvent } from '../../src/trace/events.ts';
import { createMemoryRunRepository } from '../../src/trace/repository.ts';
import type { BenchEnv, BenchSpec, BenchTraceEvent, Engine, RunResult, StepSpec } from './contract.ts';
import { stepRegistry } from '../../src/steps/index.ts';

type RawStep = Chain['steps'][number];

/**
 * The harness's `{{name}}` placeholders become ours (`{name}`); names listed in `literals`
 * are replaced by fixed text instead (step 1's `{{prev}}` is the literal `null`).
 */
export function translateTemplate(template: string, literals: Record<string, string> = {}): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => (Object.prototype.hasOwnProperty.call(literals, name) ? (literals[name] as string) : `{${name}}`));
}

function modelStep(spec: BenchSpec, step: StepSpec, id: string, prompt: string, bindings: Record<string, string>, stream: boolean): RawStep {
  return {
    id, kind: 'model', name: id, position: { x: 0, y: 0 },
    config: {
      bindings, system: spec.SYSTEM_PROMPT, prompt, outputSchema: step.schema, schemaName: step.id,
      temperature: 0, retries: spec.MAX_ATTEMPTS - 1, stream,
    },
  };
}

function chainOf(id: string, name: string, inputs: Chain['inputs'], steps: RawStep[]): Chain {
  const raw = { format: 'seamscope.chain', version: 1, id, name, inputs, steps };
  // Parsed here so a translation mistake fails createEngine, not the first measured run.
  const parsed = parseChain(raw, stepRegistry);
  if (!parsed.ok) throw new Error(`chain ${id} is not valid: ${parsed.problems.map((p) => `${p.path} ${p.message}`).join('; ')}`);
  return parsed.chain;
}

const stringInput = (name: string): Chain['inputs'][number] => ({ name, schema: { type: 'string' }, trust: 'trusted', required: true });

/** W1: each step reads the topic and the step before it (step 1 reads the literal `null`). */
export function buildSequential(spec: BenchSpec, stream: boolean): Chain {
  const steps = spec.W1.steps.map((s, i) => {
    const prev = i > 0 ? spec.W1.steps[i - 1] : undefined;
    const prompt = translateTemplate(s.template, prev ? {} : { prev: 'null' });
    return modelStep(spec, s, s.id, prompt, { topic: 'inputs.topic', ...(prev ? { prev: `steps.${prev.id}` } : {}) }, stream);
  });
  return chainOf('bench-w1', 'W1 sequential', [stringInput('topic')], steps);
}

/** W2: one independent model step per unit, then a merge reading all of them as one JSON array. */
export function buildFanOut(spec: BenchSpec, unitCount: number, stream: boolean): Chain {
  const unitIds = Array.from({ length: unitCount }, (_, i) => `${spec.W2.unit.id}_${i}`);
  const units = unitIds.map((id, i) => modelStep(spec, spec.W2.unit, id, translateTemplate(spec.W2.unit.template), { topic: 'inputs.topic', unit: `inputs.units.${i}` }, stream));
  // {{results}} = the unit outputs in unit order, as a JSON array (ours pretty-prints each value).
  const results = `[\n${unitIds.map((_, i) => `{r${i}}`).join(',\n')}\n]`;
  const mergeBindings = Object.fromEntries([['topic', 'inputs.topic'], ...unitIds.map((id, i) => [`r${i}`, `steps.${id}`])]);
  const merge = modelStep(spec, spec.W2.merge, spec.W2.merge.id, translateTemplate(spec.W2.merge.template, { results }), mergeBindings, stream);
  const inputs: Chain['inputs'] = [stringInput('topic'), { name: 'units', schema: { type: 'array', items: { type: 'string' } }, trust: 'trusted', required: true }];
  return chainOf('bench-w2', 'W2 fan-out', inputs, [...units, merge]);
}

/** W3: one `map` step over the items, at most `concurrency` calls in flight. */
export function buildMap(spec: BenchSpec, concurrency: number, stream: boolean): Chain {
  const s = spec.W3.step;
  const step: RawStep = {
    id: s.id, kind: 'map', name: s.id, position: { x: 0, y: 0 },
    config: {
      bindings: { items: 'inputs.items' }, itemName: 'item', concurrency, system: spec.SYSTEM_PROMPT,
      prompt: translateTemplate(s.template), outputSchema: s.schema, schemaName: s.id, temperature: 0, retries: spec.MAX_ATTEMPTS - 1, stream,
    },
  };
  return chainOf('bench-w3', 'W3 map', [{ name: 'items', schema: { type: 'array', items: { type: 'string' } }, trust: 'trusted', required: true }], [step]);
}

/** Our attempt events in the harness's shape: W2 units `unit_<i>` → `unit` + index; map units are numbered from 1. */
function toBenchEvent(event: Extract<TraceEvent, { type: 'step.attempt' }>, unitStep: string): BenchTraceEvent {
  const { record } = event;
  let stepId = event.stepId;
  let index: number | undefined;
  if (event.unit !== undefined) index = Number(event.unit) - 1;
  else if (stepId.startsWith(`${unitStep}_`)) {
    index = Number(stepId.slice(unitStep.length + 1));
    stepId = unitStep;
  }
  const ok = !record.failure;
  return { stepId, ...(index !== undefined ? { index } : {}), attempt: event.attempt, startMs: event.at - record.latencyMs, endMs: event.at, ok, ...(ok ? {} : { error: record.errors.join('; ') }) };
}

export default async function createEngine(env: BenchEnv): Promise<Engine> {
  const { spec } = env;
  const provider: ModelProvider = createOpenAIProvider({ baseUrl: env.baseURL, apiKey: env.apiKey, structuredOutput: true });
  const model: RunModelSettings = { name: env.model, maxOutputTokens: 4096, structuredOutput: true };
  const sharedValidator = process.env.SEAMSCOPE_BENCH_VALIDATOR === 'per-run' ? undefined : createSchemaValidator();
  const countTokens: TokenCounter = process.env.SEAMSCOPE_BENCH_TOKENIZER === 'real'
    ? await loadTokenCounter()
    : estimateTokens;

  const sequential = buildSequential(spec, env.stream);
  const fanOuts = new Map<number, Chain>([[spec.W2.input.units.length, buildFanOut(spec, spec.W2.input.units.length, env.stream)]]);
  const maps = new Map<number, Chain>([[spec.W3.concurrency, buildMap(spec, spec.W3.concurrency, env.stream)]]);
  // The engine compiles a schema on first use; compile them here, with the chains, as the floor
  // does in its createEngine, so W4 (import + build) and the first run compare like with like.
  if (sharedValidator) {
    for (const chain of [sequential, ...fanOuts.values(), ...maps.values()]) {
      for (const input of chain.inputs) sharedValidator.validate(input.schema, null);
      for (const step of chain.steps) sharedValidator.validate(step.config.outputSchema as Record<string, unknown>, null);
    }
  }

  async function run(chain: Chain, inputs: Record<string, unknown>, concurrency: number): Promise<{ output: unknown; trace: BenchTraceEvent[]; finished: Map<string, unknown> }> {
    const trace: BenchTraceEvent[] = [];
    const finished = new Map<string, unknown>();
    const meta = await runChain({
      chain, inputs, provider, model, repo: createMemoryRunRepository(), concurrency, countTokens, ...(sharedValidator ? { validator: sharedValidator } : {}),
      onEvent: (event) => {
        if (event.type === 'step.attempt') trace.push(toBenchEvent(event, spec.W2.unit.id));
        else if (event.type === 'step.finished' && event.status === 'succeeded') finished.set(event.stepId, event.output);
      },
    });
    if (meta.status !== 'succeeded') throw new Error(`run ${meta.id} of ${chain.id} ended ${meta.status}: ${meta.error ?? '(no error)'}`);
    return { output: meta.output, trace, finished };
  }

  return {
    async sequential({ topic }): Promise<RunResult<unknown[]>> {
      const { trace, finished } = await run(sequential, { topic }, 4);
      return { output: sequential.steps.map((s) => finished.get(s.id)), trace };
    },
    async fanOut({ topic, units }): Promise<RunResult<unknown>> {
      let chain = fanOuts.get(units.length);
      if (!chain) fanOuts.set(units.length, (chain = buildFanOut(spec, units.length, env.stream)));
      const { output, trace } = await run(chain, { topic, units }, units.length + 1);
      return { output, trace };
    },
    async map({ items, concurrency }): Promise<RunResult<unknown[]>> {
      let chain = maps.get(concurrency);
      if (!chain) maps.set(concurrency, (chain = buildMap(spec, concurrency, env.stream)));
      const { output, trace } = await run(chain, { items }, 1);
      const results = (output as { results: { output: unknown }[] }).results;
      return { output: results.map((r) => r.output), trace };
    },
  };
}
