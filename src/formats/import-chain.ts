import { parseChain, type ChainLimits, type ChainProblem } from '../chain/parse.ts';
import type { Chain } from '../chain/schema.ts';
import { parseStrictJson } from '../files/strict-json.ts';
import { stepRegistry, type StepRegistry } from '../steps/index.ts';
import type { FidelityReport } from './fidelity.ts';
import type { ChainFormat, FileFormat, SniffInput } from './format.ts';
import { chainFormats, traceFormats } from './registry.ts';

export interface ImportChainOptions {
  /** The file's name, when known: `.ts`/`.py` are programs, `.json` is JSON (a chain or another tool's flow). */
  fileName?: string;
  registry?: StepRegistry;
  /** Reads a file the flow names beside it, from the flow's own folder only (the CLI's is contained). */
  readSibling?: (relativePath: string) => string | { error: string };
  /** Bounds on declared sizes, over the defaults. */
  limits?: Partial<ChainLimits>;
}

/**
 * A chain read from a file of any format the registry knows, with the fidelity report of an
 * import from another tool (absent for Seamscope's own files, which are read whole).
 */
export type ImportChainResult = { ok: true; chain: Chain; report?: FidelityReport } | { ok: false; problems: ChainProblem[] };

/** What a sniff sees of a file; its JSON is parsed at most once, however many formats ask. */
export function sniffInput(name: string | undefined, text: string): SniffInput {
  let parsed: { value: unknown } | null = null;
  return {
    name, text,
    json: () => {
      if (parsed === null) {
        const read = parseStrictJson(text);
        parsed = { value: read.ok ? read.value : undefined };
      }
      return parsed.value;
    },
  };
}

/** The format a file is in: a trace format, else the first chain format that claims it (the program format claims the rest). */
export function formatOf(text: string, fileName?: string): FileFormat {
  const file = sniffInput(fileName, text);
  return traceFormats.find((f) => f.sniff(file)) ?? sniffChain(file).format;
}

/** The first chain format that claims the file and the value it read; the last format (the program) takes what none claims. */
function sniffChain(file: SniffInput): { format: ChainFormat; value: unknown } {
  for (const format of chainFormats) {
    const sniffed = format.sniff(file);
    if (sniffed) return { format, value: sniffed.value };
  }
  const last = chainFormats[chainFormats.length - 1] as ChainFormat;
  return { format: last, value: last.sniff(file)?.value };
}

/**
 * Reads a chain from any file the registry knows: a chain file, an exported TypeScript/Python
 * program, or another tool's flow. The result is checked as any chain file is (same problems,
 * same paths); an import from another tool keeps its fidelity report in `meta.importReport`.
 *
 * @example
 * const result = importChainSource(await file.text(), { fileName: file.name });
 * if (result.ok) openChain(result.chain);
 */
export function importChainSource(text: string, options: ImportChainOptions = {}): ImportChainResult {
  const registry = options.registry ?? stepRegistry;
  const file = sniffInput(options.fileName, text);
  const { format, value } = sniffChain(file);
  const converted = format.toChain(value, { registry, ...(options.fileName !== undefined ? { fileName: options.fileName } : {}), ...(options.readSibling ? { readSibling: options.readSibling } : {}) });
  if (!converted.ok) return converted;
  const { report } = converted;
  const chain = report ? withReport(converted.chain, report) : converted.chain;
  const parsed = parseChain(chain, registry, options.limits);
  return parsed.ok && report ? { ...parsed, report } : parsed;
}

function withReport(chain: unknown, report: FidelityReport): unknown {
  if (typeof chain !== 'object' || chain === null) return chain;
  const record = chain as { meta?: Record<string, unknown> };
  return { ...record, meta: { ...record.meta, importReport: report } };
}

/** An evaluation read from a file that holds one: its chains (each checked as any chain file is), its dataset as dataset-file text, and the report. */
export type ImportSuiteResult = { ok: true; chains: Chain[]; judges: Chain[]; datasetText: string; report: FidelityReport } | { ok: false; problems: ChainProblem[] };

/**
 * The evaluation in a file whose format holds one (a promptfoo config), or null when its format
 * holds a single chain. The dataset comes back as the text of a dataset file, so the eval command
 * reads and checks it exactly as it reads one from disk.
 */
export function importSuiteSource(text: string, options: ImportChainOptions = {}): ImportSuiteResult | null {
  const registry = options.registry ?? stepRegistry;
  const { format, value } = sniffChain(sniffInput(options.fileName, text));
  if (!format.toSuite) return null;
  const suite = format.toSuite(value, { registry, ...(options.fileName !== undefined ? { fileName: options.fileName } : {}), ...(options.readSibling ? { readSibling: options.readSibling } : {}) });
  if (!suite.ok) return suite;
  const chains: Chain[] = [];
  for (const [i, raw] of suite.chains.entries()) {
    const parsed = parseChain(withReport(raw, suite.report), registry, options.limits);
    if (!parsed.ok) return { ok: false, problems: parsed.problems.map((p) => ({ ...p, message: `chain ${i + 1}: ${p.message}` })) };
    chains.push(parsed.chain);
  }
  const judges: Chain[] = [];
  for (const raw of suite.judges ?? []) {
    const parsed = parseChain(raw, registry, options.limits);
    if (!parsed.ok) return { ok: false, problems: parsed.problems.map((p) => ({ ...p, message: `judge chain: ${p.message}` })) };
    judges.push(parsed.chain);
  }
  const { dataset } = suite;
  const header = { format: 'seamscope.dataset', version: 1, ...(dataset.name ? { name: dataset.name } : {}), ...(dataset.scorers.length ? { scorers: dataset.scorers } : {}) };
  const datasetText = [header, ...dataset.items].map((line) => JSON.stringify(line)).join('\n');
  return { ok: true, chains, judges, datasetText, report: suite.report };
}

/** The file picker's accepted types: every ending a registered format offers. */
export const acceptedFileTypes: string = [...new Set([...chainFormats, ...traceFormats].flatMap((f) => f.extensions))].join(',');
