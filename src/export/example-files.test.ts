import { describe, expect, it } from 'vitest';
import type { Chain } from '../chain/schema.ts';
import { twoStepChain } from '../testing/index.ts';
import { EXAMPLE_FILE_MAX_BYTES, ExampleFileError, readExampleFiles } from './example-files.ts';
import { exportChain, exportChainFiles } from './export-chain.ts';

const withFiles = (inputFiles: Record<string, unknown>): Chain => {
  const chain = twoStepChain();
  return { ...chain, meta: { ...chain.meta, inputFiles } };
};
const inputName = twoStepChain().inputs[0]!.name;

describe('example files in an export', () => {
  it('travel beside the program when a reader is given, one per path, and are listed when not found', async () => {
    const chain = withFiles({ [inputName]: 'docs/a.md', unknownInput: 'docs/b.md' });
    const read = async (path: string) => (path === 'docs/a.md' ? 'the text' : undefined);
    const full = await exportChainFiles(chain, { lang: 'py', readExampleFile: read });
    expect(full.files.filter((f) => f.role === 'data').map((f) => [f.path, f.contents])).toEqual([['docs/a.md', 'the text']]);
    expect(full.examples).toEqual([{ input: inputName, path: 'docs/a.md' }]);
    const none = await exportChainFiles(chain, { lang: 'py', readExampleFile: async () => undefined });
    expect(none.missingExamples).toEqual([{ input: inputName, path: 'docs/a.md' }]);
    expect(none.files.some((f) => f.path === 'docs/a.md')).toBe(false);
  });

  it('never land on a file the export writes itself, in any letter case', async () => {
    for (const [lang, path] of [['ts', 'seamscope-runtime/index.js'], ['py', 'Seamscope_Runtime/run.py'], ['ts', 'package.json'], ['py', 'readme.md'], ['ts', 'chain-two.ts']] as const) {
      const chain = { ...withFiles({ [inputName]: path }), id: 'chain-two' };
      await expect(exportChain(chain, { lang }), path).rejects.toThrow(ExampleFileError);
    }
  });

  it('refuse a file over the limit with its name and size', async () => {
    const big = 'é'.repeat(EXAMPLE_FILE_MAX_BYTES / 2 + 1); // two bytes each in UTF-8: over the limit by bytes, not by characters
    const refs = [{ input: 'document', path: 'docs/big.md' }];
    await expect(readExampleFiles(refs, async () => big)).rejects.toThrow(/^docs\/big\.md \(meta\.inputFiles\.document\) is 5\.0 MB \(5,242,882 bytes\)/);
  });
});
