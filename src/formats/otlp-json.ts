import { isRecord } from '../files/json-value.ts';
import { importOtlpTrace } from '../trace/otlp/index.ts';
import type { TraceFileFormat } from './format.ts';

/** An OTLP/JSON trace (a top-level `resourceSpans` list), read span by span by `src/trace/otlp`. */
export const otlpJsonFormat: TraceFileFormat = {
  kind: 'trace', id: 'otlp-json', title: 'OTLP/JSON trace', extensions: ['.json'],
  sniff: (file) => file.text.includes('"resourceSpans"') && isRecord(file.json()) && 'resourceSpans' in (file.json() as object),
  toRun: (text, registry) => ({ ...importOtlpTrace(text, registry), format: 'otlp-json' }),
};
