import type { Chain } from '../chain/schema.ts';
import { jobFromChain, planJob, PLAN_DEFAULTS, splitStepOf, WALL_CLOCK_MODELS, type Plan, type PlanJob } from '../planner/index.ts';
import { demoProfile } from '../providers/profile.ts';
import { loadTokenCounter } from '../providers/tokenizer.ts';
import { stepRegistry } from '../steps/index.ts';
import type { ParsedArgs } from './args.ts';
import { loadChain, type Io } from './load-chain.ts';
import { PlanDataError, readUnitsFile } from './plan-units.ts';
import { planTable } from './plan-table.ts';
import { completeInputs, readInputsFile } from './run.ts';
import { terminalLine } from './terminal-text.ts';
import { planUsage } from './plan-usage.ts';

export { planOptions } from './plan-usage.ts';

const planHelp = `${planUsage}
How many groups a split step should make, and what each choice costs. From a chain: the split
step's units and shared context are read from its inputs (--inputs, else meta.inputFiles and examples) and
counted with the tokenizer; its cap and window (0: the offline demo profile's) unless --cap/--window say.
From numbers: --units is a JSON list [{"id","tokens","startsSection"}]; a chain, if given, supplies the split
step's cap, window, expansion and headroom. Defaults: expansion 1.2, headroom 0.6, 60 tokens/s, 0.5% failure
per call, prices 0 (give --price-in/--price-out in USD per million tokens). --groups evaluates those
granularities; by default, the recommendation, ~1.5× and 3× it. --json prints one object as the last line.
Wall clock, output-bound (prefill left out):
${Object.entries(WALL_CLOCK_MODELS).map(([k, v]) => `  ${k}: ${v}`).join('\n')}`;

class PlanArgsError extends Error {}

/** A flag's number, checked: a bad value is the user's to fix (exit 2), never a silent default. */
function numberOption(options: ParsedArgs['options'], name: string, min: number, max: number, integer = true): number | undefined {
  const raw = options[name];
  if (raw === undefined) return undefined;
  const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
  if (!Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value))) {
    throw new PlanArgsError(`--${name} must be ${integer ? 'a whole number' : 'a number'} from ${min} to ${max}, got "${String(raw)}"`);
  }
  return value;
}

function groupsOption(options: ParsedArgs['options']): number[] | undefined {
  const raw = options.groups;
  if (raw === undefined) return undefined;
  const values = String(raw).split(',').map((g) => Number(g.trim()));
  if (values.length === 0 || values.length > 20 || values.some((g) => !Number.isInteger(g) || g < 1 || g > 100_000)) {
    throw new PlanArgsError(`--groups must be up to 20 whole numbers from 1 to 100000, comma-separated (e.g. 6,9,18), got "${String(raw)}"`);
  }
  return values;
}

/** Everything the flags say, applied over what the chain (if any) gave. */
function applyFlags(job: PlanJob, options: ParsedArgs['options']): PlanJob {
  const n = (name: string, max = 100_000_000) => numberOption(options, name, 0, max);
  const tps = numberOption(options, 'tokens-per-second', 0.001, 1_000_000, false);
  const prices = { input: numberOption(options, 'price-in', 0, 10_000, false) ?? job.writer.prices.input, output: numberOption(options, 'price-out', 0, 10_000, false) ?? job.writer.prices.output };
  const writer = { window: n('window') ?? job.writer.window, cap: n('cap') ?? job.writer.cap, tokensPerSecond: tps ?? job.writer.tokensPerSecond, prices };
  const outputTokens = n('output-tokens') ?? job.outputTokens;
  const groups = groupsOption(options) ?? job.groups;
  const sharedTokens = n('shared-tokens') ?? job.sharedTokens;
  const sharedInDocumentTokens = n('shared-in-document-tokens') ?? job.sharedInDocumentTokens;
  if (sharedInDocumentTokens > sharedTokens) throw new PlanArgsError(`--shared-in-document-tokens (${sharedInDocumentTokens}) cannot exceed the shared context (${sharedTokens} tokens)`);
  if (writer.cap < 1 || writer.window < 1) throw new PlanArgsError('the writer needs an output cap and a window: give --cap N and --window N');
  return {
    ...job, writer, sharedTokens, sharedInDocumentTokens,
    ...(outputTokens !== undefined ? { outputTokens } : {}),
    ...(groups ? { groups } : {}),
    expansion: numberOption(options, 'expansion', 0.01, 20, false) ?? job.expansion,
    headroom: numberOption(options, 'headroom', 0.01, 1, false) ?? job.headroom,
    failRate: numberOption(options, 'fail-rate', 0, 0.999999, false) ?? job.failRate,
    // The reader is priced like the writer; its window is the writer's unless --reader-window says.
    reader: { ...job.reader, window: n('reader-window') ?? (job.reader.window || writer.window), tokensPerSecond: tps ?? job.reader.tokensPerSecond, prices },
  };
}

/** The job with no chain behind it: units from the file; the limits come from the flags. */
function numbersJob(units: PlanJob['units']): PlanJob {
  return {
    units, sharedTokens: 0, sharedInDocumentTokens: 0, expansion: PLAN_DEFAULTS.expansion, headroom: PLAN_DEFAULTS.headroom,
    writer: { window: 0, cap: 0, tokensPerSecond: PLAN_DEFAULTS.tokensPerSecond, prices: { input: 0, output: 0 } },
    // A reader window of 0 means the writer's (applyFlags fills it in).
    reader: { window: 0, tokensPerSecond: PLAN_DEFAULTS.tokensPerSecond, prices: { input: 0, output: 0 }, defectListTokens: PLAN_DEFAULTS.defectListTokens },
    failRate: PLAN_DEFAULTS.failRate,
  };
}

/** Reading the chain's inputs: a file problem is the user's data to fix (exit 2), with its path. */
async function dataStep<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    throw error instanceof PlanDataError ? error : new PlanDataError((error as Error).message);
  }
}

async function chainJob(chain: Chain, chainPath: string, options: ParsedArgs['options']): Promise<{ stepId: string; job: PlanJob; splitGroups?: number }> {
  const stepId = typeof options.step === 'string' ? options.step : undefined;
  // The CLI has no endpoint profile: a cap or window of 0 in the split step takes the offline demo model's, as `run` does.
  const profile = { contextWindow: demoProfile.contextWindow, maxOutputTokens: demoProfile.maxOutputTokens, prices: { input: 0, output: 0 } };
  if (typeof options.units === 'string') {
    // Numbers describe the units; the chain's split step supplies its limits.
    const found = splitStepOf(chain, stepRegistry, stepId);
    if (!found.ok) throw new PlanDataError(`${chainPath}: ${found.problem}`);
    const job = numbersJob(await readUnitsFile(options.units));
    const c = found.config;
    return { stepId: found.stepId, job: { ...job, expansion: c.expansion, headroom: c.headroom, writer: { ...job.writer, window: c.window || profile.contextWindow, cap: c.outputCap || profile.maxOutputTokens } } };
  }
  const inputsPath = typeof options.inputs === 'string' ? options.inputs : undefined;
  const inputs = await dataStep(async () => completeInputs(chain, chainPath, inputsPath ? await readInputsFile(inputsPath) : {}, inputsPath ?? chainPath));
  const built = jobFromChain(chain, stepRegistry, { ...(stepId ? { stepId } : {}), inputs, countTokens: await loadTokenCounter(), profile });
  if (!built.ok) throw new PlanDataError(`${chainPath}: ${built.problem}`);
  // The reader's window follows the writer's as the flags leave it (0: applyFlags fills it in).
  return { stepId: built.stepId, job: { ...built.job, reader: { ...built.job.reader, window: 0 } }, splitGroups: built.splitGroups };
}

/** The `--json` object: the issue's keys first, then what explains them. */
export function planJson(plan: Plan, job: PlanJob, stepId: string | null, splitGroups: number | null) {
  return {
    format: 'seamscope.plan', version: 1, units: plan.units, pairs: plan.pairs, recommended: plan.recommended, granularities: plan.granularities,
    step: stepId, splitStepGroups: splitGroups, sourceTokens: plan.sourceTokens, why: plan.why, warnings: plan.warnings, onePass: plan.onePass,
    assumptions: {
      sharedTokens: job.sharedTokens, sharedInDocumentTokens: job.sharedInDocumentTokens, outputTokens: job.outputTokens ?? null, expansion: job.expansion, headroom: job.headroom,
      writer: job.writer, reader: job.reader, failRate: job.failRate,
    },
    wallClockModels: WALL_CLOCK_MODELS,
  };
}

/** `seamscope plan`: exit 0 with a plan, 2 on bad arguments or data (the message names the flag or the file). */
export async function planCommand(args: ParsedArgs, io: Io): Promise<number> {
  const [chainPath, extra] = args.positionals;
  if (args.options.help === true) return io.out(planHelp), 0;
  if ((!chainPath && typeof args.options.units !== 'string') || extra !== undefined) return io.err(planHelp), 2;
  try {
    let chain: Chain | null = null;
    if (chainPath) {
      chain = await loadChain(chainPath, io);
      if (!chain) return 2;
    }
    const base: { stepId: string | null; job: PlanJob; splitGroups?: number } = chain && chainPath ? await chainJob(chain, chainPath, args.options) : { stepId: null, job: numbersJob(await readUnitsFile(String(args.options.units))) };
    const job = applyFlags(base.job, args.options);
    const plan = planJob(job);
    // Flags that change the limits make the split step's own count stale: it is shown only for the chain as it is.
    const limitFlags = ['cap', 'window', 'expansion', 'headroom', 'shared-tokens'].some((f) => args.options[f] !== undefined);
    const splitGroups = base.splitGroups !== undefined && !limitFlags ? base.splitGroups : null;
    if (args.options.json === true) io.out(JSON.stringify(planJson(plan, job, base.stepId, splitGroups)));
    else for (const line of planTable(plan, job, base.stepId, splitGroups)) io.out(line);
    return 0;
  } catch (error) {
    if (!(error instanceof PlanArgsError || error instanceof PlanDataError)) throw error;
    io.err(`seamscope plan: ${terminalLine((error as Error).message)}`);
    return 2;
  }
}
