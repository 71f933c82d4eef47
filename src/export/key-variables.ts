import type { ExportLanguage } from './export-chain.ts';

/**
 * The environment variables an exported program reads its API key from, by language. One list,
 * read by the program's header comment, its README and the export dialog, so none of them names
 * a variable the program does not read or leaves out one it does. TypeScript programs run on the
 * engine and speak OpenAI-compatible and Anthropic endpoints (`keyFrom` in src/runtime/run.ts);
 * the Python runtime speaks OpenAI-compatible endpoints only (`start_run` in its run.py).
 * key-variables.test.ts holds both runtimes to this list.
 *
 * @example
 * keyVariablesText('py'); // 'SEAMSCOPE_API_KEY or OPENAI_API_KEY'
 */
export const KEY_VARIABLES = {
  ts: ['SEAMSCOPE_API_KEY', 'OPENAI_API_KEY', 'ANTHROPIC_API_KEY'],
  py: ['SEAMSCOPE_API_KEY', 'OPENAI_API_KEY'],
} as const satisfies Record<ExportLanguage, readonly string[]>;

/** The list in words: `A, B or C`. */
export function keyVariablesText(lang: ExportLanguage): string {
  const names: readonly string[] = KEY_VARIABLES[lang];
  return names.length < 2 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}
