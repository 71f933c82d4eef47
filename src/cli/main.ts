import { readFile, mkdir, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { importChainSource } from '../export/import-chain.ts';
import { formatPath } from '../chain/parse.ts';
import type { Chain } from '../chain/schema.ts';
import { chainSchemaFindings } from '../chain/schema-check.ts';
import { stepRegistry } from '../steps/index.ts';
import { runChain } from '../engine/run.ts';
import { stepsNamingProfiles } from '../steps/model.config.ts';
import { createProviderForProfile, demoProfile, runModelSettings, type EndpointProfile } from '../providers/profiles.ts';
import { createMemoryRunRepository } from '../trace/repository.ts';
import { toRunFile } from '../trace/run-file.ts';
import { parseArgs } from './args.ts';
import { exportCommand, exportUsage } from './export.ts';
import { inspectCommand, inspectUsage } from './inspect.ts';

/**
 * `seamscope` — the headless face of the same engine the app runs.
 *   seamscope validate <chain.json>
 *   seamscope run <chain.json> [--inputs <file>] [--endpoint URL --model M [--protocol openai|anthropic]] [--out run.json] [--stream]
 * Keys come from the environment only (SEAMSCOPE_API_KEY, OPENAI_API_KEY, ANTHROPIC_API_KEY).
 */
const usage = `Usage:
  seamscope validate <chain.json>
  seamscope run <chain.json> [--inputs inputs.json] [--endpoint URL --model NAME] [--protocol openai|anthropic]
                             [--no-structured-output] [--out run.json]
Inputs: a JSON object of input values; a value {"$file": "path"} reads text from that file (relative to the inputs file).
Without --inputs, a chain's meta.inputFiles and input examples are used. Without --endpoint, the offline demo model runs.
API keys are read from SEAMSCOPE_API_KEY, OPENAI_API_KEY or ANTHROPIC_API_KEY, never from arguments.
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
    io.err(`Cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    return null;
  }
  // A chain file, or a program exported from one (its chain is embedded as data, never run).
  const result = importChainSource(text);
  if (!result.ok) {
    io.err(`${path}: ${result.problems.length} problem${result.problems.length === 1 ? '' : 's'}`);
    for (const p of result.problems) io.err(`  ${p.path}  ${p.message}`);
    return null;
  }
  return result.chain;
}

/** A file a chain names, read only from inside the chain's own folder (chain files are shared, so untrusted). */
async function readChainFile(chainPath: string, file: string): Promise<string> {
  const folder = resolve(dirname(chainPath));
  const path = resolve(folder, file);
  if (relative(folder, path).startsWith('..') || isAbsolute(relative(folder, path))) throw new Error(`meta.inputFiles names "${file}", which is outside the chain's folder`);
  return readFile(path, 'utf8');
}

/**
 * The run's inputs: what `--inputs` gives (a `{"$file"}` value read relative to that file),
 * then, only for inputs it left out, the chain's `meta.inputFiles` and input examples — so a
 * chain whose bundled document is missing still runs on the inputs the user supplied.
 */
async function readInputs(chain: Chain, chainPath: string, inputsPath: string | undefined): Promise<Record<string, unknown>> {
  const inputs = new Map<string, unknown>();
  if (inputsPath) {
    const given = JSON.parse(await readFile(inputsPath, 'utf8')) as Record<string, unknown>;
    for (const [name, value] of Object.entries(given)) {
      const ref = value !== null && typeof value === 'object' && Object.hasOwn(value, '$file') ? (value as { $file: unknown }).$file : undefined;
      inputs.set(name, typeof ref === 'string' ? await readFile(resolve(dirname(inputsPath), ref), 'utf8') : value);
    }
  }
  const inputFiles = (chain.meta?.inputFiles ?? {}) as Record<string, unknown>;
  for (const input of chain.inputs) {
    if (inputs.has(input.name)) continue;
    const file = Object.hasOwn(inputFiles, input.name) ? inputFiles[input.name] : undefined;
    if (typeof file === 'string') inputs.set(input.name, await readChainFile(chainPath, file));
    else if (input.example !== undefined) inputs.set(input.name, input.example);
  }
  // fromEntries defines own properties, so an input named "__proto__" stays a plain key.
  return Object.fromEntries(inputs);
}

function profileFromArgs(options: Record<string, string | true>): EndpointProfile {
  if (typeof options.endpoint !== 'string') return demoProfile;
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
  const inputs = await readInputs(chain, chainPath, typeof args.options.inputs === 'string' ? args.options.inputs : undefined);
  const profile = profileFromArgs(args.options);
  const apiKey = io.env.SEAMSCOPE_API_KEY ?? (profile.kind === 'anthropic' ? io.env.ANTHROPIC_API_KEY : io.env.OPENAI_API_KEY);
  const named = stepsNamingProfiles(chain);
  if (named.length) io.err(`note: ${named.map((n) => `${n.stepId} names the profile "${n.profile}"`).join('; ')}; the command line calls one endpoint for every step`);
  const repo = createMemoryRunRepository();
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.once('SIGINT', onSignal);
  const run = await runChain({
    chain, inputs, provider: createProviderForProfile(profile, { apiKey }), model: runModelSettings(profile), repo, signal: controller.signal,
    onEvent: (e) => {
      if (e.type === 'step.finished') io.err(`  ${e.status.padEnd(9)} ${e.stepId}${e.failure ? `  ${e.failure.code}: ${e.failure.message}` : ''}`);
    },
  }).finally(() => process.off('SIGINT', onSignal));
  const outPath = typeof args.options.out === 'string' ? args.options.out : join('.runs', `${run.id}.run.json`);
  await mkdir(dirname(resolve(outPath)), { recursive: true });
  await writeFile(outPath, `${JSON.stringify(toRunFile(run, await repo.getEvents(run.id)), null, 2)}\n`);
  io.err(`run ${run.id}: ${run.status}${run.error ? ` — ${run.error}` : ''}\ntrace written to ${outPath}`);
  if (run.status === 'succeeded') io.out(typeof run.output === 'string' ? run.output : JSON.stringify(run.output, null, 2));
  return run.status === 'succeeded' ? 0 : 1;
}

export async function main(argv: string[], io: Io = defaultIo): Promise<number> {
  const [command, ...rest] = argv;
  try {
    const args = parseArgs(rest, ['no-structured-output', 'json', 'strict']);
    switch (command) {
      case 'validate': {
        const [path] = args.positionals;
        if (!path) return io.err(usage), 2;
        const chain = await loadChain(path, io);
        if (chain) io.out(`${path}: ok — "${chain.name}", ${chain.steps.length} steps, ${chain.inputs.length} inputs`);
        // Sound, but promising a check that does not happen (an unenforced format): said, never silent.
        if (chain) for (const f of chainSchemaFindings(chain, stepRegistry)) io.err(`note: ${formatPath(f.path)}: ${f.message}`);
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
        io.err(`Unknown command "${command}".\n${usage}`);
        return 2;
    }
  } catch (error) {
    io.err(`Error: ${(error as Error).message}`);
    return 1;
  }
}
