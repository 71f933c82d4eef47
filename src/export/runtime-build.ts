/**
 * Builds the TypeScript runtime an export ships, from src (Node only: the CLI build, the app's
 * Vite plugin and the tests call it; nothing it makes is checked in).
 *
 * - `index.js`: src/runtime/index.ts and everything it reaches (engine, steps, providers,
 *   trace, zod, re2js, the o200k tokenizer) bundled by esbuild into one ES module for Node 20,
 *   so the exported program needs no npm package at run time.
 * - `*.d.ts`: the declarations of src/runtime, generated file by file with TypeScript's
 *   isolated declaration emit (the folder's exports carry explicit types, and api.ts declares
 *   every public type without importing anything), `.ts` specifiers rewritten to `.js`. A
 *   declaration that reaches outside src/runtime is an error: the export has nothing there.
 */
import { readdir, readFile } from 'node:fs/promises';

const RUNTIME = new URL('../runtime/', import.meta.url);
const ENTRY = new URL('index.ts', RUNTIME);

export const RUNTIME_BUNDLE = 'index.js';

let building: Promise<Record<string, string>> | null = null;

/** The runtime folder's files (built once per process): file name → contents. */
export function buildRuntime(): Promise<Record<string, string>> {
  building ??= build().catch((error: unknown) => {
    building = null;
    throw error;
  });
  return building;
}

async function build(): Promise<Record<string, string>> {
  const [bundle, declarations] = await Promise.all([bundleRuntime(), declareRuntime()]);
  return { ...declarations, [RUNTIME_BUNDLE]: bundle };
}

async function bundleRuntime(): Promise<string> {
  const { build: esbuild } = await import('esbuild');
  const { fileURLToPath } = await import('node:url');
  const result = await esbuild({
    // Paths relative to the repo, whoever builds it (the CLI build, Vite, a test): the same bytes.
    absWorkingDir: fileURLToPath(new URL('../../', import.meta.url)),
    entryPoints: [fileURLToPath(ENTRY)],
    bundle: true,
    write: false,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: 'eof',
    logLevel: 'silent',
    banner: { js: '// Seamscope runtime: the Seamscope engine, bundled from its sources for exported programs. Generated; do not edit.' },
  });
  const out = result.outputFiles[0];
  if (!out || result.outputFiles.length !== 1) throw new Error('runtime-build: esbuild made no single bundle');
  return out.text;
}

/** The module specifier of an import or export statement (comments, such as JSDoc examples, are left alone). */
const SPECIFIER = /^((?:import|export)\b[^'"]*?\bfrom\s*)(['"])([^'"]*)\2/gm;

async function declareRuntime(): Promise<Record<string, string>> {
  const ts = (await import('typescript')).default;
  const names = (await readdir(RUNTIME)).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts')).sort();
  const files: Record<string, string> = {};
  for (const name of names) {
    const source = await readFile(new URL(name, RUNTIME), 'utf8');
    const out = ts.transpileDeclaration(source, {
      fileName: name,
      compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, allowImportingTsExtensions: true, strict: true },
      reportDiagnostics: true,
    });
    const errors = (out.diagnostics ?? []).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    if (errors.length > 0) throw new Error(`runtime-build: src/runtime/${name} has no isolated declaration: ${errors.join('; ')}`);
    const text = out.outputText.replace(SPECIFIER, (whole, lead: string, quote: string, spec: string) => {
      if (!spec.startsWith('./') || spec.includes('/', 2)) throw new Error(`runtime-build: the declarations of src/runtime/${name} import ${spec}, outside src/runtime`);
      return `${lead}${quote}${spec.replace(/\.ts$/, '.js')}${quote}`;
    });
    files[name.replace(/\.ts$/, '.d.ts')] = text;
  }
  return files;
}
