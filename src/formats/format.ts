import type { ChainProblem } from '../chain/parse.ts';
import type { StepRegistry } from '../steps/index.ts';
import type { ImportTraceResult, TraceFormat } from './traces.ts';
import type { FidelityReport } from './fidelity.ts';

/**
 * The shape of one file format Seamscope reads. A format is one file in `src/formats` plus one
 * line in the registry (`registry.ts`): the CLI, the Library's Import, drag and drop and the
 * file picker's accepted types all read the registry, and none of them names a format.
 */

/** What a sniff sees: the file's name (when known), its text, and its strict JSON value, parsed at most once for all formats. */
export interface SniffInput {
  name: string | undefined;
  text: string;
  /** The text read as strict JSON (within the chain file size bound), or undefined when it is not JSON. */
  json(): unknown;
}

export interface ChainFormatContext {
  fileName?: string;
  /**
   * The text of a file the flow names beside it (a Prompt flow's Jinja prompt), read only from the
   * flow's own folder; absent where one file is read alone (the Library).
   */
  readSibling?: (relativePath: string) => string | { error: string };
  registry: StepRegistry;
}

/**
 * What a format made of a file: a chain (an object, or JSON text, still checked by parseChain as
 * any chain file is) and the fidelity report (null for Seamscope's own files, which are read
 * whole); or the problems, each with its path. Nothing is stored either way.
 */
export type ToChainResult = { ok: true; chain: unknown; report: FidelityReport | null } | { ok: false; problems: ChainProblem[] };

/**
 * A file that holds an evaluation, not one chain (a promptfoo config): the chains to compare,
 * the dataset they run over (items and scorers in `src/eval`'s shapes, checked by the eval
 * command as any dataset file is), the judge chains its `judge` scorers name (by chain id; not
 * compared as variants) and the fidelity report.
 */
export type ToSuiteResult =
  | { ok: true; chains: unknown[]; dataset: { name?: string; scorers: unknown[]; items: unknown[] }; judges?: unknown[]; report: FidelityReport }
  | { ok: false; problems: ChainProblem[] };

/** One chain format as its file defines it: `toChain` reads exactly the value its own `sniff` returned. */
export interface ChainFormatDefinition<V> {
  /** Stable id ("langflow"), for tests and meta. */
  id: string;
  /** The tool's name as people know it ("Langflow"). */
  title: string;
  /** File name endings the file picker offers (".json"). */
  extensions: readonly string[];
  /** The value toChain reads when the file is this format, else null. Cheap checks first; never throws. */
  sniff(file: SniffInput): { value: V } | null;
  toChain(value: V, ctx: ChainFormatContext): ToChainResult;
  /** For a file that holds an evaluation: every chain in it and its dataset (`seamscope eval FILE`). */
  toSuite?(value: V, ctx: ChainFormatContext): ToSuiteResult;
}

/** A chain format in the registry (its value's type erased: each reads only what it sniffed). */
export interface ChainFormat extends ChainFormatDefinition<unknown> {
  kind: 'chain';
}

export interface TraceFileFormat {
  kind: 'trace';
  id: TraceFormat;
  title: string;
  extensions: readonly string[];
  /** Whether the file is this trace format (from its top-level keys, never its name). */
  sniff(file: SniffInput): boolean;
  toRun(text: string, registry: StepRegistry): ImportTraceResult;
}

export type FileFormat = ChainFormat | TraceFileFormat;

/** A chain format for the registry; the value toChain gets is the one its sniff returned. */
export function defineChainFormat<V>(definition: ChainFormatDefinition<V>): ChainFormat {
  const { toSuite } = definition;
  return {
    kind: 'chain', ...definition, toChain: (value, ctx) => definition.toChain(value as V, ctx),
    ...(toSuite ? { toSuite: (value: unknown, ctx: ChainFormatContext) => toSuite(value as V, ctx) } : {}),
  };
}
