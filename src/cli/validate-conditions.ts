import type { Chain } from '../chain/schema.ts';
import { isRecord } from '../files/index.ts';
import { stepRegistry } from '../steps/index.ts';
import { ContainedFileError, readContainedFile } from './contained-file.ts';
import { terminalLine } from './terminal-text.ts';

/**
 * What `validate` says about a summarising step that is not told to keep the named conditions its
 * consumer's questions turn on, read against the documents the chain names (`meta.inputFiles`,
 * from the chain file's own folder). A warning, as in the designer: the chain is sound. Loaded
 * only for a chain that names documents, so validating any other chain starts no slower.
 */
export async function conditionWarnings(chain: Chain, chainPath: string): Promise<string[]> {
  const files = chain.meta?.inputFiles;
  if (!isRecord(files)) return [];
  const documents: Record<string, string> = {};
  for (const [name, file] of Object.entries(files)) {
    try {
      documents[name] = await readContainedFile(chainPath, `meta.inputFiles.${name}`, file);
    } catch (error) {
      // A file that cannot be read is `run`'s to refuse, with its reason; here it only means no document to read.
      if (!(error instanceof ContainedFileError)) throw error;
    }
  }
  const { conditionLint } = await import('../inspect/boundary-conditions.ts');
  return conditionLint(chain, stepRegistry, documents).map((f) => `warning: step ${terminalLine(f.stepId ?? 'chain')}: ${terminalLine(f.message)} (${f.code})`);
}
