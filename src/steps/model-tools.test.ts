import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { lintChain } from '../chain/lint.ts';
import type { Chain } from '../chain/schema.ts';
import { stepRegistry } from './index.ts';
import { runChain } from '../engine/run.ts';
import { createAnthropicProvider } from '../providers/anthropic.ts';
import { createOpenAIProvider } from '../providers/openai.ts';
import type { ModelProvider } from '../providers/types.ts';
import { createMockModelServer, type MockModelServer } from '../testing/mock-server.ts';
import type { AttemptRecord, TraceEvent } from '../trace/events.ts';
import { createMemoryRunRepository } from '../trace/repository.ts';

/**
 * A model step that declares tools, over real HTTP (the mock server) through both providers:
 * a forced call's arguments are the output, validated and retried like JSON; a reply that
 * only calls tools on an unforced step fails with the calls named, never as an empty answer.
 */

let server: MockModelServer;
beforeAll(async () => {
  server = await createMockModelServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const parameters = { type: 'object', properties: { days: { type: 'integer', minimum: 1 }, basis: { type: 'string' } }, required: ['days', 'basis'], additionalProperties: false };

function chain(config: Record<string, unknown>): Chain {
  return {
    format: 'seamscope.chain', version: 1, id: 'tools', name: 'Tools',
    inputs: [{ name: 'document', schema: { type: 'string' }, trust: 'trusted', required: true }],
    steps: [
      {
        id: 'deadline', kind: 'model', name: 'Deadline', position: { x: 0, y: 0 },
        config: { bindings: { document: 'inputs.document' }, prompt: 'How many days to appeal? {document}', tools: [{ name: 'record_deadline', description: 'Record the deadline', parameters }], retries: 1, ...config },
      },
      { id: 'final', kind: 'output', name: 'Final', position: { x: 280, y: 0 }, config: { bindings: { value: 'steps.deadline' } } },
    ],
  };
}

const providers: Record<string, () => ModelProvider> = {
  openai: () => createOpenAIProvider({ baseUrl: `${server.url}/v1` }),
  anthropic: () => createAnthropicProvider({ baseUrl: server.url }),
};

async function run(protocol: string, config: Record<string, unknown>, stream = false) {
  const repo = createMemoryRunRepository();
  const meta = await runChain({
    chain: chain({ ...config, stream }), inputs: { document: 'Appeals must be filed within 180 days.' }, provider: providers[protocol]!(),
    model: { name: 'mock-model', maxOutputTokens: 1024, structuredOutput: true }, repo, countTokens: (t) => Math.ceil(t.length / 4),
  });
  const events = await repo.getEvents(meta.id);
  const attempts = events.filter((e): e is Extract<TraceEvent, { type: 'step.attempt' }> => e.type === 'step.attempt').map((e) => e.record as AttemptRecord);
  return { meta, attempts };
}

describe.each(['openai', 'anthropic'])('model step with tools over %s', (protocol) => {
  it.each([false, true])('a forced named tool: its arguments are the output (stream %s)', async (stream) => {
    const { meta, attempts } = await run(protocol, { toolChoice: { name: 'record_deadline' } }, stream);
    expect(meta.status).toBe('succeeded');
    expect(attempts).toHaveLength(1);
    const [attempt] = attempts;
    expect(attempt?.toolCalls?.[0]).toMatchObject({ name: 'record_deadline', id: expect.any(String) });
    expect(attempt?.output).toEqual(JSON.parse(attempt?.toolCalls?.[0]?.arguments ?? 'null'));
    expect(meta.output).toMatchObject({ days: expect.any(Number), basis: expect.any(String) });
    // The tool went out in the protocol's own shape, with no json_schema beside it.
    const sent = server.requests[0]?.body as Record<string, unknown>;
    expect(sent.tool_choice).toEqual(protocol === 'openai' ? { type: 'function', function: { name: 'record_deadline' } } : { type: 'tool', name: 'record_deadline' });
    expect(sent).not.toHaveProperty(protocol === 'openai' ? 'response_format' : 'output_config');
  });

  it('arguments that break the tool schema are retried with feedback, like a JSON answer', async () => {
    server.enqueue({ content: '', toolCalls: [{ name: 'record_deadline', arguments: { days: 0, basis: 'x' } }] }, { content: '', toolCalls: [{ name: 'record_deadline', arguments: { days: 180, basis: 'the text' } }] });
    const { meta, attempts } = await run(protocol, { toolChoice: 'required' });
    expect(meta.status).toBe('succeeded');
    expect(attempts.map((a) => a.failure)).toEqual(['schema_violation', undefined]);
    expect(attempts[0]?.feedback).toBeTruthy();
    // The failed call is replayed as text, so no protocol's tool-turn rules are broken.
    expect(attempts[1]?.messages.at(-2)?.content).toContain('(called tool record_deadline with {"days":0');
    expect(meta.output).toEqual({ days: 180, basis: 'the text' });
  });

  it('a forced tool answered with text only fails as no_tool_call, naming what came back', async () => {
    server.enqueue({ content: 'It is 180 days.' }, { content: 'Still text.' });
    const { meta, attempts } = await run(protocol, { toolChoice: 'required' });
    expect(meta.status).toBe('failed');
    expect(attempts.map((a) => a.failure)).toEqual(['no_tool_call', 'no_tool_call']);
    expect(attempts[0]?.errors[0]).toContain('answered in text: It is 180 days.');
  });

  it('a tool-only reply on an unforced step is a named failure, not an empty answer', async () => {
    server.enqueue(...[1, 2].map(() => ({ content: '', toolCalls: [{ name: 'record_deadline', arguments: { days: 180, basis: 'b' } }] })));
    const { meta, attempts } = await run(protocol, { toolChoice: 'auto' });
    expect(meta.status).toBe('failed');
    expect(attempts[0]).toMatchObject({ failure: 'tool_call', toolCalls: [{ name: 'record_deadline' }] });
    expect(attempts[0]?.errors[0]).toContain('called record_deadline instead of answering');
  });

  it('reasoning reaches the attempt record', async () => {
    server.enqueue({ content: '', reasoning: 'The text says 180.', toolCalls: [{ name: 'record_deadline', arguments: { days: 180, basis: 'text' } }] });
    const { attempts } = await run(protocol, { toolChoice: { name: 'record_deadline' } }, true);
    expect(attempts[0]?.reasoning).toBe('The text says 180.');
  });
});

describe('lint of a tool choice', () => {
  it.each([
    [{ toolChoice: { name: 'missing_tool' } }, 'tool-choice-unknown'],
    [{ tools: [], toolChoice: 'required' }, 'tool-choice-without-tools'],
  ])('a choice that forces nothing it names is an error (%j)', (config, code) => {
    const findings = lintChain(chain(config), stepRegistry);
    expect(findings.find((f) => f.code === code)).toMatchObject({ severity: 'error', stepId: 'deadline' });
  });

  it('a choice naming a declared tool lints clean of tool findings', () => {
    expect(lintChain(chain({ toolChoice: { name: 'record_deadline' } }), stepRegistry).filter((f) => f.code.startsWith('tool-choice'))).toEqual([]);
  });
});
