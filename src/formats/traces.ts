import type { StepRegistry } from '../steps/index.ts';
import type { RunMeta, TraceEvent } from '../trace/events.ts';
import { readTraceJson } from '../trace/otlp/guard.ts';
import { parseRunFile, RUN_FILE_FORMAT } from '../trace/run-file.ts';
import type { SniffInput } from './format.ts';
import { traceFormats } from './registry.ts';

/**
 * The trace files Seamscope reads, whichever tool wrote them: its own `.run.json`, an OTLP/JSON
 * trace, or a Langfuse trace export. Each is told apart by its top-level keys (never the file's
 * name); the span reading itself lives with the trace model (`src/trace/otlp`), which also
 * writes OTLP. Pure, never throws, stores nothing.
 */
export type TraceFormat = 'seamscope-run' | 'otlp-json' | 'langfuse-export';

export type ImportTraceResult =
  | { ok: true; format: TraceFormat; run: RunMeta; events: TraceEvent[]; warnings: string[] }
  | { ok: false; format: TraceFormat | null; message: string };

const RUN_FILE_START = /^\s*\{\s*"format"\s*:\s*"seamscope\.run"/;

export const TRACE_FORMAT_NAMES = Object.fromEntries(traceFormats.map((f) => [f.id, f.title])) as Record<TraceFormat, string>;

/** The trace format of a parsed file, from its top-level keys; null when it is none Seamscope reads. */
export function traceFormatOf(value: unknown): TraceFormat | null {
  const file: SniffInput = { name: undefined, text: JSON.stringify(value) ?? '', json: () => value };
  return traceFormats.find((f) => f.sniff(file))?.id ?? null;
}

/**
 * Any trace file as a run, the format detected from its content and returned so the CLI and the
 * app can say what they read.
 *
 * @example
 * const result = importTraceText(await file.text(), stepRegistry);
 * if (result.ok) console.log(`read a ${TRACE_FORMAT_NAMES[result.format]}`);
 */
export function importTraceText(text: string, registry: StepRegistry): ImportTraceResult {
  // Read once with the trace limits to detect the format; each reader then checks its own shape.
  const read = readTraceJson(text);
  if (!read.ok) {
    // A damaged run file still says what it is at its start (toRunFile writes `format` first):
    // its problems are then told by the run file reader, in its own words and paths ($.run.status).
    if (read.message.startsWith('the file is not valid JSON') && RUN_FILE_START.test(text.slice(0, 2000))) {
      const parsed = parseRunFile(text);
      if (!parsed.ok) return { ok: false, format: 'seamscope-run', message: parsed.message };
    }
    return { ok: false, format: null, message: read.message };
  }
  const file: SniffInput = { name: undefined, text, json: () => read.value };
  const format = traceFormats.find((f) => f.sniff(file));
  if (!format) {
    return { ok: false, format: null, message: `this is not a trace Seamscope reads: expected a Seamscope run file ("format": "${RUN_FILE_FORMAT}"), an OTLP/JSON trace (a top-level "resourceSpans" list; export as OTLP JSON, not protobuf) or a Langfuse trace export ("trace" and "observations")` };
  }
  return format.toRun(text, registry);
}
