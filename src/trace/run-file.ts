import { formatJsonPath, parseStrictJson } from '../files/strict-json.ts';
import { TRACE_VERSION, type RunMeta, type TraceEvent } from './events.ts';
import { restoreRun } from './restore.ts';
import { isRecord } from '../files/json-value.ts';

/**
 * A stored run as one JSON file (`*.run.json`): what `seamscope run` writes and
 * `seamscope inspect` and the app read. Versioned: an older file is migrated on read (restore.ts),
 * a newer one refused, and every event is checked against its schema.
 */
export const RUN_FILE_FORMAT = 'seamscope.run';

export interface RunFile {
  format: typeof RUN_FILE_FORMAT;
  version: number;
  run: RunMeta;
  events: TraceEvent[];
}


export function toRunFile(run: RunMeta, events: TraceEvent[]): RunFile {
  return { format: RUN_FILE_FORMAT, version: TRACE_VERSION, run, events };
}

export function parseRunFile(text: string): { ok: true; file: RunFile } | { ok: false; message: string } {
  // Strict: duplicate keys and numbers that overflow to Infinity are refused with their path.
  const read = parseStrictJson(text);
  if (!read.ok) return { ok: false, message: `the file is not valid JSON: ${formatJsonPath(read.path)}: ${read.message}` };
  const raw = read.value;
  if (!isRecord(raw)) return { ok: false, message: '$: a run file is a JSON object' };
  const record = raw;
  if (record.format !== RUN_FILE_FORMAT) return { ok: false, message: `$.format: must be "${RUN_FILE_FORMAT}" (this is not a Seamscope run file)` };
  const restored = restoreRun({ run: record.run, events: record.events }, record.version);
  if (!restored.ok) return restored;
  return { ok: true, file: toRunFile(restored.run, restored.events) };
}
