import { mkdtemp, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseChain } from '../chain/parse.ts';
import { main } from '../cli/main.ts';
import { DEFAULT_SETTINGS, REPO_ROOT, runProcess, writeExport } from './conformance-harness.ts';
import { REDACTED } from '../providers/scrub.ts';
import { exportRunToOtlp } from '../trace/otlp/index.ts';
import { parseRunFile } from '../trace/run-file.ts';
import { createMockModelServer, type MockModelServer } from './mock-server.ts';
import { stepRegistry } from '../steps/index.ts';

/**
 * The canary key: an endpoint that echoes the key it was sent (in error messages and bodies,
 * in its answer text, in response headers) over real HTTP, run through the CLI with both
 * protocols. The key must appear in no output file, no stdout/stderr line, no OTLP export
 * and no exported program — while the mock proves it did receive it.
 */
const CANARY = 'sk-canary-7Hq2ZxW9pLmV4tRb';
const CANARY_PART = 'canary-7Hq2ZxW9pLmV4tRb';

let server: MockModelServer;
beforeAll(async () => {
  // Requires the canary, so a request without the key would fail loudly instead of echoing nothing.
  server = await createMockModelServer({ apiKey: CANARY, idleExitMs: 60_000 });
});
afterAll(() => server.close());

const schema = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'], additionalProperties: false };
const chain = {
  format: 'seamscope.chain', version: 1, id: 'canary', name: 'Canary',
  inputs: [{ name: 'question', schema: { type: 'string' }, example: 'How many days?' }],
  steps: [
    { id: 'first', kind: 'model', name: 'First', config: { bindings: { question: 'inputs.question' }, prompt: 'Answer: {question}', outputSchema: schema, retries: 1 } },
    { id: 'second', kind: 'model', name: 'Second', config: { bindings: { first: 'steps.first' }, prompt: 'Check: {first}', outputSchema: schema, retries: 0 } },
  ],
};

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const name of await readdir(dir)) {
    // An exported TypeScript program's folder links the project's node_modules: not its output.
    if (name === 'node_modules') continue;
    const path = join(dir, name);
    if ((await stat(path)).isDirectory()) out.push(...(await filesUnder(path)));
    else out.push(path);
  }
  return out;
}

describe.each([
  { protocol: 'openai', endpoint: () => `${server.url}/v1` },
  { protocol: 'anthropic', endpoint: () => server.url },
])('the canary key with the $protocol protocol', ({ protocol, endpoint }) => {
  it('reaches no run file, OTLP export, exported program or CLI output', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'seamscope-canary-'));
    const chainPath = join(dir, 'canary.chain.json');
    await writeFile(chainPath, JSON.stringify(chain));
    server.reset();
    // first: a 500 echoing the key (a transport retry), then an answer whose text is the key
    // (a schema violation, retried with feedback), then a valid answer; second: a 401 echoing it.
    server.enqueue({ fault: 'echo_key', status: 500 }, { fault: 'echo_key', status: 200 }, { content: { answer: '180 days' } }, { fault: 'echo_key', status: 401 });
    const out: string[] = [];
    const err: string[] = [];
    const io = { out: (t: string) => out.push(t), err: (t: string) => err.push(t), env: { SEAMSCOPE_API_KEY: CANARY } };
    const runPath = join(dir, 'out', 'canary.run.json');
    expect(await main(['run', chainPath, '--endpoint', endpoint(), '--protocol', protocol, '--model', 'm', '--out', runPath], io)).toBe(1);
    expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(4);
    expect(server.queued()).toBe(0);

    const runText = await readFile(runPath, 'utf8');
    // The echoes were recorded — scrubbed — so the test really saw them.
    expect(runText).toContain(REDACTED);
    expect(runText).toContain('Incorrect API key provided');
    const parsed = parseRunFile(runText);
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.file.events.some((e) => e.type === 'step.transport_retry')).toBe(true);
    expect(parsed.file.run.status).toBe('failed');
    const otlp = JSON.stringify(exportRunToOtlp(parsed.file.run, parsed.file.events));
    await writeFile(join(dir, 'out', 'canary.otlp.json'), otlp);

    for (const lang of ['ts', 'py']) {
      expect(await main(['export', chainPath, '--lang', lang, '--out', join(dir, `export-${lang}`), '--base-url', endpoint()], io)).toBe(0);
    }
    expect(await main(['export', chainPath, '--lang', 'ts', '--out', join(dir, 'bad'), '--base-url', `http://me:${CANARY}@127.0.0.1:1/v1`], io)).toBe(1);
    expect(await main(['inspect', runPath], io)).toBeLessThanOrEqual(1);

    const files = await filesUnder(dir);
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      if (file === chainPath) continue;
      const text = await readFile(file, 'utf8');
      expect(text.includes(CANARY_PART), file).toBe(false);
    }
    expect(err.join('\n')).toContain('Incorrect API key provided');
    expect([...out, ...err].join('\n')).not.toContain(CANARY_PART);
  }, 60_000);
});

describe.each(['ts', 'py'] as const)('the canary key in an exported %s program', (lang) => {
  it('reaches neither its trace file nor its output', async () => {
    const parsed = parseChain(chain, stepRegistry);
    if (!parsed.ok) throw new Error('fixture');
    const { dir, program } = await writeExport(parsed.chain, lang, DEFAULT_SETTINGS, 'seamscope-canary-export-');
    server.reset();
    server.enqueue({ fault: 'echo_key', status: 500 }, { fault: 'echo_key', status: 200 }, { content: { answer: '180 days' } }, { fault: 'echo_key', status: 401 });
    const command = lang === 'py' ? 'python3' : join(REPO_ROOT, 'node_modules/.bin/tsx');
    await writeFile(join(dir, 'inputs.json'), JSON.stringify({ question: 'How many days?' }));
    const result = await runProcess(command, [program, '--inputs', 'inputs.json', '--trace', 'trace.json'], dir, { SEAMSCOPE_BASE_URL: `${server.url}/v1`, SEAMSCOPE_API_KEY: CANARY, OPENAI_API_KEY: '' });
    expect(server.requests.filter((r) => r.method === 'POST'), result.stderr).toHaveLength(4);
    const trace = await readFile(join(dir, 'trace.json'), 'utf8');
    expect(trace).toContain(REDACTED);
    expect(trace).toContain('Incorrect API key provided');
    for (const file of await filesUnder(dir)) {
      expect((await readFile(file, 'utf8')).includes(CANARY_PART), file).toBe(false);
    }
    expect(`${result.stdout}\n${result.stderr}`).not.toContain(CANARY_PART);
    expect(result.code).not.toBe(0);
  }, 60_000);
});
