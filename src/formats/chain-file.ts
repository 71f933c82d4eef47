import { defineChainFormat } from './format.ts';
import { fileKind } from './program.ts';

/**
 * A Seamscope chain file (`*.chain.json`): parsed whole as JSON by parseChain, never searched
 * for markers. Asked after the other tools' JSON formats, so any JSON none of them claims comes
 * here and gets the chain file's own problems (with their paths).
 */
export const chainFileFormat = defineChainFormat<string>({
  id: 'chain',
  title: 'Seamscope chain file',
  extensions: ['.chain.json', '.json'],
  sniff: ({ name, text }) => (fileKind(text, name) === 'chain' ? { value: text } : null),
  toChain: (text) => ({ ok: true, chain: text, report: null }),
});
