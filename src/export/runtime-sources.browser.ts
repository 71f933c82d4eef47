import { isRuntimeFile, isSchemaFile, type LoadRuntimeSources, type RuntimeLanguage } from './runtime-sources.ts';

/**
 * `#runtime-sources` in the app (Vite resolves the `browser` condition): the runtime sources
 * as raw text through the build. Not eager: each file is a small chunk fetched only when an
 * export needs it, so none of it is on first paint. See runtime-sources.ts.
 */
type Loaders = Record<string, () => Promise<string>>;
const RUNTIME: Record<RuntimeLanguage, Loaders> = {
  ts: import.meta.glob<string>(['./runtime/ts/*.ts', '!./runtime/ts/*.test.ts'], { query: '?raw', import: 'default' }),
  py: import.meta.glob<string>('./runtime/py/seamscope_runtime/*.py', { query: '?raw', import: 'default' }),
};
const SCHEMA: Loaders = import.meta.glob<string>(['../schema/*.ts', '!../schema/*.test.ts', '!../schema/index.ts'], { query: '?raw', import: 'default' });

// The globs leave tests out so they are not built as chunks; `read` applies the same rules as
// the Node implementation, so both give the same files (runtime-sources.test.ts compares them).

async function read(loaders: Loaders, keep: (name: string) => boolean): Promise<Record<string, string>> {
  const entries = Object.entries(loaders).map(([path, load]) => [path.slice(path.lastIndexOf('/') + 1), load] as const).filter(([name]) => keep(name));
  return Object.fromEntries(await Promise.all(entries.sort(([a], [b]) => (a < b ? -1 : 1)).map(async ([name, load]) => [name, await load()] as const)));
}

export const loadRuntimeSources: LoadRuntimeSources = async (lang) => ({
  runtime: await read(RUNTIME[lang], (name) => isRuntimeFile(lang, name)),
  schema: lang === 'ts' ? await read(SCHEMA, isSchemaFile) : {},
});
