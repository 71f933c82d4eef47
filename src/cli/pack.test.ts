import { cp, mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { recordAgentTrace } from '../testing/collect-fixtures.ts';
import { freePort } from '../testing/free-port.ts';
import { otlpTraceExporter } from '../testing/otlp-exporters.ts';
import { REPO_ROOT, runProcess } from '../testing/conformance-harness.ts';
import { RUNTIME_DIR } from '../export/export-chain.ts';
import { loadRuntimeSources } from '../export/runtime-sources.node.ts';
import { parseRunFile } from '../trace/run-file.ts';

/**
 * The package as a user gets it: `npm pack` (whose `prepare` builds dist-cli from these
 * sources), the tarball installed into an empty folder, and `npx seamscope` run there on a
 * demo chain copied beside it: validate, run on the offline demo model, inspect the run file,
 * export. The slow test of the unit suite (a build and an install), so it has a long timeout;
 * nothing in it is timed.
 */
const work: string[] = [];
afterAll(async () => {
  for (const dir of work) await rm(dir, { recursive: true, force: true });
});

async function npm(args: string[], cwd: string) {
  const r = await runProcess('npm', args, cwd, { npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' }, 180_000);
  if (r.code !== 0) throw new Error(`npm ${args.join(' ')} exited ${r.code}:\n${r.stderr}`);
  return r.stdout;
}

describe('the packed CLI', () => {
  it('installs from its tarball into an empty folder and validates, runs, inspects and exports there', async () => {
    const packDir = await mkdtemp(join(tmpdir(), 'seamscope-pack-'));
    const home = await mkdtemp(join(tmpdir(), 'seamscope-installed-'));
    work.push(packDir, home);

    // prepare's build output precedes the JSON report on stdout.
    const packed = await npm(['pack', '--pack-destination', packDir, '--json'], REPO_ROOT);
    const [report] = JSON.parse(packed.slice(packed.search(/^\[/m))) as { filename: string; files: { path: string }[] }[];
    const shipped = (report?.files ?? []).map((f) => f.path);
    expect(shipped).toContain('dist-cli/seamscope.mjs');
    expect(shipped).toContain('dist-cli/collect-worker.mjs');
    expect(shipped.filter((p) => !/^dist-cli\/(chunks\/[\w-]+|seamscope|collect-worker)\.mjs$/.test(p)).sort()).toEqual(['README.md', 'package.json']);

    // Offline: there are no dependencies to fetch, everything the CLI runs is in its bundle.
    await npm(['init', '-y'], home);
    await npm(['install', '--offline', '--no-save', join(packDir, report?.filename ?? '')], home);
    expect((await readdir(join(home, 'node_modules'))).filter((n) => !n.startsWith('.'))).toEqual(['seamscope']);

    await mkdir(join(home, 'demo', 'documents'), { recursive: true });
    await cp(join(REPO_ROOT, 'public/demo/select-quotes-then-answer.chain.json'), join(home, 'demo/chain.json'));
    await cp(join(REPO_ROOT, 'public/demo/documents/42-USC-1395ff.md'), join(home, 'demo/documents/42-USC-1395ff.md'));
    const seamscope = (...args: string[]) => runProcess('npx', ['--no', 'seamscope', ...args], home, { npm_config_update_notifier: 'false' });

    const validated = await seamscope('validate', 'demo/chain.json');
    expect(validated.stderr).toBe('');
    expect(validated).toMatchObject({ code: 0, stdout: expect.stringContaining('demo/chain.json: ok — "Select with quotes, then answer with the source"') });

    const ran = await seamscope('run', 'demo/chain.json', '--out', 'run.json');
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toContain('180');
    const runFile = parseRunFile(await readFile(join(home, 'run.json'), 'utf8'));
    expect(runFile.ok && runFile.file.run.status).toBe('succeeded');

    const inspected = await seamscope('inspect', 'run.json', '--json');
    expect(inspected.code, inspected.stderr).toBe(0);
    expect(JSON.parse(inspected.stdout)).toMatchObject({ format: 'seamscope.inspect', run: { status: 'succeeded' } });

    for (const lang of ['py', 'ts'] as const) {
      const exported = await seamscope('export', 'demo/chain.json', '--lang', lang, '--out', `export-${lang}`);
      expect(exported.code, exported.stderr).toBe(0);
      expect(await readdir(join(home, `export-${lang}`))).toContain(RUNTIME_DIR[lang]);
      // The bundle carries the runtime inlined (no sources are installed): the same files the repo's sources give.
      const runtime = join(home, `export-${lang}`, RUNTIME_DIR[lang]);
      const expected = await loadRuntimeSources(lang);
      const written = (await readdir(runtime)).filter((f) => f in expected);
      expect(written.sort()).toEqual(Object.keys(expected));
      for (const name of written) expect(await readFile(join(runtime, name), 'utf8'), name).toBe(expected[name]);
    }
    const program = (await readdir(join(home, 'export-py'))).find((f) => f.endsWith('.py')) ?? '';
    const help = await runProcess('python3', [program, '--help'], join(home, 'export-py'), {});
    expect(help.code, help.stderr).toBe(0);

    const refused = await seamscope('run', 'demo/chain.json', '--bogus');
    expect(refused).toMatchObject({ code: 1, stderr: expect.stringContaining('unknown option --bogus for "seamscope run"') });

    // collect writes on its writer thread, the bundle's collect-worker.mjs: a trace sent to it becomes a run file.
    const port = await freePort();
    const collect = spawn(process.execPath, [join(home, 'node_modules/seamscope/dist-cli/seamscope.mjs'), 'collect', '--port', String(port), '--dir', 'collected'], { cwd: home, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    collect.stdout.on('data', (d: Buffer) => void (out += d.toString()));
    collect.stderr.on('data', (d: Buffer) => void (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => collect.once('exit', resolve));
    try {
      await vi.waitFor(() => expect(out).toMatch(/and token /), { timeout: 30_000, interval: 100 });
      const provider = new TracerProvider({ spanProcessors: [new BatchSpanProcessor({ exporter: otlpTraceExporter({ url: `http://127.0.0.1:${port}`, encoding: 'protobuf' }) })] });
      recordAgentTrace(provider.getTracer('seamscope-test'));
      await provider.shutdown();
      await vi.waitFor(() => expect(out).toMatch(/^trace [0-9a-f]{32}: 3 spans → collected\/otlp-\w+\.run\.json /m), { timeout: 30_000, interval: 100 });
    } finally {
      collect.kill('SIGINT');
    }
    expect(await exited).toBe(0);
    expect((await readdir(join(home, 'collected'))).filter((f) => f.endsWith('.run.json'))).toHaveLength(1);
  }, 300_000);
});
