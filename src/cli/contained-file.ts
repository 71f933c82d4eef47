import { readFileSync, realpathSync, statSync } from 'node:fs';
import { readFile, realpath, stat } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { checkRelativePath } from '../files/relative-path.ts';

/**
 * Reads a file that a shared file names (a chain's `meta.inputFiles`, an inputs file's
 * `{"$file"}`), only from inside the naming file's own folder. The name passes the shared pure
 * check first; then both the folder and the file are resolved with `realpath`, so a symlink
 * inside the folder that points out of it is refused too.
 */
export const MAX_INPUT_FILE_BYTES = 50 * 1024 * 1024;

export class ContainedFileError extends Error {}

/** Whether `path` is `folder` itself or below it (both already real paths). */
function isInside(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

/**
 * The text of `file`, named by `label` (e.g. `meta.inputFiles.document`) in `namingFile`.
 * Throws a ContainedFileError naming both when the file is outside the folder or unreadable.
 *
 * @example
 * await readContainedFile('chains/a.chain.json', 'meta.inputFiles.document', 'docs/contract.txt');
 */
export async function readContainedFile(namingFile: string, label: string, file: unknown): Promise<string> {
  const refuse = (why: string): never => {
    throw new ContainedFileError(`${namingFile}: ${label} names ${JSON.stringify(file)}, which ${why}; only files inside the folder of ${namingFile} can be read`);
  };
  const check = checkRelativePath(file);
  if (!check.ok) return refuse(`is refused: ${check.reason}`);
  const name = check.path;
  const folder = await realpath(resolve(dirname(namingFile)));
  let real: string;
  try {
    real = await realpath(resolve(folder, name));
  } catch (error) {
    return refuse(`cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  if (!isInside(folder, real)) refuse('is a link that points outside the folder');
  const info = await stat(real);
  if (!info.isFile()) refuse('is not a regular file');
  if (info.size > MAX_INPUT_FILE_BYTES) refuse(`is ${(info.size / 1048576).toFixed(1)} MB (input files are limited to ${MAX_INPUT_FILE_BYTES / 1048576} MB)`);
  return readFile(real, 'utf8');
}

/**
 * The same containment, synchronously, for a flow's importer reading the files it names beside
 * it (a Prompt flow's Jinja prompts) while the import itself runs: the text, or why it was refused.
 */
export function readContainedFileSync(namingFile: string, file: string): string | { error: string } {
  const check = checkRelativePath(file);
  if (!check.ok) return { error: `it is refused: ${check.reason}; only files inside the flow's own folder are read` };
  try {
    const folder = realpathSync(resolve(dirname(namingFile)));
    const real = realpathSync(resolve(folder, check.path));
    if (!isInside(folder, real)) return { error: 'it is a link that points outside the flow\'s folder' };
    const info = statSync(real);
    if (!info.isFile()) return { error: 'it is not a regular file' };
    if (info.size > MAX_INPUT_FILE_BYTES) return { error: `it is ${(info.size / 1048576).toFixed(1)} MB` };
    return readFileSync(real, 'utf8');
  } catch (error) {
    return { error: `it cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` };
  }
}
