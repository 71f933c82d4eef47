import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseChain } from '../chain/parse.ts';
import type { Chain } from '../chain/schema.ts';
import { runChain } from '../engine/run.ts';
import { createAnthropicProvider } from '../providers/anthropic.ts';
import { stepRegistry } from '../steps/index.ts';
import { exportProgram } from './export-chain.ts';
import { decisions, DEFAULT_SETTINGS, REPO_ROOT, runProcess, writeExport } from '../testing/conformance-harness.ts';
import { createMockModelServer, type MockReply } from '../testing/mock-server.ts';
import { createMemoryRunRepository } from '../trace/repository.ts';

/**
 * The exported TypeScript program runs on the engine, so it speaks every protocol the engine
 * does: pointed at the mock's Anthropic Messages endpoint (SEAMSCOPE_PROTOCOL=anthropic), it
 * sends the engine's request bodies there, with the key from the environment in `x-api-key`,
 * and ends the run as the engine does, retry with feedback included.
 */
const KEY = 'sk-ant-export-test-key-0000';
const answer = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'], additionalProperties: false };
const parsed = parseChain({
  format: 'seamscope.chain', version: 1, id: 'fixture-anthropic', name: 'Draft, then answer (Anthropic)',
  inputs: [{ name: 'question', schema: { type: 'string' }, trust: 'untrusted', example: 'How many days to appeal?' }],
  steps: [
    { id: 'draft', kind: 'model', name: 'Draft', config: { bindings: { question: 'inputs.question' }, system: 'Be brief.', prompt: 'Draft an answer: {question}', outputSchema: answer, retries: 1 } },
    { id: 'answer', kind: 'model', name: 'Answer', config: { bindings: { draft: 'steps.draft.answer' }, prompt: 'Tighten: {draft}', outputSchema: answer, stream: true } },
    { id: 'out', kind: 'output', name: 'Out', config: { bindings: { value: 'steps.answer.answer' } } },
  ],
}, stepRegistry);
if (!parsed.ok) throw new Error(parsed.problems.map((p) => p.message).join('; '));
const chain: Chain = parsed.chain;
const inputs = { question: 'How many days to appeal?' };
const replies: MockReply[] = [{ content: 'not JSON at all' }];

async function withMock<T>(fn: (url: string) => Promise<T>) {
  const mock = await createMockModelServer({ apiKey: KEY });
  try {
    mock.enqueue(...replies);
    const result = await fn(mock.url);
    return { result, requests: [...mock.requests] };
  } finally {
    await mock.close();
  }
}

describe('an exported TypeScript program against an Anthropic endpoint', () => {
  it('sends the engine\'s Messages requests and ends the run as the engine does', async () => {
    const runId = 'anthropic-export';
    const engine = await withMock(async (url) => {
      const repo = createMemoryRunRepository();
      const meta = await runChain({
        chain, inputs, runId, repo, provider: createAnthropicProvider({ baseUrl: url, apiKey: KEY }),
        model: { name: DEFAULT_SETTINGS.model, maxOutputTokens: DEFAULT_SETTINGS.maxOutputTokens, structuredOutput: true, contextWindow: DEFAULT_SETTINGS.contextWindow },
      });
      return { meta, events: await repo.getEvents(meta.id) };
    });
    const { dir, program } = await writeExport(chain, 'ts', DEFAULT_SETTINGS);
    try {
      await writeFile(join(dir, 'inputs.json'), JSON.stringify(inputs));
      const exported = await withMock((url) => runProcess(join(REPO_ROOT, 'node_modules/.bin/tsx'), [program, '--inputs', 'inputs.json', '--trace', 'trace.json', '--run-id', runId], dir, {
        SEAMSCOPE_PROTOCOL: 'anthropic', SEAMSCOPE_BASE_URL: url, ANTHROPIC_API_KEY: KEY, SEAMSCOPE_API_KEY: '', OPENAI_API_KEY: '',
      }));
      expect(exported.result.code, exported.result.stderr).toBe(0);
      const file = JSON.parse(await readFile(join(dir, 'trace.json'), 'utf8')) as { run: { status: string; output?: unknown }; events: unknown[] };
      expect(engine.result.meta.status).toBe('succeeded');
      expect(file.run.status).toBe(engine.result.meta.status);
      expect(file.run.output).toEqual(engine.result.meta.output);
      expect(decisions(file.events as never[])).toEqual(decisions(engine.result.events));
      expect(decisions(engine.result.events).join('\n')).toContain('draft attempt 1: invalid_json');
      // Every call went to the Messages API, with the key from the environment (the mock refuses any other).
      expect(exported.requests.map((r) => `${r.protocol} ${r.path}`)).toEqual(Array(3).fill('anthropic /v1/messages'));
      expect(exported.requests.every((r) => r.headers['x-api-key'] === '[redacted]' && r.headers['anthropic-version'])).toBe(true);
      expect(exported.requests.map((r) => r.body)).toEqual(engine.requests.map((r) => r.body));
      // The key is in no file of the export and in no line the program wrote.
      expect(`${exported.result.stdout}${exported.result.stderr}${JSON.stringify(file)}`).not.toContain(KEY);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('an Anthropic profile exported from the app', () => {
  const endpoint = { protocol: 'anthropic' as const, baseUrl: 'https://api.anthropic.com', model: 'claude-sonnet-4-5', maxOutputTokens: 8192 };

  it('writes its protocol, address and model into the TypeScript program, so it calls Anthropic by default', async () => {
    const { program, notes } = exportProgram(chain, { lang: 'ts', endpoint });
    expect(program.contents).toMatch(/export const ENDPOINT: Partial<rt\.EndpointSettings> = \{[^}]*protocol: 'anthropic'[^}]*baseUrl: 'https:\/\/api\.anthropic\.com'[^}]*model: 'claude-sonnet-4-5'/);
    expect(notes).toEqual([]);
    const { resolveSettings } = await import('../runtime/run.ts');
    expect(resolveSettings({ protocol: 'anthropic', baseUrl: 'https://api.anthropic.com' }, {}, {})).toMatchObject({ protocol: 'anthropic', baseUrl: 'https://api.anthropic.com' });
  });

  it('leaves it out of a Python program, which speaks OpenAI-compatible only, and says so', () => {
    const { program, notes } = exportProgram(chain, { lang: 'py', endpoint });
    expect(program.contents).not.toContain('api.anthropic.com');
    expect(program.contents).not.toContain('claude-sonnet-4-5');
    expect(notes.join(' ')).toContain('The Python runtime calls OpenAI-compatible endpoints only');
  });
});
