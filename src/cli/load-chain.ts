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

/** The file's text, or null with why on `io.err` (a missing or unreadable file is said by its code). */
async function readText(path: string, io: Io): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    io.err(`Cannot read ${terminalLine(path)}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    return null;
  }
}

function printProblems(path: string, problems: readonly { path: string; message: string }[], io: Io): void {
  io.err(`${terminalLine(path)}: ${problems.length} problem${problems.length === 1 ? '' : 's'}`);
  for (const p of problems) io.err(`  ${terminalLine(p.path)}  ${terminalLine(p.message)}`);
}

/**
 * A chain from any file the formats registry reads (a chain file, an exported program whose chain
 * is embedded as data and never run, another tool's flow); problems, and an import's fidelity
 * report, go to `io.err`.
 */
export async function loadChain(path: string, io: Io): Promise<Chain | null> {
  const text = await readText(path, io);
  if (text === null) return null;
  const result = importChainSource(text, { fileName: path, readSibling: (file) => readContainedFileSync(path, file) });
  if (!result.ok) {
    printProblems(path, result.problems, io);
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
  const text = await readText(path, io);
  if (text === null) return null;
  const result = importSuiteSource(text, { fileName: path, readSibling: (file) => readContainedFileSync(path, file) });
  if (result === null) {
    io.err(`${terminalLine(path)} holds one chain and no tests: eval needs --dataset FILE.dataset.jsonl`);
    return null;
  }
  if (!result.ok) {
    printProblems(path, result.problems, io);
    return null;
  }
  for (const line of fidelityLines(result.report)) io.err(terminalLine(line));
  return result;
}
