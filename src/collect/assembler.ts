import type { IncomingLog, IncomingSpan } from './payload.ts';

/**
 * Spans grouped by trace id until the trace is complete: its root span has arrived (plus a
 * short grace for log records and stragglers sent in another batch), or nothing has arrived for
 * it for the idle timeout. Holds no timers of its own: the server calls `due(now)` on a tick.
 *
 * Everything held is bounded: spans per trace (a flood with one trace id drops that trace, and
 * later spans with its id are rejected), and pending spans, bytes and traces overall, which the
 * server turns into 429 before it reads a body.
 *
 * A trace's spans that arrive after it was finished (its root ended and the grace passed, or the
 * idle timeout did) are not merged into what was written: they make a part of their own, part 2,
 * 3…, finished the grace after the last of them arrives, which the server writes as a second
 * run file beside the first. Log records that come late make a late part the same way; the
 * writer thread joins them to their spans from the parts it wrote (late-logs.ts). Finished
 * trace ids are remembered (bounded) to tell a late span or record from a new trace.
 */
export interface AssemblerLimits {
  maxSpansPerTrace: number;
  maxPendingSpans: number;
  maxPendingBytes: number;
  maxPendingTraces: number;
  /** How long after the root span a trace waits for log records and late spans. */
  rootGraceMs: number;
  /** A trace with no root is finished this long after its last span or record. */
  idleMs: number;
}

export interface PendingTrace {
  traceId: string;
  spans: IncomingSpan[];
  /** Log records by span id, in arrival order. */
  logs: Map<string, IncomingLog[]>;
  logCount: number;
  bytes: number;
  lastSeenMs: number;
  /** When the root span arrived plus the grace; null until then. */
  dueMs: number | null;
  /** 1 for a trace's spans as they first came; 2, 3… for spans that came after it was finished. */
  part: number;
}

/** What is remembered of a finished trace: how many parts it has had (the writer thread remembers the run its first part was written as). */
export interface FinishedPart {
  parts: number;
}

export interface AddResult {
  accepted: number;
  rejected: number;
  reasons: string[];
}

/** How many dropped trace ids are remembered, so a flood's later spans are refused too. */
const REMEMBERED_DROPS = 4096;
/** How many finished trace ids are remembered (a minute of traces under the bench's load): late spans come seconds after. */
const REMEMBERED_FINISHED = 16_384;

export class TraceAssembler {
  private readonly traces = new Map<string, PendingTrace>();
  private readonly dropped = new Set<string>();
  private readonly finished = new Map<string, FinishedPart>();
  private spanCount = 0;
  private byteCount = 0;

  constructor(private readonly limits: AssemblerLimits) {}

  get pendingSpans(): number {
    return this.spanCount;
  }

  get pendingBytes(): number {
    return this.byteCount;
  }

  get pendingTraces(): number {
    return this.traces.size;
  }

  private open(traceId: string, now: number): PendingTrace {
    let trace = this.traces.get(traceId);
    if (!trace) {
      const part = (this.finished.get(traceId)?.parts ?? 0) + 1;
      trace = { traceId, spans: [], logs: new Map(), logCount: 0, bytes: 0, lastSeenMs: now, dueMs: null, part };
      this.traces.set(traceId, trace);
    }
    trace.lastSeenMs = now;
    // A late part has no root to wait for: it is finished the grace after its last arrival.
    if (trace.part > 1) trace.dueMs = now + this.limits.rootGraceMs;
    return trace;
  }

  private finish(trace: PendingTrace): void {
    this.release(trace);
    const entry = this.finished.get(trace.traceId);
    if (entry) {
      entry.parts = trace.part;
      return;
    }
    this.finished.set(trace.traceId, { parts: trace.part });
    // A Map iterates in insertion order: the oldest finished trace is forgotten first.
    if (this.finished.size > REMEMBERED_FINISHED) this.finished.delete(this.finished.keys().next().value as string);
  }

  private drop(traceId: string): void {
    const trace = this.traces.get(traceId);
    if (trace) this.release(trace);
    this.dropped.add(traceId);
    // A Set iterates in insertion order: the oldest drop is forgotten first.
    if (this.dropped.size > REMEMBERED_DROPS) this.dropped.delete(this.dropped.values().next().value as string);
  }

  private release(trace: PendingTrace): void {
    this.traces.delete(trace.traceId);
    this.spanCount -= trace.spans.length;
    this.byteCount -= trace.bytes;
  }

  /** Takes a request's spans; a trace that would pass its span limit is dropped whole, with every span of it in the request. */
  addSpans(spans: readonly IncomingSpan[], now: number): AddResult {
    const byTrace = new Map<string, IncomingSpan[]>();
    for (const s of spans) {
      const group = byTrace.get(s.traceId);
      if (group) group.push(s);
      else byTrace.set(s.traceId, [s]);
    }
    const result: AddResult = { accepted: 0, rejected: 0, reasons: [] };
    for (const [traceId, group] of byTrace) {
      const held = this.traces.get(traceId)?.spans.length ?? 0;
      if (this.dropped.has(traceId) || held + group.length > this.limits.maxSpansPerTrace) {
        const first = !this.dropped.has(traceId);
        this.drop(traceId);
        result.rejected += group.length;
        if (result.reasons.length < 3) {
          result.reasons.push(first
            ? `trace ${traceId} has more than ${this.limits.maxSpansPerTrace} spans; it was dropped and nothing of it is written`
            : `trace ${traceId} was dropped earlier for having more than ${this.limits.maxSpansPerTrace} spans`);
        }
        continue;
      }
      const trace = this.open(traceId, now);
      for (const s of group) {
        trace.spans.push(s);
        trace.bytes += s.bytes;
        this.byteCount += s.bytes;
        if (s.isRoot && trace.dueMs === null) trace.dueMs = now + this.limits.rootGraceMs;
      }
      this.spanCount += group.length;
      result.accepted += group.length;
    }
    return result;
  }

  /** Takes a request's log records, kept with their trace to be joined to their spans when it finishes. */
  addLogs(logs: readonly IncomingLog[], now: number): AddResult {
    const result: AddResult = { accepted: 0, rejected: 0, reasons: [] };
    for (const log of logs) {
      if (this.dropped.has(log.traceId)) {
        result.rejected++;
        if (result.reasons.length < 3) result.reasons.push(`trace ${log.traceId} was dropped for having too many spans`);
        continue;
      }
      const trace = this.open(log.traceId, now);
      const list = trace.logs.get(log.spanId);
      if (list) list.push(log);
      else trace.logs.set(log.spanId, [log]);
      trace.logCount++;
      trace.bytes += log.bytes;
      this.byteCount += log.bytes;
      result.accepted++;
    }
    return result;
  }

  /**
   * The traces that are finished at `now`, removed from the pending set. A trace that holds only
   * log records (their spans never came) is finished too, and has nothing to import.
   */
  due(now: number): PendingTrace[] {
    const out: PendingTrace[] = [];
    for (const trace of this.traces.values()) {
      if ((trace.dueMs !== null && trace.dueMs <= now) || now - trace.lastSeenMs >= this.limits.idleMs) out.push(trace);
    }
    for (const trace of out) this.finish(trace);
    return out;
  }

  /** Every pending trace, finished now (the collector is stopping, or flushing). */
  drain(): PendingTrace[] {
    const out = [...this.traces.values()];
    for (const trace of out) this.finish(trace);
    return out;
  }
}
