import { CHAIN_MIGRATIONS, CHAIN_VERSION } from './versions.ts';

/**
 * Chain files migrate forward one version at a time by the table in versions.ts (each entry
 * upgrades version n to n+1). A file from a newer Seamscope is refused rather than guessed at.
 * parseChain calls this before it validates, so every load path (a file, the library, a run's
 * snapshot, an exported program) reads an old chain the same way.
 */

export function migrateChain(raw: Record<string, unknown>): { ok: true; value: Record<string, unknown> } | { ok: false; message: string } {
  const version = raw.version;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    return { ok: false, message: `the format version must be a whole number from 1 to ${CHAIN_VERSION}, not ${JSON.stringify(version)}` };
  }
  if (version > CHAIN_VERSION) {
    return { ok: false, message: `the file is format version ${version}, made by a newer Seamscope; this one reads up to version ${CHAIN_VERSION}` };
  }
  let value = raw;
  for (let v = version; v < CHAIN_VERSION; v++) {
    const up = CHAIN_MIGRATIONS[v];
    if (!up) return { ok: false, message: `no migration from format version ${v}` };
    value = { ...up(value), version: v + 1 };
  }
  return { ok: true, value };
}
