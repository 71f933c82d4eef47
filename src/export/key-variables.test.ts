import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { twoStepChain } from '../testing/index.ts';
import { exportChain } from './export-chain.ts';
import { KEY_VARIABLES, keyVariablesText } from './key-variables.ts';

const source = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');
/** Every `…_API_KEY` variable a source names. */
const keyNames = (text: string) => [...new Set(text.match(/\b[A-Z]+_API_KEY\b/g) ?? [])].sort();

describe('the key variables of an export', () => {
  it('are exactly the ones each runtime reads', () => {
    expect(keyNames(source('../runtime/run.ts'))).toEqual([...KEY_VARIABLES.ts].sort());
    expect(keyNames(source('./runtime/py/seamscope_runtime/run.py'))).toEqual([...KEY_VARIABLES.py].sort());
  });

  it('are named alike, all of them, in the program header and the README', async () => {
    for (const lang of ['ts', 'py'] as const) {
      const { files, program } = await exportChain(twoStepChain(), { lang });
      const readme = files.find((f) => f.path === 'README.md');
      expect(readme, lang).toBeDefined();
      const header = program.contents.split('\n').filter((l) => /^(\/\/|#)/.test(l)).join(' ').replace(/(\/\/|#)\s*/g, '');
      expect(header.replace(/\s+/g, ' '), lang).toContain(keyVariablesText(lang));
      expect(readme?.contents.replace(/\s+/g, ' '), lang).toContain(keyVariablesText(lang));
      expect(keyNames(header), lang).toEqual([...KEY_VARIABLES[lang]].sort());
      expect(keyNames(readme?.contents ?? ''), lang).toEqual([...KEY_VARIABLES[lang]].sort());
    }
  });
});
