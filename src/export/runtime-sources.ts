/**
 * The runtime an exported program runs on, as the files of its runtime folder.
 *
 * Nothing here is generated or checked in twice. The sources are the hand-kept runtimes
 * (src/export/runtime/ts, src/export/runtime/py/seamscope_runtime) and, for TypeScript, the
 * JSON Schema validator in src/schema, read where they are by whichever build is running:
 *
 * - `#runtime-sources` (package.json `imports`) is the one module boundary. Its `browser`
 *   condition, which Vite resolves for the app, is runtime-sources.browser.ts: the files come
 *   through `import.meta.glob(…, { query: '?raw' })`, each a lazy chunk fetched only when an
 *   export needs it. Everywhere else (tsc, Vitest, tsx scripts) the `default` condition,
 *   runtime-sources.node.ts, reads them with `fs` next to its own `import.meta.url`.
 * - The CLI bundle has no sources beside it, so scripts/build-cli.ts resolves
 *   `#runtime-sources` to a module that inlines the files at build time (read through the
 *   Node implementation), and `npm pack` ships them inside dist-cli.
 *
 * Both implementations return the files as they are in the repo; `runtimeFolder` lays them
 * out as the export writes them. In the repo the TypeScript runtime imports the validator
 * from src/schema (`../../../schema/checker.ts`), so `tsc -b` checks it against the real
 * files; in the export those files sit in the runtime folder itself, so the one prefix is
 * rewritten to `./`, and any other import reaching out of the folder (from the runtime or from
 * src/schema, which must stay self-contained) is an error.
 */
export type RuntimeLanguage = 'ts' | 'py';

/** File name (no folder) to contents, as read from the repo. */
export interface RuntimeSources {
  /** The hand-kept runtime: src/export/runtime/ts/*.ts or src/export/runtime/py/seamscope_runtime/*.py. */
  runtime: Record<string, string>;
  /** src/schema/*.ts but index.ts and tests (TypeScript only; empty for Python). */
  schema: Record<string, string>;
}

export type LoadRuntimeSources = (lang: RuntimeLanguage) => Promise<RuntimeSources>;

/** Which files of each folder are sources of the runtime; both implementations filter with these. */
export const isRuntimeFile = (lang: RuntimeLanguage, name: string): boolean => (lang === 'ts' ? name.endsWith('.ts') && !name.endsWith('.test.ts') : name.endsWith('.py'));
export const isSchemaFile = (name: string): boolean => name.endsWith('.ts') && !name.endsWith('.test.ts') && name !== 'index.ts';

/** How the TypeScript runtime names src/schema in the repo (from src/export/runtime/ts/). */
const SCHEMA_IMPORT = '../../../schema/';
const SPECIFIER = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])([^'"]*)\2/g;

/**
 * The runtime folder's files, path (inside the folder) to contents, sorted by path.
 *
 * @example
 * const files = runtimeFolder('ts', await loadRuntimeSources('ts'));
 * files['validate.ts']; // imports './checker.ts', the verbatim src/schema/checker.ts beside it
 */
export function runtimeFolder(lang: RuntimeLanguage, sources: RuntimeSources): Record<string, string> {
  const files: Record<string, string> = {};
  // The validator's files go in verbatim; the check only refuses one that reaches out of src/schema.
  for (const [name, text] of Object.entries(sources.schema)) files[name] = lang === 'ts' ? foldImports(name, text, sources.schema) : text;
  for (const [name, text] of Object.entries(sources.runtime)) {
    if (name in files) throw new Error(`runtime file ${name} has the name of a src/schema file`);
    files[name] = lang === 'ts' ? foldImports(name, text, sources.schema) : text;
  }
  if (Object.keys(sources.runtime).length === 0) throw new Error(`no ${lang} runtime sources were found`);
  return Object.fromEntries(Object.entries(files).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** `../../../schema/x.ts` becomes `./x.ts`; every other relative import must stay inside the folder. */
function foldImports(file: string, text: string, schema: Record<string, string>): string {
  return text.replace(SPECIFIER, (whole, lead: string, quote: string, spec: string) => {
    if (spec.startsWith(SCHEMA_IMPORT)) {
      const name = spec.slice(SCHEMA_IMPORT.length);
      if (!(name in schema)) throw new Error(`${file} imports ${spec}, which is not a runtime source in src/schema`);
      return `${lead}${quote}./${name}${quote}`;
    }
    if (spec.startsWith('../')) throw new Error(`${file} imports ${spec}, outside the runtime folder`);
    return whole;
  });
}
