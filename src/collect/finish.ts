import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { inspectRun } from '../inspect/boundary.ts';
import { boundaryVerdict } from '../inspect/verdict.ts';
import type { Scrubber } from '../providers/scrub.ts';
import type { StepRegistry } from '../steps/index.ts';
import type { RunMeta, TraceEvent } from '../trace/index.ts';
import { importCheckedOtlpTrace, type ImportOtlpResult, type RunNaming } from '../trace/otlp/index.ts';
import type { OtlpEvent, OtlpKeyValue, OtlpTraceData } from '../trace/otlp/otlp-json.ts';
import { toRunFile } from '../trace/run-file.ts';
import type { PendingTrace } from './assembler.ts';
import { joinEarlierLogs, type EarlierSpanLogs } from './late-logs.ts';
import type { IncomingLog } from './payload.ts';

/**
 * A finished trace → a run file, through the same importer as an OTLP/JSON file: the spans are
 * put back into one OTLP/JSON payload (resource and scope kept), each log record joined to its
 * span as a span event, every attribute scrubbed of keys, then imported and written.
 */
export type FinishedTrace =
  | { ok: true; traceId: string; spans: number; logs: number; path: string; run: RunMeta; warnings: string[]; inspection: TraceInspection }
  | { ok: false; traceId: string; spans: number; logs: number; message: string };

/** One boundary of a written run as `inspect` judges it: what the collector's line for the trace says of it. */
export interface BoundaryLine {
  producer: string;
  consumer: string;
  lossy: boolean;
  /** inspect's words for it (boundaryVerdict). */
  verdict: string;
}

/**
 * The written run's boundaries, inspected where it was written (the writer thread) so only
 * these few words, not the run's events, go back to the thread that prints them.
 */
export type TraceInspection = { ok: true; boundaries: BoundaryLine[] } | { ok: false; message: string };

/** Each boundary's verdict, as `seamscope inspect` gives it; a run the inspector cannot read says why instead. */
export function inspectWritten(run: RunMeta, events: readonly TraceEvent[]): TraceInspection {
  try {
    const report = inspectRun(run, events);
    return { ok: true, boundaries: report.boundaries.map((b) => ({ producer: b.producer, consumer: b.consumer, lossy: b.lossy, verdict: boundaryVerdict(b) })) };
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
}

/**
 * A log record as a span event. instrumentation-openai (0.22) sends message content this way:
 * the event name in `event.name` (or the record's event_name), the message in the body as a
 * key-value list. The body's keys become the event's attributes, which is where the GenAI event
 * reader looks for `content`, `message` and `tool_calls`.
 */
export function logAsSpanEvent(log: IncomingLog): OtlpEvent {
  const attributes: OtlpKeyValue[] = log.attributes.filter((kv) => kv.key !== 'event.name');
  const body = log.body;
  if (body?.kvlistValue) attributes.push(...(body.kvlistValue.values ?? []));
  else if (body !== undefined) attributes.push({ key: 'body', value: body });
  return { timeUnixNano: log.timeUnixNano, name: log.eventName, attributes };
}

/**
 * The trace as one OTLP/JSON payload, log records joined to their spans; `unjoined` holds the
 * records whose span is not among these spans (for a late part, it may be in an earlier one).
 */
export function traceToOtlp(trace: PendingTrace): { data: OtlpTraceData; joinedLogs: number; unjoined: Map<string, IncomingLog[]> } {
  type ResourceSpans = OtlpTraceData['resourceSpans'][number];
  const resources = new Map<unknown, { entry: ResourceSpans; scopes: Map<unknown, ResourceSpans['scopeSpans'][number]> }>();
  const data: OtlpTraceData = { resourceSpans: [] };
  let joinedLogs = 0;
  for (const item of trace.spans) {
    let resource = resources.get(item.resource);
    if (!resource) {
      resource = { entry: { ...(item.resource ? { resource: item.resource } : {}), scopeSpans: [] }, scopes: new Map() };
      resources.set(item.resource, resource);
      data.resourceSpans.push(resource.entry);
    }
    let scope = resource.scopes.get(item.scope);
    if (!scope) {
      scope = { ...(item.scope ? { scope: item.scope } : {}), spans: [] };
      resource.scopes.set(item.scope, scope);
      // Under its own resource: spans of two services may arrive interleaved.
      resource.entry.scopeSpans.push(scope);
    }
    const logs = trace.logs.get(item.spanId) ?? [];
    joinedLogs += logs.length;
    scope.spans.push(logs.length ? { ...item.span, events: [...(item.span.events ?? []), ...logs.map(logAsSpanEvent)] } : item.span);
  }
  const unjoined = new Map<string, IncomingLog[]>();
  if (joinedLogs < trace.logCount) {
    const ids = new Set(trace.spans.map((s) => s.spanId));
    for (const [spanId, logs] of trace.logs) if (!ids.has(spanId)) unjoined.set(spanId, logs);
  }
  return { data, joinedLogs, unjoined };
}

/**
 * A finished trace as the writer thread receives it: its spans as one OTLP/JSON text (log
 * records joined), made on the request thread. Text, not the span objects: JSON.stringify there
 * and JSON.parse in the writer cost about half what cloning the objects into a message did,
 * and the text is what the run id is derived from anyway.
 */
export interface FinishJob {
  traceId: string;
  /** 1 for a trace's first part, 2, 3… for its late parts (assembler.ts). */
  part: number;
  spans: number;
  logs: number;
  joinedLogs: number;
  /** The trace as an OTLP/JSON payload (`{ resourceSpans }`), not yet scrubbed; empty when it holds no spans. */
  otlp: string;
  /** A late part's log records whose spans came in an earlier part (late-logs.ts), joined to them by the writer thread. */
  earlier?: EarlierSpanLogs;
}

export function toFinishJob(trace: PendingTrace): FinishJob {
  const base = { traceId: trace.traceId, part: trace.part, spans: trace.spans.length, logs: trace.logCount };
  const { data, joinedLogs, unjoined } = traceToOtlp(trace);
  // A first part's records with no span stay unjoined (said in a warning): no earlier part holds their spans.
  const earlier: EarlierSpanLogs | undefined = trace.part > 1 && unjoined.size > 0 ? [...unjoined].map(([id, logs]) => [id, logs.map(logAsSpanEvent)]) : undefined;
  return { ...base, joinedLogs, otlp: trace.spans.length === 0 ? '' : JSON.stringify(data), ...(earlier ? { earlier } : {}) };
}

/** A finished trace imported, and how many of its log records found their span. */
export type ImportedJob = ImportOtlpResult & { joinedLogs: number };

/**
 * Imports a finished trace (scrubbed first). `parts`: the OTLP/JSON texts of the trace's parts
 * already written (late-logs.ts), where a late part's log records find their spans. Not ok when
 * no span is there to import (the records never met their spans).
 */
export function importFinished(job: FinishJob, scrubber: Scrubber, registry: StepRegistry, naming?: RunNaming, parts: readonly string[] = []): ImportedJob {
  if (job.earlier?.length) {
    const { data, joined } = joinEarlierLogs(job.otlp, job.earlier, parts);
    if (data.resourceSpans.length === 0) return { ok: false, joinedLogs: 0, message: `${job.logs} log record(s) arrived after trace ${job.traceId} was written, and its spans are no longer held to join them to` };
    const scrubbed = scrubber.value(data);
    return { ...importCheckedOtlpTrace(scrubbed, JSON.stringify(scrubbed), registry, naming), joinedLogs: job.joinedLogs + joined };
  }
  if (job.spans === 0) return { ok: false, joinedLogs: 0, message: `${job.logs} log record(s) arrived but none of their spans did` };
  const data = JSON.parse(job.otlp) as OtlpTraceData;
  // Keys out before anything else sees the trace: the importer, the run file, the printed line.
  const scrubbed = scrubber.value(data);
  // Every span, resource and scope was checked as its request arrived (payload.ts), so the
  // importer does not read and check the payload again; the text only names the run (the
  // same text as the scrubbed payload's, without writing it again when nothing was scrubbed).
  return { ...importCheckedOtlpTrace(scrubbed, scrubbed === data ? job.otlp : JSON.stringify(scrubbed), registry, naming), joinedLogs: job.joinedLogs };
}

/** Writes the run file beside the others, whole or not at all (written aside, then renamed). */
export async function writeRunFile(dir: string, run: RunMeta, events: TraceEvent[]): Promise<string> {
  const file = path.join(dir, `${run.id}.run.json`);
  const aside = `${file}.${process.pid}.partial`;
  const text = `${JSON.stringify(toRunFile(run, events), null, 2)}\n`;
  try {
    await writeFile(aside, text);
  } catch (error) {
    // The directory is made when it is missing, not before every file (hundreds a second under load).
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    await mkdir(dir, { recursive: true });
    await writeFile(aside, text);
  }
  await rename(aside, file);
  return file;
}

/**
 * How a late part of a trace (spans that came after it was written) is named: after the run its
 * first part was written as, so its file sorts beside that one and says what it is
 * (`otlp-…-late-2.run.json`, "Agent (late spans, part 2)"); after the trace id when the first
 * part was not written or is no longer remembered.
 */
export function lateNaming(trace: Pick<FinishJob, 'part' | 'traceId'>, first: { id: string; name: string } | undefined): RunNaming | undefined {
  if (trace.part < 2) return undefined;
  return {
    runId: `${first?.id ?? `otlp-trace-${trace.traceId}`}-late-${trace.part}`,
    name: `${first?.name ?? `Trace ${trace.traceId}`} (late spans, part ${trace.part})`,
  };
}

/** Import, then write: one finished trace's whole outcome. Never throws for a trace's content. `parts` as importFinished takes them. */
export async function finishJob(job: FinishJob, dir: string, scrubber: Scrubber, registry: StepRegistry, naming?: RunNaming, parts?: readonly string[]): Promise<FinishedTrace> {
  const base = { traceId: job.traceId, spans: job.spans, logs: job.logs };
  const result = importFinished(job, scrubber, registry, naming, parts);
  if (!result.ok) return { ok: false, ...base, message: result.message };
  const unjoined = job.logs - result.joinedLogs;
  const warnings = unjoined > 0 ? [...result.warnings, `${unjoined} log record(s) named a span that is not in the trace`] : result.warnings;
  const file = await writeRunFile(dir, result.run, result.events);
  return { ok: true, ...base, path: file, run: result.run, warnings, inspection: inspectWritten(result.run, result.events) };
}

/** finishJob in one step, for a trace finished on this thread (the stages bench). */
export function finishTrace(trace: PendingTrace, dir: string, scrubber: Scrubber, registry: StepRegistry, naming?: RunNaming): Promise<FinishedTrace> {
  return finishJob(toFinishJob(trace), dir, scrubber, registry, naming);
}
