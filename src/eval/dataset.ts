import * as z from 'zod';
import { formatJsonPath, parseStrictJson } from '../files/strict-json.ts';
import { firstIssue } from '../files/zod-issue.ts';
import { scorerSpecSchema, type ScorerSpec } from './scorer-spec.ts';

/**
 * An evaluation dataset, `*.dataset.jsonl`: one JSON object per line,
 * `{"id", "inputs", "expected", "labels"}`. An optional first line
 * `{"format": "seamscope.dataset", "version": 1, "scorers": [...]}` declares the scorers; without
 * one, the `expected` keys present choose them. Files are untrusted: read line by line as they
 * stream in (never whole), every line checked, and the first bad line refuses the whole file
 * with its line number, so nothing half-read is ever stored.
 */
export const DATASET_FORMAT = 'seamscope.dataset';
export const MAX_DATASET_LINES = 100_000;
/** One item is a question and its document, not a corpus: a longer line is refused with its number. */
export const MAX_LINE_CHARS = 2_000_000;

const text = z.string().max(100_000);
export const expectedSchema = z.object({
  /** Strings that must appear in the final output, compared as fact survival normalises them. */
  facts: z.array(text).max(1_000).optional(),
  /** A value or object for `exact`, `contains`, `number` and `json-field`. */
  output: z.unknown().optional(),
  /** The terminal or branch step the run should end in. */
  route: z.string().max(500).optional(),
  /** True when the right behaviour is to abstain or escalate. */
  abstain: z.boolean().optional(),
}).strict();

export const labelsSchema = z.object({
  /** Gold section ids (of the document the chain reads). */
  sections: z.array(z.string().max(500)).max(1_000).optional(),
  /** Gold chunk ids, for retrieval recall@k. */
  chunks: z.array(z.string().max(500)).max(1_000).optional(),
  /** Facts that must survive a named boundary: boundary id or producer step id → facts. */
  boundaries: z.record(z.string().max(500), z.array(text).max(1_000)).optional(),
}).strict();

export const datasetItemSchema = z.object({
  id: z.string().min(1).max(200),
  inputs: z.record(z.string(), z.unknown()),
  expected: expectedSchema.default({}),
  labels: labelsSchema.optional(),
}).strict();

export type DatasetItem = z.infer<typeof datasetItemSchema>;
export type Expected = z.infer<typeof expectedSchema>;

const headerSchema = z.object({
  format: z.literal(DATASET_FORMAT),
  version: z.literal(1),
  name: z.string().max(200).optional(),
  scorers: z.array(scorerSpecSchema).max(50).optional(),
}).strict();

export interface Dataset {
  name?: string;
  scorers?: ScorerSpec[];
  items: DatasetItem[];
}

export type DatasetResult = { ok: true; dataset: Dataset } | { ok: false; line: number; message: string };


/** Checks one item and adds it, or says what is wrong with it (every reader of a dataset format goes through this). */
export function acceptItem(value: unknown, items: DatasetItem[], ids: Set<string>): string | null {
  const parsed = datasetItemSchema.safeParse(value);
  if (!parsed.success) return firstIssue(parsed.error);
  if (ids.has(parsed.data.id)) return `$.id: "${parsed.data.id}" is used by an earlier line`;
  ids.add(parsed.data.id);
  items.push(parsed.data);
  return null;
}

/** Splits streamed text into lines without holding more than one line (plus one chunk) at a time. */
export async function* textLines(chunks: AsyncIterable<string>): AsyncGenerator<string> {
  let rest = '';
  for await (const chunk of chunks) {
    rest += chunk;
    let at: number;
    while ((at = rest.indexOf('\n')) >= 0) {
      yield rest.slice(0, at).replace(/\r$/, '');
      rest = rest.slice(at + 1);
    }
    // A line that never ends would otherwise grow without bound: refuse it as soon as it is too long.
    if (rest.length > MAX_LINE_CHARS) {
      yield rest;
      return;
    }
  }
  if (rest !== '') yield rest.replace(/\r$/, '');
}

/**
 * Reads a dataset from its lines (a stream in Node or the browser).
 *
 * @example
 * const read = await readDataset(textLines(fileChunks));
 * if (!read.ok) console.error(`line ${read.line}: ${read.message}`);
 */
export async function readDataset(lines: AsyncIterable<string>): Promise<DatasetResult> {
  const items: DatasetItem[] = [];
  const ids = new Set<string>();
  let header: z.infer<typeof headerSchema> | undefined;
  let n = 0;
  for await (const line of lines) {
    n++;
    if (n > MAX_DATASET_LINES) return { ok: false, line: n, message: `a dataset holds at most ${MAX_DATASET_LINES.toLocaleString('en-US')} lines` };
    if (line.length > MAX_LINE_CHARS) return { ok: false, line: n, message: `the line is longer than ${MAX_LINE_CHARS.toLocaleString('en-US')} characters` };
    if (line.trim() === '') continue;
    const read = parseStrictJson(line);
    if (!read.ok) return { ok: false, line: n, message: `not valid JSON: ${formatJsonPath(read.path)}: ${read.message}` };
    const value = read.value as Record<string, unknown> | null;
    if (value !== null && typeof value === 'object' && !Array.isArray(value) && Object.hasOwn(value, 'format')) {
      if (items.length > 0 || header) return { ok: false, line: n, message: 'the header line (with "format") must come first, once' };
      const parsed = headerSchema.safeParse(value);
      if (!parsed.success) return { ok: false, line: n, message: `header ${firstIssue(parsed.error)}` };
      header = parsed.data;
      continue;
    }
    const problem = acceptItem(value, items, ids);
    if (problem) return { ok: false, line: n, message: problem };
  }
  if (items.length === 0) return { ok: false, line: n, message: 'the dataset has no items' };
  return { ok: true, dataset: { ...(header?.name ? { name: header.name } : {}), ...(header?.scorers ? { scorers: header.scorers } : {}), items } };
}

/** A whole dataset already in memory (tests, small files). */
export function readDatasetText(text: string): Promise<DatasetResult> {
  return readDataset(textLines((async function* () { yield text; })()));
}
