import { isRecord } from '../../files/json-value.ts';
import type { StepRegistry } from '../../steps/index.ts';
import type { RunMeta, TraceEvent } from '../events.ts';
import { parseRunFile, RUN_FILE_FORMAT } from '../run-file.ts';
import { readTraceJson } from './guard.ts';
import { importOtlpTrace } from './import.ts';
import { importLangfuseExport } from './langfuse.ts';
import { looksLikeLangfuse } from './langfuse-read.ts';

/**
 * One entry for every trace file Seamscope reads, whichever tool wrote it: its own `.run.json`,
 * an OTLP/JSON trace, or a Langfuse trace export. The format is detected from the top-level
 * keys (never from the file name) and returned, so the CLI and the app can say what they read.
 * Pure, never throws, stores nothing.
 *
 * @example
 * const result = importTraceText(await file.text(), stepRegistry);
 * if (result.ok) console.log(`read a ${TRACE_FORMAT_NAMES[result.format]}`);
 */
export type TraceFormat = 'seamscope-run' | 'otlp-json' | 'langfuse-export';

export const TRACE_FORMAT_NAMES: Record<TraceFormat, string> = {
  'seamscope-run': 'Seamscope run file',
  'otlp-json': 'OTLP/JSON trace',
  'langfuse-export': 'Langfuse trace export',
};

export type ImportTraceResult =
  | { ok: true; format: TraceFormat; run: RunMeta; events: TraceEvent[]; warnings: string[] }
  | { ok: false; format: TraceFormat | null; message: string };

const RUN_FILE_START = /^\s*\{\s*"format"\s*:\s*"seamscope\.run"/;

/** The format of a parsed file, from its top-level keys; null when it is none Seamscope reads. */
export function traceFormatOf(value: unknown): TraceFormat | null {
  if (!isRecord(value)) return null;
  if (value.format === RUN_FILE_FORMAT) return 'seamscope-run';
  if ('resourceSpans' in value) return 'otlp-json';
  if (looksLikeLangfuse(value)) return 'langfuse-export';
  return null;
}

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
  const format = traceFormatOf(read.value);
  if (format === null) {
    return { ok: false, format, message: `this is not a trace Seamscope reads: expected a Seamscope run file ("format": "${RUN_FILE_FORMAT}"), an OTLP/JSON trace (a top-level "resourceSpans" list; export as OTLP JSON, not protobuf) or a Langfuse trace export ("trace" and "observations")` };
  }
  if (format === 'seamscope-run') {
    const parsed = parseRunFile(text);
    return parsed.ok ? { ok: true, format, run: parsed.file.run, events: parsed.file.events, warnings: [] } : { ok: false, format, message: parsed.message };
  }
  const result = format === 'otlp-json' ? importOtlpTrace(text, registry) : importLangfuseExport(text, registry);
  return result.ok ? { ...result, format } : { ...result, format };
}
