import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Chain } from '../chain/schema.ts';
import { runChain } from '../engine/run.ts';
import { createOpenAIProvider } from '../providers/openai.ts';
import { loadTokenCounter } from '../providers/tokenizer.ts';
import { planChain } from '../engine/plan.ts';
import { stepRegistry } from '../steps/index.ts';
import { chainEgress } from '../steps/egress.ts';
import { createMockModelServer, type MockReply } from './mock-server.ts';
import type { TraceEvent } from '../trace/events.ts';
import { createMemoryRunRepository } from '../trace/repository.ts';
import { exportChainFiles, type ExportLanguage } from '../export/export-chain.ts';

/**
 * Runs one chain three ways — the in-app engine, the exported TypeScript and the exported
 * Python — each against a fresh mock model server with the same scripted replies, and
 * captures what the conformance test compares: the end of the run, every request body the
 * mock received, and the retry and routing decisions from the trace.
 */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface Settings {
  model: string;
  maxOutputTokens: number;
  contextWindow: number;
  structuredOutput: boolean;
  /** How long one request may go unanswered (the engine's transport option, a program's SEAMSCOPE_TIMEOUT_MS). */
  timeoutMs?: number;
}

export const DEFAULT_SETTINGS: Settings = { model: 'gpt-4.1-mini', maxOutputTokens: 4096, contextWindow: 128_000, structuredOutput: true };

export interface Capture {
  status: string;
  output: unknown;
  error?: string;
  /** Request bodies in arrival order, as JSON text of the parsed body. */
  bodies: string[];
  /** The same bodies exactly as they were sent (battery B7 compares these byte for byte). */
  rawBodies: string[];
  /** One line per attempt, transport retry, check, route, unit and finished step, sorted. */
  decisions: string[];
  events: unknown[];
  /** Scripted replies no request took (a keyed reply whose marker no prompt held, or a script longer than the run). */
  unused: number;
  log?: string;
}

type AnyEvent = TraceEvent | Record<string, unknown>;

/** The retry and routing decisions in a trace (skips left out: see the report on terminals). */
export function decisions(events: readonly AnyEvent[]): string[] {
  const lines: string[] = [];
  for (const raw of events) {
    const e = raw as Record<string, unknown> & { type: string; stepId?: string };
    const unit = typeof e.unit === 'string' ? `#${e.unit}` : '';
    switch (e.type) {
      case 'step.attempt': {
        const record = e.record as { failure?: string; errors: string[]; feedback?: string };
        lines.push(`${e.stepId}${unit} attempt ${String(e.attempt)}: ${record.failure ?? 'ok'} ${JSON.stringify(record.errors)}${record.feedback ? ' +feedback' : ''}`);
        break;
      }
      case 'step.transport_retry':
        lines.push(`${e.stepId} transport retry ${String(e.attempt)} (${String(e.status)})`);
        break;
      case 'step.route':
        lines.push(`${e.stepId} route ${String(e.label)} -> ${(e.chosen as string[]).join(',')}`);
        break;
      case 'step.check':
        lines.push(`${e.stepId} check ${String(e.check)} ${String(e.passed)} ${JSON.stringify(e.problems)}`);
        break;
      case 'step.unit':
        lines.push(`${e.stepId} unit ${String(e.unitId)} ${String(e.status)}`);
        break;
      case 'step.finished':
        if (e.status !== 'skipped') {
          const failure = e.failure as { code: string; message: string } | undefined;
          lines.push(`${e.stepId} ${String(e.status)}${failure ? ` ${failure.code}: ${failure.message}` : ''}${e.fallbackTo ? ` -> ${String(e.fallbackTo)}` : ''}`);
        }
        break;
      case 'run.finished':
        lines.push(`run ${String(e.status)} at ${String(e.terminalStep)}`);
        break;
    }
  }
  return lines.sort();
}

/**
 * How each step ended, keyed by step (and map unit), so runs whose calls overlap compare
 * regardless of the order things finished in: status, output and failure of every step that
 * ran, and each unit's status, output and error.
 */
export function stepOutcomes(events: readonly unknown[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const raw of events) {
    const e = raw as Record<string, unknown> & { type: string; stepId?: string };
    // Skips are left out, as in decisions(): the engine records a branch not taken when its
    // router settles, a program when it reaches the step (never, after it has returned).
    if (e.type === 'step.finished' && e.status !== 'skipped') {
      const key = String(e.stepId);
      // A step that ran in place of a failed one is recorded under its own id: keep every record.
      const entry = { status: e.status, output: e.output, failure: e.failure, fallbackTo: e.fallbackTo };
      out[key] = key in out ? [...[out[key]].flat(), entry] : entry;
    } else if (e.type === 'step.unit') {
      out[`${String(e.stepId)}#${String(e.unitId)}`] = { index: e.index, status: e.status, output: e.output, error: e.error };
    }
  }
  return JSON.parse(JSON.stringify(out)) as Record<string, unknown>;
}

async function withMock<T>(replies: readonly MockReply[], fn: (baseUrl: string) => Promise<T>): Promise<{ result: T; bodies: string[]; rawBodies: string[]; unused: number }> {
  const mock = await createMockModelServer();
  try {
    mock.enqueue(...replies);
    const result = await fn(`${mock.url}/v1`);
    return { result, bodies: mock.requests.map((r) => JSON.stringify(r.body)), rawBodies: mock.requests.map((r) => r.rawBody ?? '[too large]'), unused: mock.queued() };
  } finally {
    await mock.close();
  }
}

const API_KEY = 'sk-conformance-test-key-0000';

export async function runEngine(chain: Chain, inputs: Record<string, unknown>, settings: Settings, replies: readonly MockReply[], runId: string): Promise<Capture> {
  const countTokens = await loadTokenCounter();
  const { result, bodies, rawBodies, unused } = await withMock(replies, async (baseUrl) => {
    const repo = createMemoryRunRepository();
    const meta = await runChain({
      chain, inputs, runId, repo, countTokens,
      // An exported program posts where its code says; the engine is allowed the same origins to compare like with like.
      allowEgress: chainEgress(chain, stepRegistry).map((t) => t.origin),
      provider: createOpenAIProvider({ baseUrl, apiKey: API_KEY, structuredOutput: settings.structuredOutput }),
      ...(settings.timeoutMs ? { transport: { timeoutMs: settings.timeoutMs } } : {}),
      model: { name: settings.model, maxOutputTokens: settings.maxOutputTokens, structuredOutput: settings.structuredOutput, contextWindow: settings.contextWindow },
    });
    return { meta, events: await repo.getEvents(meta.id) };
  });
  return { status: result.meta.status, output: result.meta.output, error: result.meta.error, bodies, rawBodies, decisions: decisions(result.events), events: result.events, unused };
}

/** Writes an export into a fresh temporary folder (nothing installed beside it: the TypeScript runtime needs no package). */
export async function writeExport(chain: Chain, lang: ExportLanguage, settings: Settings, prefix = 'seamscope-export-'): Promise<{ dir: string; program: string }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  const { files, program } = await exportChainFiles(chain, { lang, endpoint: settings });
  for (const file of files) {
    await mkdir(dirname(join(dir, file.path)), { recursive: true });
    await writeFile(join(dir, file.path), file.contents);
  }
  return { dir, program: program.path };
}

export function runProcess(command: string, args: string[], cwd: string, env: Record<string, string>, timeoutMs = 60_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env } });
    // Chunks are joined before decoding: a character split across two chunks must not turn into U+FFFD.
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
  });
}

/**
 * Runs an exported program as a user would: Python with `python3`; TypeScript with `tsx`, or
 * (faster, the same code) compiled by esbuild into one module that Node runs (the runtime
 * bundle beside it is inlined; there are no packages to leave out).
 */
export async function runExported(chain: Chain, lang: ExportLanguage, inputs: Record<string, unknown>, settings: Settings, replies: readonly MockReply[], runId: string, opts: { tsx?: boolean } = {}): Promise<Capture> {
  const { dir, program } = await writeExport(chain, lang, settings);
  await writeFile(join(dir, 'inputs.json'), JSON.stringify(inputs));
  const args = ['--inputs', 'inputs.json', '--trace', 'trace.json', '--run-id', runId];
  let command = 'python3';
  let entry = program;
  if (lang === 'ts' && opts.tsx) command = join(REPO_ROOT, 'node_modules/.bin/tsx');
  else if (lang === 'ts') {
    const built = await runProcess(join(REPO_ROOT, 'node_modules/.bin/esbuild'), [program, '--bundle', '--platform=node', '--format=esm', '--packages=external', '--outfile=program.mjs', '--log-level=error'], dir, {});
    if (built.code !== 0) throw new Error(`esbuild could not compile the exported program:\n${built.stderr}`);
    command = process.execPath;
    entry = 'program.mjs';
  }
  const { result, bodies, rawBodies, unused } = await withMock(replies, (baseUrl) =>
    runProcess(command, [entry, ...args], dir, { SEAMSCOPE_BASE_URL: baseUrl, SEAMSCOPE_API_KEY: API_KEY, OPENAI_API_KEY: '', SEAMSCOPE_TIMEOUT_MS: settings.timeoutMs ? String(settings.timeoutMs) : '' }));
  let file: { run: { status: string; output?: unknown; error?: string }; events: AnyEvent[] };
  try {
    file = JSON.parse(await readFile(join(dir, 'trace.json'), 'utf8')) as typeof file;
  } catch {
    throw new Error(`the exported ${lang} program wrote no trace (exit ${String(result.code)}):\n${result.stderr}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return { status: file.run.status, output: file.run.output, error: file.run.error, bodies, rawBodies, decisions: decisions(file.events), events: file.events, unused, log: `${result.stdout}\n${result.stderr}` };
}

/** Whether the engine makes its calls one at a time for this chain (no map, no independent calling steps). */
export function callsAreSequential(chain: Chain): boolean {
  const plan = planChain(chain, stepRegistry);
  const calling = chain.steps.filter((s) => ['model', 'map', 'reduce'].includes(s.kind)).map((s) => s.id);
  if (chain.steps.some((s) => s.kind === 'map')) return false;
  const ancestors = new Map<string, Set<string>>();
  const ancestorsOf = (id: string): Set<string> => {
    const known = ancestors.get(id);
    if (known) return known;
    const planned = plan.get(id);
    const set = new Set<string>();
    for (const p of [...(planned?.dataPreds ?? []), ...(planned?.routePreds ?? [])]) {
      set.add(p);
      for (const a of ancestorsOf(p)) set.add(a);
    }
    ancestors.set(id, set);
    return set;
  };
  return calling.every((a) => calling.every((b) => a === b || ancestorsOf(a).has(b) || ancestorsOf(b).has(a)));
}

/** A demo chain's inputs: its examples, and the files `meta.inputFiles` names (relative to public/demo). */
export async function demoInputs(chain: Chain): Promise<Record<string, unknown>> {
  const inputs: Record<string, unknown> = {};
  const files = (chain.meta?.inputFiles ?? {}) as Record<string, unknown>;
  for (const input of chain.inputs) {
    const file = files[input.name];
    if (typeof file === 'string') inputs[input.name] = await readFile(join(REPO_ROOT, 'public/demo', file), 'utf8');
    else if (input.example !== undefined) inputs[input.name] = input.example;
  }
  return inputs;
}

export { API_KEY };
