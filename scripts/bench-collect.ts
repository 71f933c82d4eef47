/**
 * Benchmark: `seamscope collect` under load (issue #32, item 5). Eight exporters at once, each
 * an OpenTelemetry TracerProvider with its BatchSpanProcessor (default settings: a 2,048-span
 * queue that drops spans when full) and OTLP/HTTP protobuf exporter, each ending 1,000 spans a
 * second, as agent traces of --spans-per-trace spans (a root and chat spans with GenAI
 * attributes and message content). The collector is the built CLI in a process of its own.
 *
 *   npm run bench:collect [-- --seconds 60] [--exporters 8] [--rate 1000] [--spans-per-trace 20] [--queue 2048] [--skip-build] [--profile DIR] [--cli dist-cli/seamscope.mjs]
 *
 * The exporters run as OpenTelemetry's defaults set them (@opentelemetry/sdk-trace 3.1's
 * BatchSpanProcessor: maxQueueSize 2,048, maxExportBatchSize 512, scheduledDelayMillis 5,000,
 * exportTimeoutMillis 30,000, one export in flight; the OTLP/HTTP exporter's timeoutMillis
 * 10,000, retrying a 429 after its Retry-After). The eight run in this one process, as eight
 * TracerProviders, where an application would have one process each.
 *
 * --queue is each batch processor's maxQueueSize (the SDK's default, 2,048): a span ended while
 * the queue is full is dropped by the exporter's process, which the collector never sees, so
 * "lost" counts both. Each exporter is wrapped to count the spans its batch processor handed it
 * and how each export ended (scripts/bench/counting-exporter.ts), so the spans lost are printed
 * by where they were lost: dropped by an exporter's full queue, in an export that failed, or
 * exported and not accepted. CPU seconds of the collector and of the exporters' process are printed
 * apart, to tell which side ran out.
 * Prints spans sent, accepted by the collector and lost (sent − accepted), runs written, the
 * collector's answers by status (429s are retried by the exporters), and its RSS: sampled each
 * second and its peak (VmHWM from /proc). Asserts nothing. --profile DIR writes the collector's
 * CPU profile there (node --cpu-prof), to see where its time goes. --cli runs another build of
 * the CLI (an earlier commit's, to compare two builds in the same conditions).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Tracer } from '@opentelemetry/api';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { otlpTraceExporter } from '../src/testing/otlp-exporters.ts';
import { recordBenchTrace } from './bench/collect-trace.ts';
import { countingExporter } from './bench/counting-exporter.ts';
import { benchOption } from './bench/options.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const argv = process.argv.slice(2);
const num = (name: string, fallback: number) => Math.max(1, Number(benchOption(argv, name) ?? fallback));
const SECONDS = num('seconds', 60);
const EXPORTERS = num('exporters', 8);
const RATE = num('rate', 1000);
const SPANS_PER_TRACE = Math.max(2, num('spans-per-trace', 20));
const QUEUE = num('queue', 2048);
const PROFILE_DIR = benchOption(argv, 'profile');
const CLI = path.resolve(benchOption(argv, 'cli') ?? path.join(root, 'dist-cli/seamscope.mjs'));
const PORT = 5207 + Math.floor(Math.random() * 500);

if (!argv.includes('--skip-build') && !benchOption(argv, 'cli')) {
  const built = spawnSync('npm', ['run', '--silent', 'build:cli'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

/** The collector process's resident memory now and at its peak, in MB, from /proc. */
async function rss(pid: number): Promise<{ now: number; peak: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { now: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

/** CPU seconds a process (or with `tid`, one of its threads) has used (user + system), from /proc. */
async function cpuSeconds(pid: number, tid?: number): Promise<number> {
  const fields = (await readFile(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`, 'utf8')).split(') ')[1]?.split(' ') ?? [];
  // utime and stime are fields 14 and 15 of stat; after "pid (comm) " they are the 12th and 13th.
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const dir = await mkdtemp(path.join(tmpdir(), 'seamscope-bench-collect-'));
const collector = spawn(process.execPath, [...(PROFILE_DIR ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(PROFILE_DIR)] : []), CLI, 'collect', '--port', String(PORT), '--dir', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
let traceLines = 0;
let summary = '';
const listening = new Promise<void>((resolve, reject) => {
  collector.once('exit', (code) => reject(new Error(`the collector exited (${code}) before listening`)));
  createInterface({ input: collector.stdout }).on('line', (line) => {
    if (line.startsWith('seamscope collect:')) resolve();
    else if (line.startsWith('trace ')) traceLines++;
    else if (line.startsWith('stopped:')) summary = line;
  });
});
let notImported = 0;
createInterface({ input: collector.stderr }).on('line', (line) => {
  if (line.startsWith('trace ')) notImported++;
  else process.stderr.write(`collector: ${line}\n`);
});
await listening;
const url = `http://127.0.0.1:${PORT}`;

const counted = Array.from({ length: EXPORTERS }, () => countingExporter(otlpTraceExporter({ url, encoding: 'protobuf' })));
const providers = counted.map(({ exporter }) => new TracerProvider({
  spanProcessors: [new BatchSpanProcessor({ exporter, maxQueueSize: QUEUE, maxExportBatchSize: Math.min(512, QUEUE) })],
}));
const tracers = providers.map((p, i) => p.getTracer(`bench-exporter-${i}`));

process.stderr.write(`bench:collect: ${EXPORTERS} exporters × ${RATE} spans/s for ${SECONDS} s, traces of ${SPANS_PER_TRACE} spans, protobuf, queue ${QUEUE}, collector pid ${collector.pid} (${path.relative(root, CLI)})\n`);
// The request thread is the process's main thread (its thread id is the pid); the writer thread,
// GC helpers and libuv's file threads are the others.
const cpuBefore = { collector: await cpuSeconds(collector.pid as number), requestThread: await cpuSeconds(collector.pid as number, collector.pid as number), exporters: process.cpuUsage() };
const samples: number[] = [];
let sent = 0;
let traces = 0;
const started = performance.now();
// Each tick sends what each exporter owes by now, so a late tick catches up instead of drifting.
await new Promise<void>((resolve) => {
  const tick = setInterval(() => {
    const elapsed = (performance.now() - started) / 1000;
    const due = Math.min(elapsed, SECONDS) * RATE * EXPORTERS;
    while (sent + SPANS_PER_TRACE <= due) {
      recordBenchTrace(tracers[traces % EXPORTERS] as Tracer, traces, SPANS_PER_TRACE);
      traces++;
      sent += SPANS_PER_TRACE;
    }
    if (elapsed >= SECONDS) {
      clearInterval(tick);
      resolve();
    }
  }, 10);
  const sampler = setInterval(() => {
    if (performance.now() - started > SECONDS * 1000) return clearInterval(sampler);
    void rss(collector.pid as number).then((r) => samples.push(r.now), () => {});
  }, 1000);
});
const sendSeconds = (performance.now() - started) / 1000;
// An export that failed (retries spent) rejects the flush: its spans are counted as lost, the bench goes on.
const flushFailures = (await Promise.allSettled(providers.map((p) => p.forceFlush()))).filter((r) => r.status === 'rejected').length;
await Promise.allSettled(providers.map((p) => p.shutdown()));
const peakDuring = await rss(collector.pid as number);
const collectorCpu = (await cpuSeconds(collector.pid as number)) - cpuBefore.collector;
const requestThreadCpu = (await cpuSeconds(collector.pid as number, collector.pid as number)) - cpuBefore.requestThread;
const exporterUsage = process.cpuUsage(cpuBefore.exporters);
const exportersCpu = (exporterUsage.user + exporterUsage.system) / 1e6;
const load = (await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ');
const exited = new Promise<void>((resolve) => collector.once('exit', () => resolve()));
collector.kill('SIGINT');
await exited;
const files = (await readdir(dir)).filter((f) => f.endsWith('.run.json')).length;
await rm(dir, { recursive: true, force: true });

const accepted = Number(/(\d+) spans? accepted/.exec(summary)?.[1] ?? NaN);
const rejected = Number(/accepted, (\d+) rejected/.exec(summary)?.[1] ?? NaN);
const handed = counted.reduce((n, c) => n + c.counts.handed, 0);
const exported = counted.reduce((n, c) => n + c.counts.succeeded, 0);
const failures = new Map<string, number>();
for (const c of counted) for (const [why, n] of c.counts.failed) failures.set(why, (failures.get(why) ?? 0) + n);
const failed = [...failures.values()].reduce((a, b) => a + b, 0);
const latencies = counted.flatMap((c) => c.counts.latenciesMs).sort((a, b) => a - b);
const lq = (f: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(f * latencies.length))] ?? NaN);
const q = (f: number) => samples.length ? Math.round([...samples].sort((a, b) => a - b)[Math.min(samples.length - 1, Math.floor(f * samples.length))] as number) : NaN;
const quarter = (i: number) => Math.round(samples[Math.floor((samples.length * i) / 4)] ?? NaN);
process.stdout.write([
  `spans sent:      ${sent} in ${sendSeconds.toFixed(1)} s (${Math.round(sent / sendSeconds)} spans/s, ${traces} traces)`,
  `spans received:  ${accepted} accepted, ${rejected} rejected`,
  `spans lost:      ${sent - accepted} end to end (sent − accepted): ${sent - handed} dropped by the exporters' full queues (ended, never exported), ${failed} in exports that failed${failed ? ` (${[...failures].map(([why, n]) => `${n}: ${why}`).join('; ')})` : ''}, ${exported - accepted} exported but not accepted${flushFailures ? `; the final flush failed for ${flushFailures} exporter(s)` : ''}`,
  `exports:         ${latencies.length} finished, ${exported} spans exported; time from hand-over to result (429 retries included): median ${lq(0.5)} ms, p95 ${lq(0.95)} ms, max ${lq(1)} ms`,
  `runs written:    ${files} files, ${traceLines} trace lines, ${notImported} traces not imported`,
  `collector:       ${summary}`,
  `CPU:             collector ${collectorCpu.toFixed(1)} s (${((collectorCpu * 1000) / accepted).toFixed(3)} ms per accepted span; request thread ${requestThreadCpu.toFixed(1)} s, other threads ${(collectorCpu - requestThreadCpu).toFixed(1)} s), exporters' process ${exportersCpu.toFixed(1)} s over ${sendSeconds.toFixed(1)} s; load average ${load} on ${(await import('node:os')).cpus().length} cores`,
  `collector RSS:   peak ${Math.round(peakDuring.peak)} MB (VmHWM); sampled each second: median ${q(0.5)} MB, p95 ${q(0.95)} MB; at 25/50/75 % of the run ${quarter(1)}/${quarter(2)}/${quarter(3)} MB`,
  JSON.stringify({ bench: 'collect', seconds: SECONDS, exporters: EXPORTERS, rate: RATE, spansPerTrace: SPANS_PER_TRACE, queue: QUEUE, sent, accepted, rejected, lost: sent - accepted, droppedByExporters: sent - handed, failedExports: failed, runFiles: files, peakRssMb: Math.round(peakDuring.peak), collectorCpuS: Number(collectorCpu.toFixed(1)), requestThreadCpuS: Number(requestThreadCpu.toFixed(1)), exportersCpuS: Number(exportersCpu.toFixed(1)), load }),
].join('\n') + '\n');
