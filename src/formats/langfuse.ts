import { importLangfuseExport } from '../trace/otlp/index.ts';
import { looksLikeLangfuse } from '../trace/otlp/langfuse-read.ts';
import type { TraceFileFormat } from './format.ts';

/** A Langfuse trace export (top-level `trace` and `observations`), read by `src/trace/otlp`. */
export const langfuseFormat: TraceFileFormat = {
  kind: 'trace', id: 'langfuse-export', title: 'Langfuse trace export', extensions: ['.json'],
  sniff: (file) => file.text.includes('"observations"') && looksLikeLangfuse(file.json()),
  toRun: (text, registry) => ({ ...importLangfuseExport(text, registry), format: 'langfuse-export' }),
};
