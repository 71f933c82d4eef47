import path from 'node:path';
import type { FinishedTrace } from '../collect/index.ts';
import type { OptionTable, ParsedArgs } from './args.ts';
import type { Io } from './load-chain.ts';
import { terminalLine } from './terminal-text.ts';
import { collectUsage } from './collect-usage.ts';

/**
 * `seamscope collect [--port 4318] [--host 127.0.0.1] [--dir .runs/collected] [--app-origin <origin>]…`:
 * an OTLP/HTTP receiver, and the read API the app polls (src/collect/read-api.ts). Each finished trace becomes a run file in --dir and one line: its file, status and
 * each boundary's verdict, in `inspect`'s words. Runs until stopped (Ctrl+C), then finishes and
 * writes what is pending.
 */
export const collectOptions: OptionTable = { port: 'string', host: 'string', dir: 'string', 'app-origin': 'list' };

const oneLine = (text: string) => terminalLine(String(text).replace(/\s+/g, ' ').trim());
const plural = (n: number, word: string, many = `${word}s`) => `${n} ${n === 1 ? word : many}`;

/** One finished trace as one line: where it went and what each boundary's verdict is. */
export function traceLine(trace: FinishedTrace, cwd: string): string {
  const head = `trace ${trace.traceId}: ${plural(trace.spans, 'span')}${trace.logs ? `, ${plural(trace.logs, 'log record')}` : ''}`;
  if (!trace.ok) return `${head}, not written: ${oneLine(trace.message)}`;
  const { inspection } = trace;
  const verdicts = inspection.ok
    ? `${plural(inspection.boundaries.length, 'boundary', 'boundaries')}, ${inspection.boundaries.filter((b) => b.lossy).length} likely lossy${inspection.boundaries.length ? ` — ${inspection.boundaries.map((b) => `${oneLine(b.producer)} → ${oneLine(b.consumer)}: ${oneLine(b.verdict)}`).join('; ')}` : ''}`
    : `not inspected (${oneLine(inspection.message)})`;
  return `${head} → ${oneLine(path.relative(cwd, trace.path) || trace.path)} "${oneLine(trace.run.chainName)}" (${oneLine(trace.run.status)}): ${verdicts}`;
}

function portOf(value: string | true | undefined): number | null {
  if (value === undefined) return 4318;
  if (typeof value !== 'string' || !/^\d{1,5}$/.test(value) || Number(value) > 65535) return null;
  return Number(value);
}

/** Runs the collector until `stop` aborts; returns the exit code. */
export async function collectCommand(args: ParsedArgs, io: Io, stop: AbortSignal): Promise<number> {
  const { options } = args;
  if (args.positionals.length > 0) return io.err(`collect takes no file\n${collectUsage}`), 2;
  const port = portOf(options.port);
  if (port === null) return io.err(`--port must be a port number (0-65535), not "${terminalLine(String(options.port))}"`), 2;
  const host = typeof options.host === 'string' ? options.host : '127.0.0.1';
  const dir = path.resolve(typeof options.dir === 'string' ? options.dir : '.runs/collected');
  const cwd = process.cwd();
  const { DEFAULT_APP_ORIGINS, normalOrigin } = await import('../collect/index.ts');
  const appOrigins = args.lists['app-origin']?.length ? args.lists['app-origin'] : [...DEFAULT_APP_ORIGINS];
  const badOrigin = appOrigins.find((o) => normalOrigin(o) === null);
  if (badOrigin !== undefined) return io.err(`--app-origin must be an origin such as http://127.0.0.1:5173, not "${terminalLine(badOrigin)}"`), 2;
  // Keys this shell holds are scrubbed literally, and anything shaped like a key (Bearer …, sk-…) too.
  const keys = [io.env.SEAMSCOPE_API_KEY, io.env.OPENAI_API_KEY, io.env.ANTHROPIC_API_KEY];
  const { startCollector } = await import('../collect/index.ts');
  const collector = await startCollector({
    host, port, dir, keys, read: { appOrigins },
    // Inspected where it was written (the collector's writer thread): only the line is made here.
    onTrace: (trace) => (trace.ok ? io.out : io.err)(traceLine(trace, cwd)),
  });
  io.out(`seamscope collect: OTLP/HTTP on ${collector.url} (POST /v1/traces, /v1/logs; protobuf or JSON); runs are written to ${terminalLine(path.relative(cwd, dir) || dir)}`);
  // The token is for the person's own app, as a notebook server's is: printed once, never written to a file.
  io.out(`the app reads runs from here: Connect collector with address ${collector.url} and token ${collector.readToken} (from ${appOrigins.map(terminalLine).join(', ')})`);
  if (!/^(127\.\d+\.\d+\.\d+|::1|localhost)$/.test(host)) io.err(`warning: listening on ${terminalLine(host)}: anyone who can reach this address can send traces here`);
  await new Promise<void>((resolve) => {
    if (stop.aborted) resolve();
    else stop.addEventListener('abort', () => resolve(), { once: true });
  });
  await collector.close();
  const s = collector.stats();
  const answers = Object.entries(s.responses).map(([status, n]) => `${status} ×${n}`).join(', ');
  io.out(`stopped: ${plural(s.tracesWritten, 'trace')} written, ${s.tracesNotImported} not imported; ${plural(s.spansAccepted, 'span')} accepted, ${s.spansRejected} rejected; ${plural(s.logsAccepted, 'log record')} accepted${answers ? `; answers: ${answers}` : ''}`);
  return 0;
}
