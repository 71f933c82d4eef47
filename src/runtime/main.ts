import type { ChainDefinition, RunProgram } from './api.ts';
import { checkRelativePath } from '../files/relative-path.ts';

const usage = (name: string): string => `Usage: ${name} [--input NAME=VALUE]… [--input-file NAME=PATH]… [--inputs inputs.json] [--use-examples]
                [--trace run.json] [--run-id ID]
Inputs: text for string inputs, JSON for the others; PATH or inputs.json "-" reads standard input;
in --inputs a value {"$file": "path"} reads that file (relative to the inputs file).
--use-examples fills each input not given from the file the chain names for it (meta.inputFiles, beside
this program), else from its example.
Endpoint (environment only): SEAMSCOPE_PROTOCOL=openai|anthropic, SEAMSCOPE_BASE_URL, SEAMSCOPE_MODEL,
SEAMSCOPE_API_KEY (or OPENAI_API_KEY / ANTHROPIC_API_KEY by protocol), SEAMSCOPE_STRUCTURED_OUTPUT=0,
SEAMSCOPE_MAX_OUTPUT_TOKENS, SEAMSCOPE_CONTEXT_WINDOW, SEAMSCOPE_MAX_TOKENS_PARAM, SEAMSCOPE_TIMEOUT_MS.
Exit status: 0 succeeded, 1 failed, 2 usage, 3 abstained, 4 escalated.`;

const exitCodes: Record<string, number> = { succeeded: 0, failed: 1, cancelled: 1, abstained: 3, escalated: 4 };

/** Whether this module is the program Node was started with (false in a browser). */
async function isMain(moduleUrl: string): Promise<boolean> {
  if (typeof process === 'undefined' || !process.argv?.[1]) return false;
  const { realpathSync } = await import('node:fs');
  const { pathToFileURL, fileURLToPath } = await import('node:url');
  try {
    return realpathSync(process.argv[1]) === realpathSync(fileURLToPath(moduleUrl)) || pathToFileURL(process.argv[1]).href === moduleUrl;
  } catch {
    return false;
  }
}

/** Runs the program's command line when its file is the one Node started; does nothing in a browser. */
export async function runIfMain<I>(moduleUrl: string, chain: ChainDefinition, runChain: RunProgram<I>): Promise<void> {
  if (!(await isMain(moduleUrl))) return;
  const { dirname } = await import('node:path');
  const { fileURLToPath } = await import('node:url');
  process.exitCode = await main(chain, runChain, process.argv.slice(2), dirname(fileURLToPath(moduleUrl)));
}

/**
 * The text of an example file (`meta.inputFiles`), read only from inside the program's folder:
 * the name passes the same check as everywhere else, and the real path (links resolved) must
 * stay inside. The export put the file there; a name that leaves the folder is never read.
 */
async function readExample(folder: string, input: string, file: unknown): Promise<string> {
  const { readFile, realpath } = await import('node:fs/promises');
  const { isAbsolute, relative, resolve, sep } = await import('node:path');
  const label = `meta.inputFiles.${input}`;
  const check = checkRelativePath(file);
  if (!check.ok) throw new Error(`--use-examples: ${label} is refused: ${check.reason}`);
  const base = await realpath(folder);
  let real: string;
  try {
    real = await realpath(resolve(base, check.path));
  } catch {
    throw new Error(`--use-examples: the example for "${input}" is ${check.path} (${label}), which is not in ${folder}; put it there or give it with --input-file ${input}=PATH`);
  }
  const rel = relative(base, real);
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) throw new Error(`--use-examples: ${label} (${check.path}) is a link that points outside ${folder}`);
  return readFile(real, 'utf8');
}

function splitPair(arg: string, flag: string): [string, string] {
  const at = arg.indexOf('=');
  if (at <= 0) throw new Error(`${flag} needs NAME=VALUE, got "${arg}"`);
  return [arg.slice(0, at), arg.slice(at + 1)];
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The chain's inputs from the command line: `--input NAME=VALUE`, `--input-file NAME=PATH`,
 * `--inputs file.json` (`-` reads standard input, once), `--use-examples`.
 */
export async function readInputs(chain: ChainDefinition, argv: readonly string[], folder?: string): Promise<{ inputs: Record<string, unknown>; tracePath?: string; runId?: string; help: boolean }> {
  const { readFile } = await import('node:fs/promises');
  const { dirname, resolve } = await import('node:path');
  let stdinRead = false;
  const read = async (path: string) => {
    if (path !== '-') return readFile(path, 'utf8');
    if (stdinRead) throw new Error('standard input ("-") can be read only once');
    stdinRead = true;
    return readStdin();
  };
  const isText = (input: string) => chain.inputs.find((i) => i.name === input)?.schema?.type === 'string';
  const valueOf = (input: string, text: string) => (isText(input) ? text : (JSON.parse(text) as unknown));
  const inputs: Record<string, unknown> = {};
  // Input names come from the chain and the command line: define them as own data properties, so
  // an input named "__proto__" is a key like any other instead of replacing the prototype.
  const setInput = (key: string, value: unknown) => Object.defineProperty(inputs, key, { value, writable: true, enumerable: true, configurable: true });
  let tracePath: string | undefined;
  let runId: string | undefined;
  let useExamples = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const next = () => {
      const value = argv[++i];
      if (value === undefined) throw new Error(`${arg} needs a value`);
      return value;
    };
    if (arg === '--help' || arg === '-h') return { inputs, help: true };
    if (arg === '--input') {
      const [key, text] = splitPair(next(), arg);
      setInput(key, valueOf(key, text));
    } else if (arg === '--input-file') {
      const [key, path] = splitPair(next(), arg);
      setInput(key, valueOf(key, await read(path)));
    } else if (arg === '--inputs') {
      const path = next();
      const given = JSON.parse(await read(path)) as Record<string, unknown>;
      const base = path === '-' ? process.cwd() : dirname(path);
      for (const [key, value] of Object.entries(given)) {
        const file = value !== null && typeof value === 'object' && Object.hasOwn(value, '$file') ? (value as { $file: unknown }).$file : undefined;
        setInput(key, typeof file === 'string' ? await readFile(resolve(base, file), 'utf8') : value);
      }
    } else if (arg === '--trace') tracePath = next();
    else if (arg === '--run-id') runId = next();
    else if (arg === '--use-examples') useExamples = true;
    else throw new Error(`unknown argument "${arg}"`);
  }
  if (useExamples) {
    // An input's example file (exported beside the program) first, as the app's Run dialog does, else its example.
    const files = chain.meta !== null && typeof chain.meta === 'object' ? (chain.meta as { inputFiles?: unknown }).inputFiles : undefined;
    const fileOf = (name: string) => (files !== null && typeof files === 'object' && Object.hasOwn(files, name) ? (files as Record<string, unknown>)[name] : undefined);
    for (const input of chain.inputs) {
      if (Object.hasOwn(inputs, input.name)) continue;
      const file = fileOf(input.name);
      if (file !== undefined) setInput(input.name, valueOf(input.name, await readExample(folder ?? (process.argv[1] ? dirname(resolve(process.argv[1])) : process.cwd()), input.name, file)));
      else if (input.example !== undefined) setInput(input.name, input.example);
    }
  }
  return { inputs, help: false, ...(tracePath ? { tracePath } : {}), ...(runId ? { runId } : {}) };
}

/** The program's command line: reads the inputs, runs the chain, writes the trace, prints the output; returns the exit status. */
/** `folder` is the program's own (where `--use-examples` finds the example files); by default the folder of the file Node started. */
export async function main<I>(chain: ChainDefinition, runChain: RunProgram<I>, argv: readonly string[], folder?: string): Promise<number> {
  const { writeFile, mkdir } = await import('node:fs/promises');
  const { dirname, resolve } = await import('node:path');
  const name = process.argv[1] ?? 'program';
  let args: Awaited<ReturnType<typeof readInputs>>;
  try {
    args = await readInputs(chain, argv, folder);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${usage(name)}\n`);
    return 2;
  }
  if (args.help) {
    process.stdout.write(`${usage(name)}\n`);
    return 0;
  }
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.once('SIGINT', onSignal);
  // The inputs are checked against the chain's schemas when the run starts.
  const result = await runChain(args.inputs as I, { runId: args.runId, signal: controller.signal }).finally(() => process.off('SIGINT', onSignal));
  if (args.tracePath) {
    await mkdir(dirname(resolve(args.tracePath)), { recursive: true });
    await writeFile(args.tracePath, `${JSON.stringify(result.toRunFile(), null, 2)}\n`);
  }
  process.stderr.write(`run ${result.id}: ${result.status}${result.error ? ` — ${result.error}` : ''}\n`);
  if (result.output !== undefined && result.status !== 'failed') {
    process.stdout.write(`${typeof result.output === 'string' ? result.output : JSON.stringify(result.output, null, 2)}\n`);
  }
  return exitCodes[result.status] ?? 1;
}
