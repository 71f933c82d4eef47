import { parseChain, type ParseChainResult } from '../chain/parse.ts';
import type { StepRegistry } from '../steps/registry.ts';

/**
 * Reads a chain back out of an exported program. The program embeds the chain as JSON text
 * between two marker lines — in TypeScript as the object literal `CHAIN`, in Python as the raw
 * string `CHAIN_JSON` — so the chain is found and parsed as data, never by running the file.
 */
export const CHAIN_BEGIN = '<seamscope:chain>';
export const CHAIN_END = '</seamscope:chain>';

/** The embedded chain's JSON text, or null when `text` is not an exported program. */
export function embeddedChainJson(text: string): string | null {
  const begin = text.indexOf(CHAIN_BEGIN);
  if (begin < 0) return null;
  const end = text.indexOf(CHAIN_END, begin);
  if (end < 0) return null;
  const block = text.slice(text.indexOf('\n', begin) + 1, end);
  const first = block.indexOf('{');
  const last = block.lastIndexOf('}');
  return first >= 0 && last > first ? block.slice(first, last + 1) : null;
}

/**
 * Parses a chain file or an exported TypeScript/Python program into a chain, with the same
 * problems (path and message) as any chain file.
 *
 * @example
 * const result = importChainSource(await file.text());
 * if (result.ok) openChain(result.chain);
 */
export function importChainSource(text: string, registry?: StepRegistry): ParseChainResult {
  const embedded = embeddedChainJson(text);
  if (embedded === null && text.includes(CHAIN_BEGIN)) {
    return { ok: false, problems: [{ path: '$', message: 'the exported program has no complete embedded chain (its <seamscope:chain> block was cut)' }] };
  }
  return parseChain(embedded ?? text, registry);
}

/** Whether a file looks like an exported program rather than a chain file. */
export function isExportedProgram(text: string): boolean {
  return embeddedChainJson(text) !== null;
}
