/**
 * Builds the `seamscope` CLI: src/cli/bin.ts and everything it imports, dependencies included,
 * bundled by esbuild into dist-cli/ (seamscope.mjs, which `bin` names, and chunks/ beside it).
 *
 *   npm run build:cli     (`npm run build` runs it after the app; `prepare` runs it on npm ci,
 *                          npm install and npm pack)
 *
 * Nothing is external: an installed tarball needs no node_modules to run, and a cold start
 * resolves no packages. The queue libraries (bullmq, ioredis, pg) are CommonJS that calls
 * `require` on Node built-ins at run time, so the bundle defines `require` (createRequire)
 * for them; only `eval --queue` and `worker` load them, through import(). What only one command needs (the engine and providers for `run`, the
 * exporter and its runtime files for `export`, fact extraction for `inspect`, the ~3 MB
 * tokenizer) is reached through import(), so it lands in a chunk of its own that `validate`
 * never reads. The build fails if the entry's static graph reaches any of it again, or if
 * anything from app/ or scripts/ (the bench hooks live there) got into the bundle.
 *
 * `seamscope collect` imports and writes traces on a worker thread (src/collect/finish-worker.ts):
 * it is an entry of its own, dist-cli/collect-worker.mjs, and src/collect/finish-worker-entry.ts
 * (which starts it through tsx from the sources) is replaced by a module naming that file.
 *
 * The exporter reads the runtimes through `#runtime-sources` (src/export/runtime-sources.ts).
 * An installed CLI has no sources beside it, so here that import resolves to a module with
 * the files inlined, made now through the Node implementation (the Python runtime's files, and
 * the engine bundled from src/runtime with its declarations): dist-cli carries both runtimes.
 */
import { chmodSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Metafile, type Plugin } from 'esbuild';
import { loadRuntimeSources } from '../src/export/runtime-sources.node.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = path.join(root, 'dist-cli');
const ENTRY = 'dist-cli/seamscope.mjs';
const WORKER_FILE = 'collect-worker.mjs';

/** Inputs `validate` must not load: each is a lazy chunk of its own. */
const LAZY_ONLY = [/(^|\/)node_modules\/gpt-tokenizer\//, /(^|\/)node_modules\/(bullmq|ioredis|pg)\//, /^src\/engine\/run\.ts$/, /^src\/export\/export-chain\.ts$/, /^runtime-sources:inlined$/, /^src\/inspect\/boundary\.ts$/, /^src\/providers\/profiles\.ts$/];
/** Inputs that must never be in the CLI at all. */
const NEVER = [/^app\//, /^scripts\//, /^e2e\//, /\.test\.ts$/];

/** The entry chunk, main.ts's chunk and the chunks they import statically (what a cold start reads), and their inputs. */
function staticGraph(meta: Metafile): { files: Set<string>; inputs: Set<string> } {
  const files = new Set<string>();
  const inputs = new Set<string>();
  const visit = (file: string) => {
    const output = meta.outputs[file];
    if (files.has(file) || !output) return;
    files.add(file);
    for (const input of Object.keys(output.inputs)) inputs.add(input);
    for (const imported of output.imports) if (imported.kind === 'import-statement' && !imported.external) visit(imported.path);
  };
  visit(ENTRY);
  // bin.ts sets zod's flag, then imports main.ts: its chunk is part of every start too.
  for (const [file, output] of Object.entries(meta.outputs)) if (output.entryPoint === 'src/cli/main.ts') visit(file);
  if (![...files].some((file) => meta.outputs[file]?.entryPoint === 'src/cli/main.ts')) throw new Error('build-cli: no chunk for src/cli/main.ts');
  return { files, inputs };
}

/** `#runtime-sources` as the files themselves, so the bundle needs no sources at run time. */
function inlineRuntimeSources(): Plugin {
  return {
    name: 'seamscope-inline-runtime-sources',
    setup(b) {
      b.onResolve({ filter: /^#runtime-sources$/ }, () => ({ path: 'inlined', namespace: 'runtime-sources' }));
      b.onLoad({ filter: /.*/, namespace: 'runtime-sources' }, async () => {
        const sources = { ts: await loadRuntimeSources('ts'), py: await loadRuntimeSources('py') };
        return { loader: 'js', contents: `const SOURCES = ${JSON.stringify(sources)};\nexport const loadRuntimeSources = async (lang) => SOURCES[lang];\n` };
      });
    },
  };
}

/** The collector's worker as the built file beside the CLI, not the sources through tsx. */
function builtCollectWorker(): Plugin {
  return {
    name: 'seamscope-built-collect-worker',
    setup(b) {
      b.onLoad({ filter: /[\\/]src[\\/]collect[\\/]finish-worker-entry\.ts$/ }, () => ({
        loader: 'js',
        // This module lands in the entry or in chunks/: the worker is in dist-cli/ either way.
        contents: `export function finishWorkerEntry() {
  const here = new URL('.', import.meta.url);
  const base = here.pathname.endsWith('/chunks/') ? new URL('..', here) : here;
  return { entry: new URL('${WORKER_FILE}', base), eval: false };
}\n`,
      }));
    },
  };
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;

rmSync(outdir, { recursive: true, force: true });
const result = await build({
  absWorkingDir: root,
  entryPoints: { seamscope: 'src/cli/bin.ts', 'collect-worker': 'src/collect/finish-worker.ts' },
  outdir,
  outExtension: { '.js': '.mjs' },
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Smaller files parse faster; identifiers stay, so a stack trace still names its functions.
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'eof',
  // The CommonJS inside (bullmq, ioredis, pg) requires Node built-ins; an ESM module has no `require` of its own.
  banner: { js: "#!/usr/bin/env node\nimport { createRequire as __seamscopeCreateRequire } from 'node:module';\nconst require = __seamscopeCreateRequire(import.meta.url);" },
  metafile: true,
  logLevel: 'warning',
  plugins: [inlineRuntimeSources(), builtCollectWorker()],
  // pg's optional native binding, never used (pg falls back to its JavaScript client).
  external: ['pg-native'],
});

const meta = result.metafile;
const problems: string[] = [];
const all = new Set(Object.values(meta.outputs).flatMap((o) => Object.keys(o.inputs)));
for (const input of all) if (NEVER.some((re) => re.test(input))) problems.push(`${input} is in the CLI bundle`);
const eager = staticGraph(meta);
for (const input of eager.inputs) if (LAZY_ONLY.some((re) => re.test(input))) problems.push(`${input} is loaded at start (reach it through import())`);
for (const re of LAZY_ONLY) if (![...all].some((input) => re.test(input))) problems.push(`nothing matches ${re}: update LAZY_ONLY in scripts/build-cli.ts`);
if (problems.length) {
  console.error(`build-cli: ${problems.join('\n  ')}`);
  process.exit(1);
}
chmodSync(path.join(root, ENTRY), 0o755);

const outputs = Object.entries(meta.outputs);
const total = outputs.reduce((n, [, o]) => n + o.bytes, 0);
const atStart = outputs.filter(([file]) => eager.files.has(file)).reduce((n, [, o]) => n + o.bytes, 0);
if (!meta.outputs[`dist-cli/${WORKER_FILE}`]) {
  console.error(`build-cli: no dist-cli/${WORKER_FILE} (the collector's worker)`);
  process.exit(1);
}
console.log(`build-cli: ${ENTRY}, dist-cli/${WORKER_FILE} and ${outputs.length - 2} chunks, ${kib(total)} in all; a cold start reads ${eager.files.size} files, ${kib(atStart)}`);
