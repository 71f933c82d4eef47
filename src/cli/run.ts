import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { formatJsonPath, parseStrictJson } from '../files/strict-json.ts';
import type { Chain } from '../chain/schema.ts';
import { stepRegistry } from '../steps/index.ts';
import { createAssemblyTracker } from '../steps/assembly-progress.ts';
import { runChain } from '../engine/run.ts';
import { stepsNamingProfiles } from '../steps/model.config.ts';
import { egressOrigin, egressRefusal, unconfirmedEgress } from '../steps/egress.ts';
import { baseUrlProblem } from '../providers/profile.ts';
import { createProviderForProfile, demoProfile, runModelSettings, type EndpointProfile } from '../providers/profiles.ts';
import { createMemoryRunRepository } from '../trace/repository.ts';
import { toRunFile } from '../trace/run-file.ts';
import type { OptionTable, ParsedArgs } from './args.ts';
import { budgetFromArgs, budgetOptions } from './budget-args.ts';
import { readContainedFile } from './contained-file.ts';
import { loadChain, type Io } from './load-chain.ts';
import { terminalLine } from './terminal-text.ts';
import { isRecord, propertyOf } from '../files/json-value.ts';
import { createNodeFetch } from './node-fetch.ts';

export const runOptions: OptionTable = {
  inputs: 'string', endpoint: 'string', model: 'string', protocol: 'string', 'no-structured-output': 'flag',
  out: 'string', 'allow-webhook': 'list', ...budgetOptions,
};

/** An inputs file: one JSON object, read strictly (no duplicate keys, no overflowing numbers). */
export async function readInputsFile(path: string): Promise<Record<string, unknown>> {
  const read = parseStrictJson(await readFile(path, 'utf8'));
  if (!read.ok) throw new Error(`${path}: ${formatJsonPath(read.path)}  ${read.message}`);
  const value = read.value;
  if (!isRecord(value)) throw new Error(`${path}: an inputs file is a JSON object of input values`);
  return value;
}

/**
 * The run's inputs: what `--inputs` gives (a `{"$file"}` value read from that file's folder),
 * then, only for inputs it left out, the chain's `meta.inputFiles` (from the chain's folder)
 * and input examples — so a chain whose bundled document is missing still runs on the inputs
 * the user supplied. Both kinds of file name are contained in their folder (contained-file.ts).
 */
async function readInputs(chain: Chain, chainPath: string, inputsPath: string | undefined): Promise<Record<string, unknown>> {
  return completeInputs(chain, chainPath, inputsPath ? await readInputsFile(inputsPath) : {}, inputsPath ?? chainPath);
}

/**
 * Given input values (a `{"$file"}` value read from `namingFile`'s folder), completed for the
 * inputs they leave out from the chain's `meta.inputFiles` (its own folder) and input examples.
 * Shared by `run` (an inputs file) and `eval` (each dataset item, files beside the dataset).
 */
export async function completeInputs(chain: Chain, chainPath: string, given: Record<string, unknown>, namingFile: string, cache?: Map<string, string>): Promise<Record<string, unknown>> {
  const inputs = new Map<string, unknown>();
  const contained = async (file: string, label: string, ref: unknown) => {
    const key = `${file}\u0000${typeof ref === 'string' ? ref : JSON.stringify(ref)}`;
    const hit = cache?.get(key);
    if (hit !== undefined) return hit;
    const text = await readContainedFile(file, label, ref);
    cache?.set(key, text);
    return text;
  };
  for (const [name, value] of Object.entries(given)) {
    const ref = propertyOf(value, '$file');
    inputs.set(name, ref !== undefined ? await contained(namingFile, formatJsonPath([name, '$file']), ref) : value);
  }
  const inputFiles = isRecord(chain.meta?.inputFiles) ? chain.meta.inputFiles : {};
  for (const input of chain.inputs) {
    if (inputs.has(input.name)) continue;
    if (Object.hasOwn(inputFiles, input.name)) inputs.set(input.name, await contained(chainPath, formatJsonPath(['meta', 'inputFiles', input.name]), inputFiles[input.name]));
    else if (input.example !== undefined) inputs.set(input.name, input.example);
  }
  // fromEntries defines own properties, so an input named "__proto__" stays a plain key.
  return Object.fromEntries(inputs);
}

export function profileFromArgs(options: Record<string, string | true>): EndpointProfile {
  if (typeof options.endpoint !== 'string') return demoProfile;
  const problem = baseUrlProblem(options.endpoint);
  if (problem) throw new Error(`--endpoint ${problem}`);
  const kind = options.protocol === 'anthropic' ? 'anthropic' : 'openai';
  return {
    ...demoProfile, id: 'cli', name: 'CLI endpoint', kind, baseUrl: options.endpoint,
    model: typeof options.model === 'string' ? options.model : 'gpt-4.1-mini',
    structuredOutput: options['no-structured-output'] !== true,
  };
}

/** `seamscope run`: loaded by main only for this command, with the engine, the providers and the tokenizer behind it. */
export async function runCommand(args: ParsedArgs, io: Io, usage: string): Promise<number> {
  const [chainPath] = args.positionals;
  if (!chainPath) return io.err(usage), 2;
  const chain = await loadChain(chainPath, io);
  if (!chain) return 1;
  // Egress is decided here, before inputs are read or any endpoint is called.
  const allowEgress = allowedWebhookOrigins(args.lists['allow-webhook'] ?? []);
  const refused = unconfirmedEgress(chain, stepRegistry, allowEgress);
  if (refused.length > 0) {
    io.err(`${terminalLine(chainPath)}: ${egressRefusal(refused, `name each origin with ${[...new Set(refused.map((t) => `--allow-webhook ${t.origin}`))].join(' ')}`)}`);
    return 1;
  }
  const inputs = await readInputs(chain, chainPath, typeof args.options.inputs === 'string' ? args.options.inputs : undefined);
  const profile = profileFromArgs(args.options);
  const budget = budgetFromArgs(args.options);
  const apiKey = io.env.SEAMSCOPE_API_KEY ?? (profile.kind === 'anthropic' ? io.env.ANTHROPIC_API_KEY : io.env.OPENAI_API_KEY);
  const named = stepsNamingProfiles(chain);
  if (named.length) io.err(`note: ${named.map((n) => `${n.stepId} names the profile "${terminalLine(n.profile)}"`).join('; ')}; the command line calls one endpoint for every step`);
  const repo = createMemoryRunRepository();
  const trackAssembly = createAssemblyTracker(chain);
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.once('SIGINT', onSignal);
  const run = await runChain({
    chain, inputs, provider: createProviderForProfile(profile, { apiKey }), model: runModelSettings(profile), repo, signal: controller.signal, budget,
    fetch: createNodeFetch(), allowEgress, egressHint: 'name its origin with --allow-webhook',
    onEvent: (e) => {
      // Partial delivery: the assembled document's top part, as it grows (stderr; stdout stays the output).
      for (const line of trackAssembly(e)) io.err(`  ${terminalLine(line)}`);
      if (e.type === 'step.finished') io.err(`  ${e.status.padEnd(9)} ${terminalLine(e.stepId)}${e.failure ? `  ${terminalLine(e.failure.code)}: ${terminalLine(e.failure.message)}` : ''}`);
    },
  }).finally(() => process.off('SIGINT', onSignal));
  const outPath = typeof args.options.out === 'string' ? args.options.out : join('.runs', `${run.id}.run.json`);
  await mkdir(dirname(resolve(outPath)), { recursive: true });
  await writeFile(outPath, `${JSON.stringify(toRunFile(run, await repo.getEvents(run.id)), null, 2)}\n`);
  io.err(`run ${run.id}: ${run.status}${run.error ? ` — ${terminalLine(run.error)}` : ''}\ntrace written to ${terminalLine(outPath)}`);
  if (run.status === 'succeeded') io.out(typeof run.output === 'string' ? run.output : JSON.stringify(run.output, null, 2));
  return run.status === 'succeeded' ? 0 : 1;
}

/** `--allow-webhook` values as origins; anything that is not an http(s) origin is refused, not guessed at. */
export function allowedWebhookOrigins(values: readonly string[]): string[] {
  return values.map((value) => {
    const origin = egressOrigin(value);
    if (!origin || baseUrlProblem(value)) throw new Error(`--allow-webhook needs an http(s) origin such as https://hooks.example.com, got "${value}"`);
    return origin;
  });
}
