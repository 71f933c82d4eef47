import { readFile, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { importChainSource } from '../export/import-chain.ts';
import { formatJsonPath, parseStrictJson } from '../files/strict-json.ts';
import { formatPath } from '../chain/parse.ts';
import type { Chain } from '../chain/schema.ts';
import { chainSchemaFindings } from '../chain/schema-check.ts';
import { stepRegistry } from '../steps/index.ts';
import { runChain } from '../engine/run.ts';
import { stepsNamingProfiles } from '../steps/model.config.ts';
import { chainEgress, egressOrigin, egressRefusal, unconfirmedEgress } from '../steps/egress.ts';
import { baseUrlProblem } from '../providers/profile.ts';
import { createProviderForProfile, demoProfile, runModelSettings, type EndpointProfile } from '../providers/profiles.ts';
import { createMemoryRunRepository } from '../trace/repository.ts';
import { toRunFile } from '../trace/run-file.ts';
import { parseArgs } from './args.ts';
import { budgetFromArgs, budgetUsage } from './budget-args.ts';
import { readContainedFile } from './contained-file.ts';
import { exportCommand, exportUsage } from './export.ts';
import { inspectCommand, inspectUsage } from './inspect.ts';
import { terminalBlock, terminalLine } from './terminal-text.ts';

/**
 * `seamscope` — the headless face of the same engine the app runs.
 *   seamscope validate <chain.json>
 *   seamscope run <chain.json> [--inputs <file>] [--endpoint URL --model M [--protocol openai|anthropic]] [--out run.json] [--stream]
 * Keys come from the environment only (SEAMSCOPE_API_KEY, OPENAI_API_KEY, ANTHROPIC_API_KEY).
 */
const usage = `Usage:
  seamscope validate <chain.json>
  seamscope run <chain.json> [--inputs inputs.json] [--endpoint URL --model NAME] [--protocol openai|anthropic]
                             [--no-structured-output] [--out run.json] [--allow-webhook ORIGIN]...
                             ${budgetUsage}
Inputs: a JSON object of input values; a value {"$file": "path"} reads text from that file, which must be inside the
inputs file's folder. Without --inputs, a chain's meta.inputFiles (files inside the chain's folder) and input examples
are used; a name that leaves the folder, absolute or through a symlink, is refused. Without --endpoint, the offline demo model runs.
API keys are read from SEAMSCOPE_API_KEY, OPENAI_API_KEY or ANTHROPIC_API_KEY, never from arguments.
A webhook step posts only to an origin named by --allow-webhook (e.g. --allow-webhook https://hooks.example.com);
without it, a chain with a webhook does not run at all.
${inspectUsage}
${exportUsage}`;

interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
  env: Record<string, string | undefined>;
}

const defaultIo: Io = { out: (t) => process.stdout.write(`${t}\n`), err: (t) => process.stderr.write(`${t}\n`), env: process.env };

async function loadChain(path: string, io: Io): Promise<Chain | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    io.err(`Cannot read ${terminalLine(path)}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    return null;
  }
  // A chain file, or a program exported from one (its chain is embedded as data, never run).
  const result = importChainSource(text, { fileName: path });
  if (!result.ok) {
    io.err(`${terminalLine(path)}: ${result.problems.length} problem${result.problems.length === 1 ? '' : 's'}`);
    for (const p of result.problems) io.err(`  ${terminalLine(p.path)}  ${terminalLine(p.message)}`);
    return null;
  }
  return result.chain;
}

/** An inputs file: one JSON object, read strictly (no duplicate keys, no overflowing numbers). */
async function readInputsFile(path: string): Promise<Record<string, unknown>> {
  const read = parseStrictJson(await readFile(path, 'utf8'));
  if (!read.ok) throw new Error(`${path}: ${formatJsonPath(read.path)}  ${read.message}`);
  const value = read.value;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error(`${path}: an inputs file is a JSON object of input values`);
  return value as Record<string, unknown>;
}

/**
 * The run's inputs: what `--inputs` gives (a `{"$file"}` value read from that file's folder),
 * then, only for inputs it left out, the chain's `meta.inputFiles` (from the chain's folder)
 * and input examples — so a chain whose bundled document is missing still runs on the inputs
 * the user supplied. Both kinds of file name are contained in their folder (contained-file.ts).
 */
async function readInputs(chain: Chain, chainPath: string, inputsPath: string | undefined): Promise<Record<string, unknown>> {
  const inputs = new Map<string, unknown>();
  if (inputsPath) {
    const given = await readInputsFile(inputsPath);
    for (const [name, value] of Object.entries(given)) {
      const ref = value !== null && typeof value === 'object' && Object.hasOwn(value, '$file') ? (value as { $file: unknown }).$file : undefined;
      inputs.set(name, ref !== undefined ? await readContainedFile(inputsPath, formatJsonPath([name, '$file']), ref) : value);
    }
  }
  const inputFiles = (chain.meta?.inputFiles ?? {}) as Record<string, unknown>;
  for (const input of chain.inputs) {
    if (inputs.has(input.name)) continue;
    if (Object.hasOwn(inputFiles, input.name)) inputs.set(input.name, await readContainedFile(chainPath, formatJsonPath(['meta', 'inputFiles', input.name]), inputFiles[input.name]));
    else if (input.example !== undefined) inputs.set(input.name, input.example);
  }
  // fromEntries defines own properties, so an input named "__proto__" stays a plain key.
  return Object.fromEntries(inputs);
}

function profileFromArgs(options: Record<string, string | true>): EndpointProfile {
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

async function runCommand(args: ReturnType<typeof parseArgs>, io: Io): Promise<number> {
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
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.once('SIGINT', onSignal);
  const run = await runChain({
    chain, inputs, provider: createProviderForProfile(profile, { apiKey }), model: runModelSettings(profile), repo, signal: controller.signal, budget,
    allowEgress, egressHint: 'name its origin with --allow-webhook',
    onEvent: (e) => {
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
function allowedWebhookOrigins(values: readonly string[]): string[] {
  return values.map((value) => {
    const origin = egressOrigin(value);
    if (!origin || baseUrlProblem(value)) throw new Error(`--allow-webhook needs an http(s) origin such as https://hooks.example.com, got "${value}"`);
    return origin;
  });
}

/** What `validate` says about egress: every origin the chain would post to, and the flag that allows it. */
function egressWarnings(chain: Chain): string[] {
  return chainEgress(chain, stepRegistry).map((t) => `warning: step "${terminalLine(t.stepName)}" (${t.stepId}) posts to ${t.origin}: unconfirmed egress; \`run\` refuses it unless --allow-webhook ${t.origin} is given`);
}

/**
 * The output boundary: every line the CLI prints passes terminalBlock, so no control or bidi
 * character from a file, a trace or a model reaches the terminal, whatever path printed it.
 * Values placed inside one line (names, paths, messages) also go through terminalLine, which
 * escapes line breaks too, so a value cannot forge a line of its own.
 */
function guardedIo(io: Io): Io {
  return { out: (t) => io.out(terminalBlock(t)), err: (t) => io.err(terminalBlock(t)), env: io.env };
}

export async function main(argv: string[], rawIo: Io = defaultIo): Promise<number> {
  const io = guardedIo(rawIo);
  const [command, ...rest] = argv;
  try {
    const args = parseArgs(rest, ['no-structured-output', 'json', 'strict'], ['allow-webhook']);
    switch (command) {
      case 'validate': {
        const [path] = args.positionals;
        if (!path) return io.err(usage), 2;
        const chain = await loadChain(path, io);
        if (chain) io.out(`${terminalLine(path)}: ok — "${terminalLine(chain.name)}", ${chain.steps.length} steps, ${chain.inputs.length} inputs`);
        if (chain) for (const line of egressWarnings(chain)) io.err(line);
        // Sound, but promising a check that does not happen (an unenforced format): said, never silent.
        if (chain) for (const f of chainSchemaFindings(chain, stepRegistry)) io.err(`note: ${terminalLine(formatPath(f.path))}: ${terminalLine(f.message)}`);
        return chain ? 0 : 1;
      }
      case 'run':
        return await runCommand(args, io);
      case 'export':
        return await exportCommand(args.positionals, args.options, io);
      case 'inspect':
        return await inspectCommand(args.positionals, args.options, io);
      case undefined:
      case 'help':
      case '--help':
        io.out(usage);
        return command ? 0 : 2;
      default:
        io.err(`Unknown command "${terminalLine(command)}".\n${usage}`);
        return 2;
    }
  } catch (error) {
    io.err(`Error: ${terminalLine((error as Error).message)}`);
    return 1;
  }
}
