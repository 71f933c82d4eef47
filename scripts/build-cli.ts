/**
 * Builds the `seamscope` CLI: src/cli/bin.ts and everything it imports, dependencies included,
 * bundled by esbuild into dist-cli/ (seamscope.mjs, which `bin` names, and chunks/ beside it).
 *
 *   npm run build:cli     (`npm run build` runs it after the app; `prepare` runs it on npm ci,
 *                          npm install and npm pack)
 *
 * Nothing is external but the queue libraries (bullmq, ioredis, pg: package.json's
 * `dependencies`, so installing the tarball installs them): they are CommonJS that requires
 * Node built-ins at run time, which an ESM bundle cannot do, and only `eval --queue` and
 * `worker` load them, through import(). Every other command resolves no packages. What only one command needs (the engine and providers for `run`, the
 * exporter and its runtime files for `export`, fact extraction for `inspect`, the ~3 MB
 * tokenizer) is reached through import(), so it lands in a chunk of its own that `validate`
 * never reads. The build fails if the entry's static graph reaches any of it again, or if
 * anything from app/ or scripts/ (the bench hooks live there) got into the bundle.
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

/** Inputs `validate` must not load: each is a lazy chunk of its own. */
const LAZY_ONLY = [/(^|\/)node_modules\/gpt-tokenizer\//, /^src\/engine\/run\.ts$/, /^src\/export\/export-chain\.ts$/, /^runtime-sources:inlined$/, /^src\/inspect\/boundary\.ts$/, /^src\/providers\/profiles\.ts$/];
/** Loaded from node_modules by `eval --queue` and `worker` only (see above). */
const QUEUE_PACKAGES = ['bullmq', 'ioredis', 'pg'];
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

const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;

rmSync(outdir, { recursive: true, force: true });
const result = await build({
  absWorkingDir: root,
  entryPoints: { seamscope: 'src/cli/bin.ts' },
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
  banner: { js: '#!/usr/bin/env node' },
  metafile: true,
  logLevel: 'warning',
  plugins: [inlineRuntimeSources()],
  external: QUEUE_PACKAGES,
});

const meta = result.metafile;
const problems: string[] = [];
const all = new Set(Object.values(meta.outputs).flatMap((o) => Object.keys(o.inputs)));
for (const input of all) if (NEVER.some((re) => re.test(input))) problems.push(`${input} is in the CLI bundle`);
const eager = staticGraph(meta);
for (const input of eager.inputs) if (LAZY_ONLY.some((re) => re.test(input))) problems.push(`${input} is loaded at start (reach it through import())`);
for (const file of eager.files) for (const imported of meta.outputs[file]?.imports ?? []) if (imported.external && QUEUE_PACKAGES.includes(imported.path)) problems.push(`${imported.path} is imported at start (reach src/batch through import())`);
for (const re of LAZY_ONLY) if (![...all].some((input) => re.test(input))) problems.push(`nothing matches ${re}: update LAZY_ONLY in scripts/build-cli.ts`);
if (problems.length) {
  console.error(`build-cli: ${problems.join('\n  ')}`);
  process.exit(1);
}
chmodSync(path.join(root, ENTRY), 0o755);

const outputs = Object.entries(meta.outputs);
const total = outputs.reduce((n, [, o]) => n + o.bytes, 0);
const atStart = outputs.filter(([file]) => eager.files.has(file)).reduce((n, [, o]) => n + o.bytes, 0);
console.log(`build-cli: ${ENTRY} and ${outputs.length - 1} chunks, ${kib(total)} in all; a cold start reads ${eager.files.size} files, ${kib(atStart)}`);
