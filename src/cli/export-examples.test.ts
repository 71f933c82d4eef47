import { mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_FILE_MAX_BYTES, EXAMPLE_FILES_MAX_BYTES } from '../export/example-files.ts';
import { API_KEY, REPO_ROOT, runProcess } from '../testing/conformance-harness.ts';
import { createMockModelServer, type MockModelServer } from '../testing/mock-server.ts';
import { parseArgs } from './args.ts';
import { exportCommand, exportOptions } from './export.ts';

/**
 * Exports run their own examples (issue #28, item 7): `seamscope export` puts the files the
 * chain's `meta.inputFiles` names beside the program, and `--use-examples` runs the program on
 * them, in TypeScript and in Python, against the mock model server over HTTP (its demo model).
 */
const demo = (name: string) => join(REPO_ROOT, 'public/demo', name);
const DOCUMENT = 'documents/42-USC-1395ff.md';

async function exportTo(chainPath: string, lang: 'ts' | 'py', dir: string) {
  const args = parseArgs([chainPath, '--lang', lang, '--out', dir], exportOptions, 'export');
  const out: string[] = [];
  const err: string[] = [];
  const code = await exportCommand(args.positionals, args.options, { out: (t) => out.push(t), err: (t) => err.push(t), env: {} });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** Runs the exported program as its README says; TypeScript compiled by esbuild first, as the conformance tests do (the same code, faster than tsx). */
async function runProgram(dir: string, lang: 'ts' | 'py', args: string[], baseUrl: string) {
  const env = { SEAMSCOPE_BASE_URL: baseUrl, SEAMSCOPE_API_KEY: API_KEY, OPENAI_API_KEY: '' };
  if (lang === 'py') return runProcess('python3', ['demo_summarise_then_answer.py', ...args], dir, env);
  const built = await runProcess(join(REPO_ROOT, 'node_modules/.bin/esbuild'), ['demo-summarise-then-answer.ts', '--bundle', '--platform=node', '--format=esm', '--outfile=program.mjs', '--log-level=error'], dir, {});
  expect(built.stderr).toBe('');
  return runProcess(process.execPath, ['program.mjs', ...args], dir, env);
}

let mock: MockModelServer;
const dirs: string[] = [];
beforeAll(async () => {
  mock = await createMockModelServer();
});
afterAll(async () => {
  await mock.close();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});
const tempDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'seamscope-examples-'));
  dirs.push(dir);
  return dir;
};

describe.each(['ts', 'py'] as const)('an exported %s program', (lang) => {
  it('carries the example document and runs on it with --use-examples', async () => {
    const dir = await tempDir();
    const exported = await exportTo(demo('summarise-then-answer.chain.json'), lang, dir);
    expect(exported.code).toBe(0);
    expect(exported.err).toContain('--use-examples');
    expect(await readFile(join(dir, DOCUMENT), 'utf8')).toBe(await readFile(demo(DOCUMENT), 'utf8'));
    expect(await readFile(join(dir, 'README.md'), 'utf8')).toContain(DOCUMENT);

    mock.reset();
    const run = await runProgram(dir, lang, ['--use-examples', '--trace', 'trace.json'], `${mock.url}/v1`);
    expect(run.stderr).toContain('succeeded');
    expect(run.code).toBe(0);
    const trace = JSON.parse(await readFile(join(dir, 'trace.json'), 'utf8')) as { events: { type: string; inputs?: Record<string, unknown> }[] };
    const started = trace.events.find((e) => e.type === 'run.started');
    expect(started?.inputs?.document).toBe(await readFile(demo(DOCUMENT), 'utf8'));
    // The first call was sent the document itself.
    expect(JSON.stringify(mock.requests[0]?.body)).toContain('180-day period');
  }, 180_000);

  it('says which example file is missing, and exits with 2', async () => {
    const dir = await tempDir();
    expect((await exportTo(demo('summarise-then-answer.chain.json'), lang, dir)).code).toBe(0);
    await rm(join(dir, DOCUMENT));
    const run = await runProgram(dir, lang, ['--use-examples'], `${mock.url}/v1`);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`the example for "document" is ${DOCUMENT}`);
    expect(run.stderr).toContain('--input-file document=PATH');
  }, 180_000);

  it('reads no example from outside its folder: a name that climbs out, or a link that points out', async () => {
    const dir = await tempDir();
    expect((await exportTo(demo('summarise-then-answer.chain.json'), lang, dir)).code).toBe(0);
    const outside = join(await tempDir(), 'secret.md');
    await writeFile(outside, 'SEAMSCOPE-OUTSIDE-SECRET');
    await rm(join(dir, DOCUMENT));
    await symlink(outside, join(dir, DOCUMENT));
    const linked = await runProgram(dir, lang, ['--use-examples'], `${mock.url}/v1`);
    expect(linked.code).toBe(2);
    expect(linked.stderr).toContain('is a link that points outside');
    // The embedded chain edited by hand to climb out of the folder.
    const program = join(dir, lang === 'ts' ? 'demo-summarise-then-answer.ts' : 'demo_summarise_then_answer.py');
    await writeFile(program, (await readFile(program, 'utf8')).replaceAll(DOCUMENT, '../secret.md'));
    const climbed = await runProgram(dir, lang, ['--use-examples'], `${mock.url}/v1`);
    expect(climbed.code).toBe(2);
    expect(climbed.stderr).toContain('meta.inputFiles.document is refused');
    expect(mock.requests.some((r) => JSON.stringify(r.body).includes('SEAMSCOPE-OUTSIDE-SECRET'))).toBe(false);
  }, 180_000);
});

describe('example files over the size limit', () => {
  async function chainWith(files: Record<string, number>) {
    const dir = await tempDir();
    const chain = JSON.parse(await readFile(demo('summarise-then-answer.chain.json'), 'utf8')) as { inputs: { name: string; schema: unknown }[]; meta: { inputFiles: Record<string, string> } };
    chain.meta.inputFiles = {};
    await mkdir(join(dir, 'docs'));
    for (const [i, [name, bytes]] of Object.entries(files).entries()) {
      if (i > 0) chain.inputs.push({ name: `extra${i}`, schema: { type: 'string' } });
      const input = i === 0 ? 'document' : `extra${i}`;
      chain.meta.inputFiles[input] = `docs/${name}`;
      await writeFile(join(dir, 'docs', name), 'x'.repeat(bytes));
    }
    const path = join(dir, 'big.chain.json');
    await writeFile(path, JSON.stringify(chain));
    return { dir, path };
  }

  it('refuses one file over the limit, naming it, and writes nothing', async () => {
    const { path } = await chainWith({ 'huge.md': EXAMPLE_FILE_MAX_BYTES + 1 });
    const out = await tempDir();
    const result = await exportTo(path, 'py', out);
    expect(result.code).toBe(1);
    expect(result.err).toContain('docs/huge.md (meta.inputFiles.document) is 5.0 MB (5,242,881 bytes); an export carries example files of at most 5 MB each');
    expect(result.err).toContain('--input-file document=PATH');
    expect(await readdir(out)).toEqual([]);
  });

  it('refuses files that pass one by one but not together', async () => {
    const each = EXAMPLE_FILE_MAX_BYTES - 1;
    const count = Math.floor(EXAMPLE_FILES_MAX_BYTES / each) + 1;
    const { path } = await chainWith(Object.fromEntries(Array.from({ length: count }, (_, i) => [`part${i}.md`, each])));
    const result = await exportTo(path, 'ts', await tempDir());
    expect(result.code).toBe(1);
    expect(result.err).toContain(`docs/part${count - 1}.md`);
    expect(result.err).toContain('at most 20 MB of them together');
  });
});
