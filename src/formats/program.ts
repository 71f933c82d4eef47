import { defineChainFormat } from './format.ts';

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
export function fileKind(text: string, fileName?: string): 'chain' | 'ts' | 'py' | 'program' {
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

/** Whether a file is a program exported by Seamscope (with its embedded chain) rather than a chain file. */
export function isExportedProgram(text: string, fileName?: string): boolean {
  return embeddedChainJson(text, fileName) !== null;
}

/**
 * A TypeScript or Python program exported by Seamscope: its embedded chain, read as data. The
 * last format asked: whatever is not JSON and no other format's comes here, and is told that it
 * is neither a chain file nor an exported program.
 */
export const programFormat = defineChainFormat<Embedded | null>({
  id: 'program',
  title: 'a program exported by Seamscope',
  extensions: ['.ts', '.py'],
  sniff: ({ name, text }) => (fileKind(text, name) === 'chain' ? null : { value: embeddedChain(text, name) }),
  toChain: (embedded) => {
    if (embedded === null) {
      return { ok: false, problems: [{ path: '$', message: `this is neither a chain file (a JSON object) nor a program exported by Seamscope (no ${CHAIN_BEGIN} block)` }] };
    }
    return embedded.ok ? { ok: true, chain: embedded.json, report: null } : { ok: false, problems: [{ path: '$', message: embedded.message }] };
  },
});
