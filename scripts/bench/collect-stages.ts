/**
 * Where the collector's time goes, stage by stage, in this process (no HTTP, no exporters):
 * requests of 512 spans as the bench's exporters make them, encoded by OpenTelemetry's
 * protobuf serializer, then decoded and checked (readTraceRequest), grouped (TraceAssembler)
 * and finished (import, write and inspect, finishTrace: what the writer threads do). Prints CPU ms per span for each
 * stage; the figures vary with the machine's load, so compare stages of one run.
 *
 *   npx tsx scripts/bench/collect-stages.ts [--requests 40]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { TraceAssembler } from '../../src/collect/assembler.ts';
import { finishTrace } from '../../src/collect/finish.ts';
import { readTraceRequest } from '../../src/collect/payload.ts';
import { DEFAULT_LIMITS } from '../../src/collect/server.ts';
import { createScrubber } from '../../src/providers/scrub.ts';
import { stepRegistry } from '../../src/steps/index.ts';
import { recordBenchTrace } from './collect-trace.ts';
import { benchOption } from './options.ts';

const REQUESTS = Number(benchOption(process.argv.slice(2), 'requests') ?? 40);
const exporter = new InMemorySpanExporter();
const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
const tracer = provider.getTracer('bench-stages');
const bodies: Uint8Array[] = [];
for (let r = 0; r < REQUESTS; r++) {
  exporter.reset();
  // 512 spans: 25 traces of 20 spans and 12 more, as a batch processor cuts them.
  for (let n = 0; exporter.getFinishedSpans().length < 512; n++) {
    recordBenchTrace(tracer, n, 20);
  }
  bodies.push(ProtobufTraceSerializer.serializeRequest(exporter.getFinishedSpans().slice(0, 512)) as Uint8Array);
}

const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const dir = await mkdtemp(path.join(tmpdir(), 'seamscope-stages-'));
const assembler = new TraceAssembler({ ...DEFAULT_LIMITS, maxPendingSpans: Infinity, maxPendingBytes: Infinity });
const scrubber = createScrubber([]);
let spans = 0;
let t = cpu();
const reads = bodies.map((body) => readTraceRequest(body, 'protobuf', DEFAULT_LIMITS));
const readMs = cpu() - t;
t = cpu();
for (const read of reads) if (read.ok) spans += assembler.addSpans(read.items, 0).accepted;
const addMs = cpu() - t;
const traces = assembler.drain();
t = cpu();
for (const trace of traces) await finishTrace(trace, dir, scrubber, stepRegistry);
const finishMs = cpu() - t;
await rm(dir, { recursive: true, force: true });
const per = (ms: number) => (ms / spans).toFixed(4);
process.stdout.write(`${spans} spans, ${traces.length} traces: read ${per(readMs)} ms/span, group ${per(addMs)}, finish ${per(finishMs)} (import, write, inspect: the writer threads); total ${per(readMs + addMs + finishMs)} ms/span\n`);
