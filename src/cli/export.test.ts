import { mkdtemp, readFile, readdir, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseChain } from '../chain/parse.ts';
import { REPO_ROOT, runProcess } from '../testing/conformance-harness.ts';
import { importChainSource } from '../formats/index.ts';
import { parseArgs } from './args.ts';
import { exportCommand, exportOptions } from './export.ts';
import { stepRegistry } from '../steps/index.ts';

function capture(env: Record<string, string | undefined> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (t: string) => out.push(t), err: (t: string) => err.push(t), env }, out, err };
}

const demo = (name: string) => new URL(`../../public/demo/${name}`, import.meta.url).pathname;

async function run(argv: string[], env: Record<string, string | undefined> = {}) {
  const args = parseArgs(argv, exportOptions, 'export');
  const c = capture(env);
  const code = await exportCommand(args.positionals, args.options, c.io);
  return { code, out: c.out.join('\n'), err: c.err.join('\n') };
}

describe('seamscope export', () => {
  it('writes a TypeScript program, its runtime and a package.json, and prints the program path', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'seamscope-cli-ts-'));
    const { code, out, err } = await run([demo('select-quotes-enum.chain.json'), '--lang', 'ts', '--out', dir, '--model', 'gpt-4o-mini'], { OPENAI_API_KEY: 'sk-secret-never-written' });
    expect(code).toBe(0);
    expect(out).toBe(join(dir, 'demo-select-quotes-enum.ts'));
    expect(err).toContain('exported "Select with quotes');
    // The example document the chain names (meta.inputFiles) travels beside the program, for --use-examples.
    expect((await readdir(dir)).sort()).toEqual(['README.md', 'demo-select-quotes-enum.ts', 'documents', 'package.json', 'seamscope-runtime', 'tsconfig.json']);
    expect(await readdir(join(dir, 'documents'))).toEqual(['42-USC-1395ff.md']);
    const program = await readFile(out, 'utf8');
    expect(program).toContain("model: 'gpt-4o-mini'");
    expect(program).not.toContain('sk-secret');
    expect(JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'))).toMatchObject({ type: 'module', scripts: { check: 'tsc --noEmit -p tsconfig.json' } });
    // The export type-checks with its own tsconfig, as `npm run check` there does.
    await symlink(join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    const checked = await runProcess(join(REPO_ROOT, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json'], dir, {}, 120_000);
    expect(checked.stdout + checked.stderr).toBe('');
    expect(checked.code).toBe(0);
  }, 120_000);

  it('writes a Python program whose --help runs, and ships the rank table only when the chain counts tokens', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'seamscope-cli-py-'));
    expect((await run([demo('summarise-then-answer.chain.json'), '--lang', 'py', '--out', dir])).code).toBe(0);
    expect(await readdir(join(dir, 'seamscope_runtime'))).not.toContain('o200k_base.ranks');
    const help = await runProcess('python3', ['demo_summarise_then_answer.py', '--help'], dir, {});
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--input NAME=VALUE');
    const budget = await mkdtemp(join(tmpdir(), 'seamscope-cli-py-'));
    expect((await run([demo('contract-rewrite.chain.json'), '--lang', 'py', '--out', budget, '--file', 'rewrite.py'])).code).toBe(0);
    expect(await readdir(join(budget, 'seamscope_runtime'))).toContain('o200k_base.ranks');
  });

  it('re-exports an exported program from its embedded chain', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'seamscope-cli-re-'));
    await run([demo('support-ticket.chain.json'), '--lang', 'py', '--out', dir]);
    const again = await mkdtemp(join(tmpdir(), 'seamscope-cli-re-'));
    const { code, out } = await run([join(dir, 'demo_support_ticket.py'), '--lang', 'ts', '--out', again]);
    expect(code).toBe(0);
    const original = parseChain(await readFile(demo('support-ticket.chain.json'), 'utf8'), stepRegistry);
    const back = importChainSource(await readFile(out, 'utf8'));
    expect(back.ok && back.chain).toEqual(original.ok && original.chain);
  });

  it('answers usage mistakes with exit 2 and bad chains with exit 1 and every problem', async () => {
    expect((await run([])).code).toBe(2);
    expect((await run([demo('summarise-then-answer.chain.json'), '--lang', 'go', '--out', '/tmp/x'])).err).toContain('--lang must be ts or py');
    expect((await run([demo('summarise-then-answer.chain.json'), '--lang', 'ts'])).code).toBe(2);
    expect((await run([demo('summarise-then-answer.chain.json'), '--lang', 'ts', '--out', '/tmp/x', '--max-output-tokens', 'lots'])).code).toBe(2);
    expect((await run([demo('summarise-then-answer.chain.json'), '--lang', 'ts', '--out', '/tmp/x', '--file', '../evil.ts'])).code).toBe(2);
    const dir = await mkdtemp(join(tmpdir(), 'seamscope-cli-bad-'));
    await writeFile(join(dir, 'bad.chain.json'), JSON.stringify({ format: 'seamscope.chain', version: 1, id: 'x', name: 'x', inputs: [], steps: [{ id: 'a', kind: 'model', name: 'A', config: { prompt: '{nothing}' } }] }));
    const bad = await run([join(dir, 'bad.chain.json'), '--lang', 'py', '--out', dir]);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('$.steps[0].config.prompt');
    expect((await run([join(dir, 'missing.json'), '--lang', 'py', '--out', dir])).err).toContain('ENOENT');
  });
});
