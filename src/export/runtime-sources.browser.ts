import { isPythonRuntimeFile, sortedFiles, type LoadRuntimeSources } from './runtime-sources.ts';

/**
 * `#runtime-sources` in the app (Vite resolves the `browser` condition). Not eager: each is a
 * chunk fetched only when an export needs it, so none of it is on first paint. See runtime-sources.ts.
 *
 * - Python: the runtime's files as raw text through the build (`import.meta.glob`).
 * - TypeScript: `virtual:seamscope-runtime`, the engine bundled from src/runtime by the Vite
 *   plugin in scripts/vite-runtime-plugin.ts (the files runtime-build.ts makes).
 */
const PY = import.meta.glob<string>('./runtime/py/seamscope_runtime/*.py', { query: '?raw', import: 'default' });

async function readPython(): Promise<Record<string, string>> {
  const entries = Object.entries(PY).map(([path, load]) => [path.slice(path.lastIndexOf('/') + 1), load] as const).filter(([name]) => isPythonRuntimeFile(name));
  return Object.fromEntries(await Promise.all(entries.map(async ([name, load]) => [name, await load()] as const)));
}

export const loadRuntimeSources: LoadRuntimeSources = async (lang) => {
  if (lang === 'py') return sortedFiles(lang, await readPython());
  const { files } = await import('virtual:seamscope-runtime');
  return sortedFiles(lang, files);
};
