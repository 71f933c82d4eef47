import { setOwn } from '../chain/own.ts';
import { isRecord } from '../files/json-value.ts';
import { parseStrictJson } from '../files/strict-json.ts';
import type { ChainFormatContext, ToSuiteResult } from './format.ts';
import { promptflowToChain } from './promptflow.ts';

/**
 * A Prompt flow's `data.jsonl` (the lines `pf run --data` runs the flow over) as a dataset beside
 * its chain: each line an item whose inputs are the columns named like the flow's inputs (Prompt
 * flow's default column mapping, `${data.<input>}`), an input the line lacks taking the flow's
 * default. Other columns (ground truth an evaluation flow compares with) are reported as not
 * carried over: no scorer here reads them. Only `data.jsonl` in the flow's own folder is read.
 */
export const DATA_FILE = 'data.jsonl';
const MAX_LINES = 100_000;

export function promptflowToSuite(flow: unknown, ctx: ChainFormatContext): ToSuiteResult {
  const built = promptflowToChain(flow, ctx);
  if (!built.ok) return built;
  const report = built.report ?? { tool: 'Prompt flow', kept: [], changed: [], dropped: [] };
  const read = ctx.readSibling ? ctx.readSibling(DATA_FILE) : { error: 'this import was given the flow file alone' };
  if (typeof read !== 'string') return { ok: false, problems: [{ path: DATA_FILE, message: `the flow has no ${DATA_FILE} beside it to run over (${read.error}): give eval a --dataset` }] };
  const chain = built.chain as { name: string; inputs: { name: string; example?: unknown }[] };
  const flowInputs = Object.entries(isRecord(flow) && isRecord(flow.inputs) ? flow.inputs : {});
  const items: { id: string; inputs: Record<string, unknown>; expected: Record<string, never> }[] = [];
  const extra = new Set<string>();
  const lines = read.split(/\r?\n/);
  if (lines.length > MAX_LINES) return { ok: false, problems: [{ path: DATA_FILE, message: `it has more than ${MAX_LINES} lines` }] };
  for (const [i, line] of lines.entries()) {
    if (line.trim() === '') continue;
    const value = parseStrictJson(line);
    if (!value.ok || !isRecord(value.value)) return { ok: false, problems: [{ path: `${DATA_FILE}:${i + 1}`, message: value.ok ? 'a line is one JSON object' : `not JSON: ${value.message}` }] };
    const row = value.value;
    const inputs: Record<string, unknown> = {};
    for (const [k, [name]] of flowInputs.entries()) {
      const input = chain.inputs[k];
      if (!input) continue;
      if (Object.hasOwn(row, name)) setOwn(inputs, input.name, row[name]);
      else if (input.example !== undefined) setOwn(inputs, input.name, input.example);
    }
    for (const column of Object.keys(row)) if (!flowInputs.some(([name]) => name === column)) extra.add(column);
    items.push({ id: `line-${i + 1}`, inputs, expected: {} });
  }
  report.kept.push({ where: DATA_FILE, what: `${items.length} lines as dataset items (the columns named like the flow's inputs)` });
  if (extra.size) report.dropped.push({ where: DATA_FILE, what: `the columns ${[...extra].slice(0, 10).join(', ')}`, why: 'they are no flow input; Prompt flow compares them in a separate evaluation flow, which is not read, so no scorer reads them' });
  return { ok: true, chains: [built.chain], dataset: { name: `${chain.name} data`, scorers: [], items }, report };
}
