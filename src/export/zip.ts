import { strToU8, zipSync, type Zippable } from 'fflate';

/**
 * The export dialog's download as one ZIP: the program and its runtime folder, deflated by
 * fflate. Deterministic: the same files give the same bytes (names in a fixed order, every
 * entry dated 1980-01-01 00:00, the earliest DOS date, in whatever time zone it is made).
 * Python's `zipfile`, `unzip` and every OS open it.
 */
export interface ZipEntry {
  path: string;
  contents: string | Uint8Array;
}

// fflate writes the DOS date from local time, so a local midnight is the same field everywhere.
const MTIME = new Date(1980, 0, 1, 0, 0, 0);
// Made on Unix (os 3) with rw-r--r-- regular-file permissions, so unzip gives readable files.
const FILE = { os: 3, attrs: (0o100644 << 16) >>> 0, mtime: MTIME } as const;

/**
 * @example
 * const bytes = createZip([{ path: 'chain.py', contents: program }]);
 * new Blob([bytes], { type: 'application/zip' });
 */
export function createZip(entries: readonly ZipEntry[]): Uint8Array {
  // No prototype: an entry named `__proto__` is a file like any other.
  const files: Zippable = Object.create(null) as Zippable;
  for (const entry of entries) files[entry.path] = [typeof entry.contents === 'string' ? strToU8(entry.contents) : entry.contents, FILE];
  return zipSync(files, { level: 6 });
}
