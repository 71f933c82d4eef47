import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createScrubber } from '../providers/scrub.ts';
import { stepRegistry } from '../steps/index.ts';
import { readCorpus } from '../testing/corpus.ts';
import { importCheckedOtlpTrace } from '../trace/otlp/index.ts';
import { parseRunFile } from '../trace/run-file.ts';
import { TraceAssembler, type PendingTrace } from './assembler.ts';
import { inspectWritten, traceToOtlp, writeRunFile, type FinishedTrace } from './finish.ts';
import { readTraceRequest } from './payload.ts';
import { DEFAULT_LIMITS } from './server.ts';
import type { WorkerEntry } from './finish-worker-entry.ts';
import { startTraceWriter, type TraceWriter } from './trace-writer.ts';

/**
 * The writer threads against the way a finished trace was written before they existed (on the
 * thread that answers requests: the trace put back into one OTLP/JSON payload, scrubbed,
 * imported and written): the same files, byte for byte, for the corpus's OTLP captures.
 */
const CAPTURES = [
  'openinference-google-adk-2025-08-28.otlp.json',
  'openinference-openai-agents-2025-09-30.otlp.json',
  'openinference-openai-js-prompt-template.otlp.json',
  'openlit-1.27-openai-chat.otlp.json',
  'openllmetry-0.33.9-openai-chat.otlp.json',
  'openllmetry-js-0.27-openai.otlp.json',
  'otel-instrumentation-openai-0.22.otlp.json',
  'pydantic-ai-0.2.15-openai-chat.otlp.json',
  'vercel-ai-sdk-v6-openai.otlp.json',
];
// A key the captures do not hold, planted in one of them, to see it scrubbed on both paths.
const KEY = 'sk-writer-test-0123456789abcdef';

const dirs: string[] = [];
const writers: TraceWriter[] = [];
afterEach(async () => {
  await Promise.all(writers.splice(0).map((w) => w.close()));
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'seamscope-writer-'));
  dirs.push(dir);
  return dir;
}

/** The corpus captures as the collector holds them when they finish: read as requests, grouped by trace. */
function finishedCaptures(): PendingTrace[] {
  const assembler = new TraceAssembler(DEFAULT_LIMITS);
  for (const name of CAPTURES) {
    let text = readCorpus(`traces/otlp/${name}`);
    if (name.startsWith('openllmetry-js')) text = text.replace('"Paris is the capital of France."', `"Paris is the capital of France. Authorization: Bearer ${KEY}"`);
    const read = readTraceRequest(new TextEncoder().encode(text), 'json', DEFAULT_LIMITS);
    if (!read.ok) throw new Error(`${name}: ${read.message}`);
    assembler.addSpans(read.items, 0);
  }
  return assembler.drain();
}

/** How a finished trace was written before the writer threads, on the thread that answered requests. */
async function writtenAsBefore(trace: PendingTrace, dir: string): Promise<string | null> {
  const scrubbed = createScrubber([KEY]).value(traceToOtlp(trace).data);
  const result = importCheckedOtlpTrace(scrubbed, JSON.stringify(scrubbed), stepRegistry);
  return result.ok ? writeRunFile(dir, result.run, result.events) : null;
}

function writer(dir: string, threads: number, onResult: (t: FinishedTrace) => void, workerEntry?: WorkerEntry): TraceWriter {
  const w = startTraceWriter({ dir, keys: [KEY], threads, onResult, ...(workerEntry ? { workerEntry } : {}) });
  writers.push(w);
  return w;
}

/**
 * A trace id on the given lane of two (trace-writer.ts: the last six hex digits, mod the lanes),
 * `n` telling traces apart; `dead…` ids end dying-finish-worker.ts's thread.
 */
const idOn = (lane: 0 | 1, n: number, prefix = 'ab') => `${prefix}${'0'.repeat(30 - prefix.length)}${(n * 2 + lane).toString(16).padStart(2, '0')}`;

/** A finished trace under another trace id (its spans' too). */
function withTraceId(trace: PendingTrace, traceId: string): PendingTrace {
  return { ...trace, traceId, spans: trace.spans.map((s) => ({ ...s, traceId, span: { ...s.span, traceId } })) };
}

/** A corpus capture as one finished trace of `copies` times its spans (new span ids), to keep a thread busy. */
function heavy(trace: PendingTrace, traceId: string, copies: number): PendingTrace {
  const spans = Array.from({ length: copies }, (_, i) => trace.spans.map((s) => {
    const spanId = `${i.toString(16).padStart(4, '0')}${s.spanId.slice(4)}`;
    return { ...s, traceId, spanId, span: { ...s.span, traceId, spanId, ...(s.span.parentSpanId ? { parentSpanId: `${i.toString(16).padStart(4, '0')}${s.span.parentSpanId.slice(4)}` } : {}) } };
  })).flat();
  return { ...trace, traceId, spans, bytes: trace.bytes * copies };
}

/** The writer thread that ends itself mid-trace (dying-finish-worker.ts), started the way finish-worker-entry.ts starts the real one from the sources. */
const DYING: WorkerEntry = {
  eval: true,
  entry: `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((api) => { api.register(); return import(${JSON.stringify(new URL('./dying-finish-worker.ts', import.meta.url).href)}); });`,
};

async function filesOf(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of (await readdir(dir)).sort()) out[name] = await readFile(path.join(dir, name), 'utf8');
  return out;
}

describe('the collector\'s writer threads', () => {
  it('write the corpus captures as the request thread wrote them before, keys scrubbed', async () => {
    const traces = finishedCaptures();
    const before = await tempDir();
    const now = await tempDir();
    let written = 0;
    for (const trace of traces) if (await writtenAsBefore(trace, before)) written++;
    expect(written).toBeGreaterThanOrEqual(CAPTURES.length);

    const results: FinishedTrace[] = [];
    const w = writer(now, 2, (t) => results.push(t));
    w.write(traces);
    await w.idle();
    expect(results).toHaveLength(traces.length);
    expect(results.filter((r) => r.ok)).toHaveLength(written);
    expect(await filesOf(now)).toEqual(await filesOf(before));
    expect(Object.values(await filesOf(now)).join('\n')).not.toContain(KEY);
    // Each outcome carries its run's boundary verdicts, as inspecting the written file here gives them.
    for (const r of results) {
      if (!r.ok) continue;
      const file = parseRunFile(await readFile(r.path, 'utf8'));
      if (!file.ok) throw new Error(file.message);
      expect(r.inspection).toEqual(inspectWritten(file.file.run, file.file.events));
    }
  });

  it('counts what it was handed as queued until each outcome comes back', async () => {
    const traces = finishedCaptures();
    const results: FinishedTrace[] = [];
    const w = writer(await tempDir(), 1, (t) => results.push(t));
    w.write(traces);
    // Held against the collector's bounds from the moment they are handed over.
    expect(w.queued).toEqual({
      traces: traces.length,
      spans: traces.reduce((n, t) => n + t.spans.length, 0),
      bytes: traces.reduce((n, t) => n + t.bytes, 0),
    });
    await w.idle();
    expect(w.queued).toEqual({ traces: 0, spans: 0, bytes: 0 });
  });

  it('says a trace it could not write was not written, and writes the next', async () => {
    const dir = await tempDir();
    // A file where the folder should be: no run file can be written under it.
    const blocked = path.join(dir, 'blocked');
    await writeFile(blocked, 'not a folder');
    const [trace] = finishedCaptures();
    const results: FinishedTrace[] = [];
    const w = writer(blocked, 1, (t) => results.push(t));
    w.write([trace as PendingTrace]);
    await w.idle();
    expect(results).toEqual([expect.objectContaining({ ok: false, message: expect.stringMatching(/^not written: .*(ENOTDIR|EEXIST)/) })]);
    expect(w.queued.traces).toBe(0);
  });

  it('gives outcomes in the order the traces were handed over, though a thread with less to do writes its traces first', async () => {
    const [big, small] = finishedCaptures() as [PendingTrace, PendingTrace];
    // Lane 0 has a long trace to write first; lane 1's short ones are written meanwhile.
    const traces = [heavy(big, idOn(0, 1), 200), withTraceId(small, idOn(1, 2)), withTraceId(small, idOn(1, 3)), withTraceId(small, idOn(0, 4))];
    const results: FinishedTrace[] = [];
    const w = writer(await tempDir(), 2, (t) => results.push(t));
    w.write(traces);
    await w.idle();
    expect(results.map((r) => [r.traceId, r.ok])).toEqual(traces.map((t) => [t.traceId, true]));
  });

  it('says the traces a thread held when it died were not written, and starts another for the next', async () => {
    const dir = await tempDir();
    const [trace] = finishedCaptures() as [PendingTrace];
    const results: FinishedTrace[] = [];
    const w = writer(dir, 2, (t) => results.push(t), DYING);
    // Lane 0 dies as it takes its two; lane 1 writes its own.
    const dying = withTraceId(trace, idOn(0, 1, 'dead'));
    const queuedBehind = withTraceId(trace, idOn(0, 2));
    const other = withTraceId(trace, idOn(1, 3));
    w.write([dying, other, queuedBehind]);
    await w.idle();
    expect(results.map((r) => [r.traceId, r.ok])).toEqual([[dying.traceId, false], [other.traceId, true], [queuedBehind.traceId, false]]);
    for (const r of [results[0], results[2]]) {
      expect(r).toMatchObject({ ok: false, spans: trace.spans.length, message: 'not written: the writer thread ended before writing it (it stopped with exit code 70)' });
    }
    expect(w.threads()).toBe(1);
    expect(w.queued).toEqual({ traces: 0, spans: 0, bytes: 0 });

    const next = withTraceId(trace, idOn(0, 4));
    w.write([next]);
    expect(w.threads()).toBe(2);
    await w.idle();
    expect(results[3]).toMatchObject({ ok: true, traceId: next.traceId });
    // Only the two written traces have run files.
    expect((await readdir(dir)).filter((f) => f.endsWith('.run.json')).sort()).toEqual(results.filter((r) => r.ok).map((r) => path.basename(r.ok ? r.path : '')).sort());
  });

  it('ends its threads when closed, after writing what it holds', async () => {
    const dir = await tempDir();
    const results: FinishedTrace[] = [];
    const w = writer(dir, 2, (t) => results.push(t));
    const traces = finishedCaptures();
    w.write(traces);
    expect(w.threads()).toBe(2);
    await w.close();
    expect(results).toHaveLength(traces.length);
    expect(w.threads()).toBe(0);
    expect(() => w.write(traces)).toThrow(/closed/);
  });
});
