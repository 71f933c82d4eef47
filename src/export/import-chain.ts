import { MAX_CHAIN_BYTES, parseChain, type ChainLimits, type ParseChainResult } from '../chain/parse.ts';
import { parseStrictJson } from '../files/strict-json.ts';
import { chainFromFlowise, isFlowiseFlow } from './import-flowise.ts';
import { chainFromLangflow, isLangflowFlow } from './import-langflow.ts';
import { stepRegistry, type StepRegistry } from '../steps/index.ts';

/**
 * Reads a chain back out of an exported program. The program embeds the chain as JSON text in
 * one fixed place — in TypeScript the object literal `CHAIN`, in Python the raw string
 * `CHAIN_JSON` — between two marker comment lines, so the chain is parsed as data, never by
 * running the file.
 *
 * One file is one chain. A chain file (`*.chain.json`, or any text that starts with `{`) is
 * parsed as JSON and never searched for markers: a chain whose strings hold marker text is just
 * a chain with those strings. In a program the markers count only as whole comment lines at
 * the start of a line, followed by the exact declaration the emitter writes; the JSON itself
 * can never produce such a line (it is indented, and its strings hold no raw line breaks).
 */
export const CHAIN_BEGIN = '<seamscope:chain>';
export const CHAIN_END = '</seamscope:chain>';

interface EmbeddingSyntax {
  comment: string;
  /** The line after the begin marker, and the first JSON line's prefix on it (TS) or not (Python). */
  declaration: string;
  /** The line that closes the JSON; the end marker follows it. */
  close: string;
  /** Whether the declaration line itself carries the opening `{`. */
  openOnDeclaration: boolean;
}

const syntaxes: Record<'ts' | 'py', EmbeddingSyntax> = {
  ts: { comment: '//', declaration: 'export const CHAIN: rt.ChainDefinition = ', close: '};', openOnDeclaration: true },
  py: { comment: '#', declaration: 'CHAIN_JSON = r"""', close: '"""', openOnDeclaration: false },
};

const isMarker = (line: string, comment: string, marker: string) => line === `${comment} ${marker}` || line.startsWith(`${comment} ${marker} `);

type Embedded = { ok: true; json: string } | { ok: false; message: string };

/** The JSON between the markers of one syntax, or why the file has no complete block. */
function readEmbedded(lines: readonly string[], syntax: EmbeddingSyntax): Embedded | null {
  const begins = lines.flatMap((line, i) => (isMarker(line, syntax.comment, CHAIN_BEGIN) ? [i] : []));
  if (begins.length === 0) return null;
  if (begins.length > 1) return { ok: false, message: `the exported program has ${begins.length} embedded chain blocks; an exported program has exactly one` };
  const begin = begins[0] as number;
  const declaration = lines[begin + 1] ?? '';
  if (!declaration.startsWith(syntax.declaration)) return { ok: false, message: `the line after the ${CHAIN_BEGIN} marker is not the embedded chain's declaration` };
  const first = syntax.openOnDeclaration ? declaration.slice(syntax.declaration.length) : null;
  if (first !== null && first !== '{') return { ok: false, message: 'the embedded chain does not start with "{" on its declaration line' };
  const close = lines.indexOf(syntax.close, begin + 2);
  if (close < 0 || !isMarker(lines[close + 1] ?? '', syntax.comment, CHAIN_END)) {
    return { ok: false, message: `the exported program has no complete embedded chain (its ${CHAIN_BEGIN} block was cut)` };
  }
  const body = lines.slice(begin + 2, close);
  return { ok: true, json: first === null ? body.join('\n') : [first, ...body, '}'].join('\n') };
}

/** Which kind of file `text` is: by its name when known, else a chain file when it starts with `{`. */
function fileKind(text: string, fileName?: string): 'chain' | 'ts' | 'py' | 'program' {
  if (fileName !== undefined) {
    if (/\.(c|m)?tsx?$/i.test(fileName)) return 'ts';
    if (/\.pyw?$/i.test(fileName)) return 'py';
    if (/\.json$/i.test(fileName)) return 'chain';
  }
  return /^\ufeff?\s*\{/.test(text) ? 'chain' : 'program';
}

/**
 * The embedded chain's JSON text of an exported program, or a message saying why there is
 * none; null when `text` is not an exported program at all (a chain file, or anything else).
 */
export function embeddedChain(text: string, fileName?: string): Embedded | null {
  const kind = fileKind(text, fileName);
  if (kind === 'chain') return null;
  const lines = text.split(/\r?\n/);
  const langs = kind === 'program' ? (['ts', 'py'] as const) : [kind];
  for (const lang of langs) {
    const found = readEmbedded(lines, syntaxes[lang]);
    if (found) return found;
  }
  return null;
}

/** The embedded chain's JSON text, or null when `text` is not a complete exported program. */
export function embeddedChainJson(text: string, fileName?: string): string | null {
  const found = embeddedChain(text, fileName);
  return found?.ok ? found.json : null;
}

export interface ImportChainOptions {
  /** The file's name, when known: `.ts`/`.py` are programs, `.json` is a chain file. */
  fileName?: string;
  registry?: StepRegistry;
  /** Bounds on declared sizes, over the defaults. */
  limits?: Partial<ChainLimits>;
}

/**
 * Parses a chain file or an exported TypeScript/Python program into a chain, with the same
 * problems (path and message) as any chain file.
 *
 * @example
 * const result = importChainSource(await file.text(), { fileName: file.name });
 * if (result.ok) openChain(result.chain);
 */
export function importChainSource(text: string, options: ImportChainOptions = {}): ParseChainResult {
  if (fileKind(text, options.fileName) === 'chain') {
    const flow = otherToolsFlow(text);
    if (flow) {
      const converted = flow.tool === 'langflow' ? chainFromLangflow(flow.value, options.fileName) : chainFromFlowise(flow.value, options.fileName);
      return converted.ok ? parseChain(converted.chain, options.registry ?? stepRegistry, options.limits) : converted;
    }
    return parseChain(text, options.registry ?? stepRegistry, options.limits);
  }
  const embedded = embeddedChain(text, options.fileName);
  if (embedded === null) {
    return { ok: false, problems: [{ path: '$', message: `this is neither a chain file (a JSON object) nor a program exported by Seamscope (no ${CHAIN_BEGIN} block)` }] };
  }
  if (!embedded.ok) return { ok: false, problems: [{ path: '$', message: embedded.message }] };
  return parseChain(embedded.json, options.registry ?? stepRegistry, options.limits);
}

/**
 * The parsed flow when `text` is a Langflow or Flowise export (read as strictly as a chain
 * file, within the same size bound), else null: a chain file goes to parseChain untouched.
 */
function otherToolsFlow(text: string): { tool: 'langflow' | 'flowise'; value: Record<string, unknown> } | null {
  if (text.length > MAX_CHAIN_BYTES || /"format"\s*:\s*"seamscope\./.test(text.slice(0, 4096)) || !/"edges"\s*:/.test(text)) return null;
  const parsed = parseStrictJson(text);
  if (!parsed.ok) return null;
  if (isLangflowFlow(parsed.value)) return { tool: 'langflow', value: parsed.value as Record<string, unknown> };
  if (isFlowiseFlow(parsed.value)) return { tool: 'flowise', value: parsed.value as Record<string, unknown> };
  return null;
}

/** Whether a file is a program exported by Seamscope (with its embedded chain) rather than a chain file. */
export function isExportedProgram(text: string, fileName?: string): boolean {
  return embeddedChainJson(text, fileName) !== null;
}
