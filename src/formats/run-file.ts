import { isRecord } from '../files/json-value.ts';
import { parseRunFile, RUN_FILE_FORMAT } from '../trace/run-file.ts';
import type { SniffInput, TraceFileFormat } from './format.ts';

/** Seamscope's own run file (`.run.json`, what Export run writes): `"format": "seamscope.run"` at the top. */
export const runFileFormat: TraceFileFormat = {
  kind: 'trace', id: 'seamscope-run', title: 'Seamscope run file', extensions: ['.run.json'],
  sniff: (file) => /"seamscope\.run"/.test(file.text) && propertyIs(file, 'format', RUN_FILE_FORMAT),
  toRun: (text) => {
    const parsed = parseRunFile(text);
    return parsed.ok ? { ok: true, format: 'seamscope-run', run: parsed.file.run, events: parsed.file.events, warnings: [] } : { ok: false, format: 'seamscope-run', message: parsed.message };
  },
};

export function propertyIs(file: SniffInput, key: string, expected: string): boolean {
  const value = file.json();
  return isRecord(value) && value[key] === expected;
}
