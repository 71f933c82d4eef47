import type { Chain } from '../chain/schema.ts';
import { checkRelativePath, isContainer } from '../files/index.ts';

/**
 * The files a chain's `meta.inputFiles` names (input name → a path beside the chain file), which
 * an export carries so that the program's `--use-examples` finds them beside itself. Sizes are
 * bounded: a ZIP is built in memory in the browser, and an example is not a data set.
 */
export const EXAMPLE_FILE_MAX_BYTES = 5 * 1024 * 1024;
export const EXAMPLE_FILES_MAX_BYTES = 20 * 1024 * 1024;

/** One example file: the input it fills and its path, relative to the chain file and to the program. */
export interface ExampleFileRef {
  input: string;
  path: string;
}

/** An export refused because of an example file; the message names the file and the reason. */
export class ExampleFileError extends Error {}

/**
 * Reads an example file, given its checked relative path and the label that names it
 * (`meta.inputFiles.document`): its text, or undefined when there is no such file. Any other
 * reason not to read it (outside the folder, a link out of it) is thrown.
 */
export type ReadExampleFile = (path: string, label: string) => Promise<string | undefined>;

// Whole megabytes for the limits; a size near one keeps its bytes, so 5 MB and one byte does not read as 5.0 MB.
const mb = (bytes: number) => (bytes % 1048576 === 0 ? `${bytes / 1048576} MB` : `${(bytes / 1048576).toFixed(1)} MB (${bytes.toLocaleString('en-US')} bytes)`);

/**
 * The example files of the chain's inputs, in input order, one per path. A name that leaves the
 * folder, or lands on a file the export writes itself (`isReserved`), is refused.
 */
export function exampleFileRefs(chain: Chain, isReserved: (path: string) => boolean): ExampleFileRef[] {
  const named = chain.meta?.inputFiles;
  if (!isContainer(named)) return [];
  const refs: ExampleFileRef[] = [];
  for (const input of chain.inputs) {
    if (!Object.hasOwn(named, input.name)) continue;
    const label = `meta.inputFiles.${input.name}`;
    const check = checkRelativePath((named as Record<string, unknown>)[input.name]);
    if (!check.ok) throw new ExampleFileError(`${label} cannot travel in the export: ${check.reason}`);
    if (isReserved(check.path)) throw new ExampleFileError(`${label} names ${check.path}, where the export writes a file of its own: rename the example file`);
    if (!refs.some((r) => r.path === check.path)) refs.push({ input: input.name, path: check.path });
  }
  return refs;
}

/**
 * Reads each example file and checks its size: over EXAMPLE_FILE_MAX_BYTES, or over
 * EXAMPLE_FILES_MAX_BYTES together, the export is refused with the file named. Files that are
 * not there come back in `missing`, for the caller to say so (the export still runs with
 * `--input-file`).
 */
export async function readExampleFiles(refs: readonly ExampleFileRef[], read: ReadExampleFile): Promise<{ files: { path: string; contents: string }[]; missing: ExampleFileRef[] }> {
  const files: { path: string; contents: string }[] = [];
  const missing: ExampleFileRef[] = [];
  const encoder = new TextEncoder();
  let total = 0;
  for (const ref of refs) {
    const label = `meta.inputFiles.${ref.input}`;
    const contents = await read(ref.path, label);
    if (contents === undefined) {
      missing.push(ref);
      continue;
    }
    const bytes = encoder.encode(contents).length;
    if (bytes > EXAMPLE_FILE_MAX_BYTES) {
      throw new ExampleFileError(`${ref.path} (${label}) is ${mb(bytes)}; an export carries example files of at most ${mb(EXAMPLE_FILE_MAX_BYTES)} each. Leave it out of meta.inputFiles and pass it to the program with --input-file ${ref.input}=PATH.`);
    }
    total += bytes;
    if (total > EXAMPLE_FILES_MAX_BYTES) {
      throw new ExampleFileError(`${ref.path} (${label}) brings the example files to ${mb(total)}; an export carries at most ${mb(EXAMPLE_FILES_MAX_BYTES)} of them together. Leave some out of meta.inputFiles and pass them with --input-file.`);
    }
    files.push({ path: ref.path, contents });
  }
  return { files, missing };
}
