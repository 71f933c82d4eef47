/**
 * The runtime an exported program runs on, as the files of its runtime folder.
 *
 * Nothing here is generated into the repo or checked in twice:
 *
 * - TypeScript: the engine itself. src/runtime/index.ts bundled by esbuild into one module
 *   (`index.js`, no npm dependencies) with declarations generated from src/runtime
 *   (`*.d.ts`), by runtime-build.ts at build or export time.
 * - Python: the hand-kept runtime in src/export/runtime/py/seamscope_runtime (the tables it
 *   shares with the engine come from TypeScript at export time: see shared-tables.ts).
 *
 * `#runtime-sources` (package.json `imports`) is the one module boundary. Its `browser`
 * condition, which Vite resolves for the app, is runtime-sources.browser.ts: the Python files
 * through `import.meta.glob(…, { query: '?raw' })` and the TypeScript runtime through the
 * `virtual:seamscope-runtime` module that the Vite plugin in scripts/vite-runtime-plugin.ts
 * builds; each is a lazy chunk fetched only when an export needs it. Everywhere else (tsc,
 * Vitest, tsx scripts) the `default` condition, runtime-sources.node.ts, reads the Python files
 * with `fs` and builds the TypeScript runtime in-process. The CLI bundle has no sources beside
 * it, so scripts/build-cli.ts resolves `#runtime-sources` to a module with the files inlined.
 */
export type RuntimeLanguage = 'ts' | 'py';

/** File name inside the runtime folder → contents. */
export type RuntimeFiles = Record<string, string>;

export type LoadRuntimeSources = (lang: RuntimeLanguage) => Promise<RuntimeFiles>;

/** Which files of the Python runtime's folder are its sources; both implementations filter with this. */
export const isPythonRuntimeFile = (name: string): boolean => name.endsWith('.py');

/** The files sorted by name, refusing an empty runtime. */
export function sortedFiles(lang: RuntimeLanguage, files: RuntimeFiles): RuntimeFiles {
  if (Object.keys(files).length === 0) throw new Error(`no ${lang} runtime sources were found`);
  return Object.fromEntries(Object.entries(files).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
