import { readFile } from 'node:fs/promises';
import type { Chain } from '../chain/schema.ts';
import { fidelityLines, importChainSource, importSuiteSource, type ImportSuiteResult } from '../formats/index.ts';
import { readContainedFileSync } from './contained-file.ts';
import { terminalLine } from './terminal-text.ts';

/** What every command prints through: lines out and err, and the environment it reads keys from. */
export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
  env: Record<string, string | undefined>;
}

/**
 * A chain from any file the formats registry reads (a chain file, an exported program whose chain
 * is embedded as data and never run, another tool's flow); problems, and an import's fidelity
 * report, go to `io.err`.
 */
export async function loadChain(path: string, io: Io): Promise<Chain | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    io.err(`Cannot read ${terminalLine(path)}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    return null;
  }
  const result = importChainSource(text, { fileName: path, readSibling: (file) => readContainedFileSync(path, file) });
  if (!result.ok) {
    io.err(`${terminalLine(path)}: ${result.problems.length} problem${result.problems.length === 1 ? '' : 's'}`);
    for (const p of result.problems) io.err(`  ${terminalLine(p.path)}  ${terminalLine(p.message)}`);
    return null;
  }
  // From another tool: what was kept, changed and dropped, before anything runs.
  if (result.report) for (const line of fidelityLines(result.report)) io.err(terminalLine(line));
  return result.chain;
}

/**
 * The evaluation in a file that holds one (a promptfoo config: its prompts as chains, its tests as
 * a dataset); problems and the fidelity report go to `io.err`. Null when the file cannot be read,
 * holds a single chain (eval then needs --dataset) or is refused.
 */
export async function loadSuite(path: string, io: Io): Promise<Extract<ImportSuiteResult, { ok: true }> | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    io.err(`Cannot read ${terminalLine(path)}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    return null;
  }
  const result = importSuiteSource(text, { fileName: path });
  if (result === null) {
    io.err(`${terminalLine(path)} holds one chain and no tests: eval needs --dataset FILE.dataset.jsonl`);
    return null;
  }
  if (!result.ok) {
    io.err(`${terminalLine(path)}: ${result.problems.length} problem${result.problems.length === 1 ? '' : 's'}`);
    for (const p of result.problems) io.err(`  ${terminalLine(p.path)}  ${terminalLine(p.message)}`);
    return null;
  }
  for (const line of fidelityLines(result.report)) io.err(terminalLine(line));
  return result;
}
