import { readdir, readFile } from 'node:fs/promises';
import { isRuntimeFile, isSchemaFile, type LoadRuntimeSources, type RuntimeLanguage } from './runtime-sources.ts';

/**
 * `#runtime-sources` outside the browser (tsc, Vitest, tsx scripts; the CLI bundle inlines
 * what this returns at build time): the runtime sources read from the repo, next to this file.
 * See runtime-sources.ts.
 */
const FOLDERS: Record<RuntimeLanguage, URL> = { ts: new URL('./runtime/ts/', import.meta.url), py: new URL('./runtime/py/seamscope_runtime/', import.meta.url) };
const SCHEMA = new URL('../schema/', import.meta.url);

async function read(folder: URL, keep: (name: string) => boolean): Promise<Record<string, string>> {
  const names = (await readdir(folder)).filter(keep).sort();
  return Object.fromEntries(await Promise.all(names.map(async (name) => [name, await readFile(new URL(name, folder), 'utf8')] as const)));
}

export const loadRuntimeSources: LoadRuntimeSources = async (lang) => ({
  runtime: await read(FOLDERS[lang], (name) => isRuntimeFile(lang, name)),
  schema: lang === 'ts' ? await read(SCHEMA, isSchemaFile) : {},
});
