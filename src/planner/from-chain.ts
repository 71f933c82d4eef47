import { getPath, parseRef, parseStep, type Chain } from '../chain/index.ts';
import { stringifyForPrompt } from '../chain/template.ts';
import { splitConfigSchema, type SplitConfig, type StepRegistry } from '../steps/index.ts';
import { groupUnits, toUnits } from '../steps/split-units.ts';
import { PLAN_DEFAULTS, type PlanJob } from './planner.ts';

/**
 * A planner job read from a chain: the split step's units and shared context from the chain's
 * bound inputs, counted with the tokenizer; its cap, window, expansion and headroom from its
 * config (0 takes the profile's, as a run does). Shared by `seamscope plan` and the app's panel.
 */
export interface WriterProfile {
  contextWindow: number;
  maxOutputTokens: number;
  prices: { input: number; output: number };
}

export interface ChainJobOptions {
  /** The split step to plan; absent, the chain's only one. */
  stepId?: string;
  inputs: Record<string, unknown>;
  countTokens: (text: string) => number;
  profile: WriterProfile;
  /** Numbers the chain does not hold (tokens per second, failure rate, reader, total output…). */
  overrides?: Partial<Omit<PlanJob, 'units' | 'writer'>> & { tokensPerSecond?: number };
}

/** `splitGroups`: how many groups the split step as configured makes (it fills each group up to its limits; the planner balances them). */
export type ChainJob = { ok: true; stepId: string; job: PlanJob; splitGroups: number } | { ok: false; problem: string };

/** The ids of the steps that partition a document (split steps), asked of their definitions. */
export function partitionSteps(chain: Chain, registry: StepRegistry): string[] {
  return chain.steps.filter((s) => registry.get(s.kind)?.coverage?.kind === 'partition').map((s) => s.id);
}

/** The value a binding reads when it names a chain input; a step's output is known only when the chain runs. */
function boundValue(ref: string | undefined, inputs: Record<string, unknown>, what: string): { value: unknown } | { problem: string } {
  if (ref === undefined) return { value: undefined };
  const { root, name, path } = parseRef(ref);
  if (root === 'steps') return { problem: `the ${what} come from the step "${name}", known only when the chain runs: bind them to a chain input, or plan by numbers with \`seamscope plan --units\`` };
  if (!Object.hasOwn(inputs, name)) return { problem: `the ${what} read the input "${name}", which has no value (give it in the inputs file, or meta.inputFiles)` };
  return { value: getPath(Reflect.get(inputs, name), path) };
}

/** The split step to plan and its parsed config: the one named, or the chain's only one. */
export function splitStepOf(chain: Chain, registry: StepRegistry, stepId?: string): { ok: true; stepId: string; config: SplitConfig } | { ok: false; problem: string } {
  const candidates = partitionSteps(chain, registry);
  const id = stepId ?? (candidates.length === 1 ? candidates[0] : undefined);
  if (!id) return { ok: false, problem: candidates.length ? `the chain has ${candidates.length} split steps (${candidates.join(', ')}): name one with --step` : 'the chain has no split step to plan' };
  const step = chain.steps.find((s) => s.id === id);
  if (!step || !candidates.includes(id)) return { ok: false, problem: `"${id}" is not a split step of this chain${candidates.length ? ` (split steps: ${candidates.join(', ')})` : ''}` };
  const config = splitConfigSchema.safeParse(parseStep(step, registry)?.config);
  if (!config.success) return { ok: false, problem: `the split step "${id}" has an invalid config` };
  return { ok: true, stepId: id, config: config.data };
}

export function jobFromChain(chain: Chain, registry: StepRegistry, options: ChainJobOptions): ChainJob {
  const found = splitStepOf(chain, registry, options.stepId);
  if (!found.ok) return found;
  const { stepId } = found;
  const config = { data: found.config };
  const units = boundValue(config.data.bindings.units, options.inputs, 'units');
  if ('problem' in units) return { ok: false, problem: units.problem };
  const shared = boundValue(config.data.bindings.shared, options.inputs, 'shared context');
  if ('problem' in shared) return { ok: false, problem: shared.problem };
  const read = toUnits(units.value);
  if (typeof read === 'string') return { ok: false, problem: read };
  if (read.length === 0) return { ok: false, problem: 'there are no units to plan' };
  const o = options.overrides ?? {};
  const tokensPerSecond = o.tokensPerSecond ?? PLAN_DEFAULTS.tokensPerSecond;
  const writer = {
    window: config.data.window || options.profile.contextWindow,
    cap: config.data.outputCap || options.profile.maxOutputTokens,
    tokensPerSecond,
    prices: options.profile.prices,
  };
  const sharedTokens = shared.value === undefined ? 0 : options.countTokens(stringifyForPrompt(shared.value));
  // Each unit is counted once; the split step's own grouping reads the same counts.
  const counted = new Map(read.map((u) => [u.text, options.countTokens(u.text)]));
  const countOnce = (text: string) => counted.get(text) ?? options.countTokens(text);
  // A split step told a number of groups makes exactly that many (fewer only with fewer units).
  const splitGroups = config.data.groups > 0
    ? Math.min(config.data.groups, read.length)
    : groupUnits(read, { cap: writer.cap, window: writer.window, sharedTokens, expansion: config.data.expansion, headroom: config.data.headroom }, countOnce).length;
  return {
    ok: true,
    stepId,
    splitGroups,
    job: {
      units: read.map((u) => ({ id: u.id, section: u.section, tokens: countOnce(u.text) })),
      sharedTokens,
      sharedInDocumentTokens: o.sharedInDocumentTokens ?? 0,
      ...(o.outputTokens !== undefined ? { outputTokens: o.outputTokens } : {}),
      expansion: config.data.expansion,
      headroom: config.data.headroom,
      writer,
      reader: o.reader ?? { window: writer.window, tokensPerSecond, prices: writer.prices, defectListTokens: PLAN_DEFAULTS.defectListTokens },
      failRate: o.failRate ?? PLAN_DEFAULTS.failRate,
      ...(o.groups ? { groups: o.groups } : {}),
    },
  };
}
