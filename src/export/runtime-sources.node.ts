import { readdir, readFile } from 'node:fs/promises';
import { buildRuntime } from './runtime-build.ts';
import { isPythonRuntimeFile, sortedFiles, type LoadRuntimeSources } from './runtime-sources.ts';

/**
 * `#runtime-sources` outside the browser (tsc, Vitest, tsx scripts; the CLI bundle inlines
 * what this returns at build time): the Python runtime read from the repo, next to this file,
 * and the TypeScript runtime built from src/runtime in-process. See runtime-sources.ts.
 */
const PY = new URL('./runtime/py/seamscope_runtime/', import.meta.url);

async function readPython(): Promise<Record<string, string>> {
  const names = (await readdir(PY)).filter(isPythonRuntimeFile);
  return Object.fromEntries(await Promise.all(names.map(async (name) => [name, await readFile(new URL(name, PY), 'utf8')] as const)));
}

export const loadRuntimeSources: LoadRuntimeSources = async (lang) => sortedFiles(lang, lang === 'ts' ? await buildRuntime() : await readPython());
