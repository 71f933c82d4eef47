import { acceptItem, MAX_DATASET_LINES, MAX_LINE_CHARS, type DatasetItem, type DatasetResult } from './dataset.ts';

/**
 * A dataset from a CSV file (a spreadsheet export): the header row names the columns, and each
 * column maps to a field of a dataset item. By default the header says where it goes: `id`;
 * `inputs.<name>` or any other name → that input; `facts` / `expected.facts`, `route`, `abstain`,
 * `output`, `sections` / `labels.sections`, `chunks`. A mapping (`Question=inputs.question`)
 * overrides a column, and `-` drops it. List cells (facts, sections, chunks) hold one value per
 * line or values separated by ` | `. Rows are checked exactly as JSONL lines are, and the first
 * bad row refuses the file with its line number; nothing half-read is stored.
 *
 * The parser is RFC 4180 (quoted fields, doubled quotes, newlines inside quotes, CRLF), fed chunk
 * by chunk so a 100,000-row file is never held whole. A library (Papa Parse, csv-parse) would do
 * the splitting, but neither takes the async chunk stream both the CLI and the tab already hand
 * the JSONL reader, with the same row and size limits, without a stream shim in the bundle.
 */
export interface CsvRecord {
  /** The 1-based line the record starts on. */
  line: number;
  fields: string[];
}

/** Splits streamed CSV text into records; a field or record over the size limit ends the stream with it (the reader refuses it). */
export async function* csvRecords(chunks: AsyncIterable<string>): AsyncGenerator<CsvRecord> {
  let field = '';
  let fields: string[] = [];
  let quoted = false;
  let afterQuote = false;
  let line = 1;
  let start = 1;
  let size = 0;
  let pendingCr = false;
  const end = () => {
    fields.push(field);
    const record = { line: start, fields };
    field = '';
    fields = [];
    size = 0;
    return record;
  };
  for await (const chunk of chunks) {
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i] as string;
      if (pendingCr) {
        pendingCr = false;
        if (c === '\n') continue;
      }
      if (quoted) {
        if (c === '"') {
          quoted = false;
          afterQuote = true;
        } else {
          if (c === '\n') line++;
          field += c;
        }
      } else if (c === '"') {
        // A quote opens a field at its start; a doubled quote inside a quoted field is one quote.
        if (afterQuote) field += '"';
        quoted = true;
        afterQuote = false;
      } else if (c === ',') {
        fields.push(field);
        field = '';
        afterQuote = false;
      } else if (c === '\n' || c === '\r') {
        afterQuote = false;
        if (c === '\r') pendingCr = true;
        yield end();
        line++;
        start = line;
      } else {
        afterQuote = false;
        field += c;
      }
      if (++size > MAX_LINE_CHARS) {
        yield { line: start, fields: [...fields, field] };
        return;
      }
    }
  }
  if (quoted) throw new CsvError(start, 'a quoted field is never closed');
  if (field !== '' || fields.length > 0) yield end();
}

export class CsvError extends Error {
  constructor(readonly line: number, message: string) {
    super(message);
  }
}

export type CsvTarget =
  | { to: 'id' } | { to: 'input'; name: string } | { to: 'facts' } | { to: 'route' } | { to: 'abstain' } | { to: 'output' }
  | { to: 'sections' } | { to: 'chunks' } | { to: 'skip' };

/** Where a column goes: the mapping's word for it, else what its header says. */
export function csvTarget(header: string, mapping: Readonly<Record<string, string>> = {}): CsvTarget | string {
  const name = header.trim();
  const target = (Object.hasOwn(mapping, name) ? mapping[name] : name) ?? name;
  const key = target.trim();
  if (key === '-') return { to: 'skip' };
  const lower = key.toLowerCase();
  const plain = lower.replace(/^(expected|labels)\./, '');
  if (lower === 'id') return { to: 'id' };
  if (['facts', 'route', 'abstain', 'output'].includes(plain) && !lower.startsWith('labels.')) return { to: plain as 'facts' | 'route' | 'abstain' | 'output' };
  if (['sections', 'chunks'].includes(plain) && !lower.startsWith('expected.')) return { to: plain as 'sections' | 'chunks' };
  const input = key.startsWith('inputs.') ? key.slice('inputs.'.length) : key;
  if (!input || input.includes('.')) return `column "${name}": "${key}" is not a field of a dataset item (id, inputs.<name>, facts, route, abstain, output, sections, chunks, or - to skip)`;
  return { to: 'input', name: input };
}

const list = (cell: string) => cell.split(/\r?\n| \| /).map((v) => v.trim()).filter(Boolean);

function abstainOf(cell: string): boolean | string {
  const v = cell.trim().toLowerCase();
  if (['true', 'yes', 'y', '1'].includes(v)) return true;
  if (['false', 'no', 'n', '0'].includes(v)) return false;
  return `abstain must be true or false (yes/no, 1/0), not "${cell.trim()}"`;
}

/** An output cell: JSON when it is a JSON object, array, number, boolean or null; else the text. */
function outputOf(cell: string): unknown {
  const t = cell.trim();
  if (/^[[{]|^-?\d|^(true|false|null)$/.test(t)) {
    try {
      return JSON.parse(t) as unknown;
    } catch {
      return cell;
    }
  }
  return cell;
}

/**
 * @example
 * const read = await readCsvDataset(fileChunks, { Question: 'inputs.question', Answer: 'facts' });
 * if (!read.ok) console.error(`line ${read.line}: ${read.message}`);
 */
export async function readCsvDataset(chunks: AsyncIterable<string>, mapping: Readonly<Record<string, string>> = {}, name?: string): Promise<DatasetResult> {
  const items: DatasetItem[] = [];
  const ids = new Set<string>();
  let targets: CsvTarget[] | null = null;
  let rows = 0;
  let last = 0;
  try {
    for await (const record of csvRecords(chunks)) {
      last = record.line;
      if (++rows > MAX_DATASET_LINES) return { ok: false, line: record.line, message: `a dataset holds at most ${MAX_DATASET_LINES.toLocaleString('en-US')} rows` };
      if (record.fields.reduce((n, f) => n + f.length, 0) > MAX_LINE_CHARS) return { ok: false, line: record.line, message: `the row is longer than ${MAX_LINE_CHARS.toLocaleString('en-US')} characters` };
      if (!targets) {
        const mapped = record.fields.map((h) => csvTarget(h.replace(/^\uFEFF/, ''), mapping));
        const bad = mapped.find((t): t is string => typeof t === 'string');
        if (bad) return { ok: false, line: record.line, message: bad };
        targets = mapped as CsvTarget[];
        if (!targets.some((t) => t.to === 'id')) return { ok: false, line: record.line, message: 'no column maps to "id"' };
        const unknownMapped = Object.keys(mapping).filter((k) => !record.fields.some((h) => h.trim() === k));
        if (unknownMapped.length) return { ok: false, line: record.line, message: `the mapping names columns the header lacks: ${unknownMapped.join(', ')}` };
        continue;
      }
      if (record.fields.length === 1 && record.fields[0]?.trim() === '') continue;
      if (record.fields.length !== targets.length) return { ok: false, line: record.line, message: `${record.fields.length} cells, but the header has ${targets.length} columns` };
      const item: { id?: string; inputs: Record<string, unknown>; expected: Record<string, unknown>; labels: Record<string, unknown> } = { inputs: {}, expected: {}, labels: {} };
      for (const [i, target] of targets.entries()) {
        const cell = record.fields[i] ?? '';
        if (target.to === 'skip' || (cell.trim() === '' && target.to !== 'input')) continue;
        if (target.to === 'id') item.id = cell.trim();
        else if (target.to === 'input') item.inputs[target.name] = cell;
        else if (target.to === 'facts') item.expected.facts = list(cell);
        else if (target.to === 'route') item.expected.route = cell.trim();
        else if (target.to === 'output') item.expected.output = outputOf(cell);
        else if (target.to === 'abstain') {
          const v = abstainOf(cell);
          if (typeof v === 'string') return { ok: false, line: record.line, message: v };
          item.expected.abstain = v;
        } else item.labels[target.to] = list(cell);
      }
      const { labels, ...rest } = item;
      const problem = acceptItem(Object.keys(labels).length ? item : rest, items, ids);
      if (problem) return { ok: false, line: record.line, message: problem };
    }
  } catch (error) {
    if (error instanceof CsvError) return { ok: false, line: error.line, message: error.message };
    throw error;
  }
  if (items.length === 0) return { ok: false, line: last, message: 'the dataset has no items' };
  return { ok: true, dataset: { ...(name ? { name } : {}), items } };
}
