import { open } from 'node:fs/promises';
import { stepRegistry } from '../steps/index.ts';
import type { RunMeta, TraceEvent } from '../trace/index.ts';
import { MAX_TRACE_BYTES } from '../trace/otlp/index.ts';
import { importTraceText, TRACE_FORMAT_NAMES, type TraceFormat } from '../formats/index.ts';
import type { Io } from './load-chain.ts';
import { terminalLine } from './terminal-text.ts';

/**
 * A trace file as a run, whichever tool wrote it: a Seamscope `.run.json`, an OTLP/JSON trace
 * or a Langfuse trace export (detected from its content, never its name). The file is data:
 * nothing in it is run, it names no other file to read, and its size is checked on the open
 * handle before a byte is read. Problems go to `io.err` as one line naming the file.
 */
export interface LoadedTrace {
  format: TraceFormat;
  formatName: string;
  run: RunMeta;
  events: TraceEvent[];
  warnings: string[];
}

const article = (word: string) => (/^[aeiou]/i.test(word) ? 'an' : 'a');

/** "a Seamscope run file", "an OTLP/JSON trace", "a Langfuse trace export". */
export const formatPhrase = (format: TraceFormat) => `${article(TRACE_FORMAT_NAMES[format])} ${TRACE_FORMAT_NAMES[format]}`;

/** The file's text, or why it cannot be read: missing, not a file, or over the trace size limit. */
async function readBounded(path: string): Promise<{ ok: true; text: string } | { ok: false; why: string }> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    return { ok: false, why: (error as NodeJS.ErrnoException).code ?? (error as Error).message };
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) return { ok: false, why: 'not a regular file' };
    if (info.size > MAX_TRACE_BYTES) return { ok: false, why: `the file is ${(info.size / 1048576).toFixed(1)} MB; trace files are limited to ${MAX_TRACE_BYTES / 1048576} MB` };
    return { ok: true, text: await handle.readFile('utf8') };
  } catch (error) {
    return { ok: false, why: (error as NodeJS.ErrnoException).code ?? (error as Error).message };
  } finally {
    await handle.close();
  }
}

export async function loadTrace(path: string, io: Io): Promise<LoadedTrace | null> {
  const read = await readBounded(path);
  if (!read.ok) {
    io.err(`Cannot read ${terminalLine(path)}: ${terminalLine(read.why)}`);
    return null;
  }
  const text = read.text;
  const result = importTraceText(text, stepRegistry);
  if (!result.ok) {
    io.err(result.format === null
      ? `${terminalLine(path)}: not a Seamscope run file, an OTLP/JSON trace or a Langfuse trace export (${terminalLine(result.message)})`
      : `${terminalLine(path)}: read as ${formatPhrase(result.format)}, but it cannot be imported: ${terminalLine(result.message)}`);
    return null;
  }
  return { format: result.format, formatName: TRACE_FORMAT_NAMES[result.format], run: result.run, events: result.events, warnings: result.warnings };
}
