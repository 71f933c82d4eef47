import { z } from 'zod';
import { formatJsonPath, parseStrictJson } from '../files/strict-json.ts';
import { TRACE_VERSION, type RunMeta, type TraceEvent } from './events.ts';

/**
 * A stored run as one JSON file (`*.run.json`): what `seamscope run` writes and
 * `seamscope inspect` and the app read. Versioned; unknown versions are refused.
 */
export const RUN_FILE_FORMAT = 'seamscope.run';

export interface RunFile {
  format: typeof RUN_FILE_FORMAT;
  version: number;
  run: RunMeta;
  events: TraceEvent[];
}

const runFileSchema = z.object({
  format: z.literal(RUN_FILE_FORMAT),
  version: z.literal(TRACE_VERSION),
  run: z.object({ id: z.string(), chainId: z.string(), status: z.string(), chain: z.unknown(), inputs: z.record(z.string(), z.unknown()) }).loose(),
  events: z.array(z.object({ type: z.string(), at: z.number() }).loose()),
});

export function toRunFile(run: RunMeta, events: TraceEvent[]): RunFile {
  return { format: RUN_FILE_FORMAT, version: TRACE_VERSION, run, events };
}

export function parseRunFile(text: string): { ok: true; file: RunFile } | { ok: false; message: string } {
  // Strict: duplicate keys and numbers that overflow to Infinity are refused with their path.
  const read = parseStrictJson(text);
  if (!read.ok) return { ok: false, message: `the file is not valid JSON: ${formatJsonPath(read.path)}: ${read.message}` };
  const raw = read.value;
  const parsed = runFileSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, message: parsed.error.issues.map((i) => `$.${i.path.join('.')}: ${i.message}`).join('; ') };
  return { ok: true, file: parsed.data as unknown as RunFile };
}
