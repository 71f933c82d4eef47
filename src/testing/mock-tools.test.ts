import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { protocolValidators } from './corpus.ts';
import { createMockModelServer, type MockModelServer } from './mock-server.ts';

/** Tool calls and reasoning in the mock's answers hold to the corpus schemas (shapes nobody here wrote). */

let server: MockModelServer;
beforeAll(async () => {
  server = await createMockModelServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const v = protocolValidators();
const tool = { name: 'pick', schema: { type: 'object', properties: { label: { type: 'string', enum: ['a', 'b'] } }, required: ['label'], additionalProperties: false } };
const ask = [{ role: 'user', content: 'Pick a label for: something.' }];
const scripted = { content: 'Picking.', reasoning: 'Thinking it over.', toolCalls: [{ name: 'pick', arguments: { label: 'a' } }] };

function dataLines(text: string): unknown[] {
  return text.split('\n').filter((l) => l.startsWith('data: ') && l !== 'data: [DONE]').map((l) => JSON.parse(l.slice(6)) as unknown);
}

async function post(path: string, headers: Record<string, string>, body: unknown): Promise<Response> {
  return fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
}

describe('tool calls in the mock', () => {
  it.each(['2023-06-01', '2026-10-21'])('Anthropic %s: body and stream validate against the corpus schema', async (version) => {
    const headers = { 'anthropic-version': version };
    const body = { model: 'm', max_tokens: 300, messages: ask, tools: [{ name: tool.name, input_schema: tool.schema }] };
    server.enqueue(scripted, scripted);
    const message = (await (await post('/v1/messages', headers, body)).json()) as { content: { type: string }[] };
    expect(v.anthropic.message(message), v.anthropic.message.errors()).toBe(true);
    expect(message.content.map((b) => b.type)).toEqual(['thinking', 'text', 'tool_use']);
    const events = dataLines(await (await post('/v1/messages', headers, { ...body, stream: true })).text());
    for (const e of events) expect(v.anthropic.event(e), v.anthropic.event.errors()).toBe(true);
  });

  it('OpenAI: body and stream validate against the corpus schema', async () => {
    const body = { model: 'm', messages: ask, tools: [{ type: 'function', function: { name: tool.name, parameters: tool.schema, strict: true } }] };
    server.enqueue(scripted, scripted);
    const completion = await (await post('/v1/chat/completions', {}, body)).json();
    expect(v.openai.response(completion), v.openai.response.errors()).toBe(true);
    const chunks = dataLines(await (await post('/v1/chat/completions', {}, { ...body, stream: true })).text());
    for (const c of chunks) expect(v.openai.chunk(c), v.openai.chunk.errors()).toBe(true);
  });

  it('a forced tool with an enum gets arguments inside the enum, on both protocols', async () => {
    const oa = (await (await post('/v1/chat/completions', {}, { model: 'm', messages: ask, tools: [{ type: 'function', function: { name: 'pick', parameters: tool.schema } }], tool_choice: 'required' })).json()) as {
      choices: { message: { tool_calls: { function: { arguments: string } }[] } }[];
    };
    expect(['a', 'b']).toContain((JSON.parse(oa.choices[0]!.message.tool_calls[0]!.function.arguments) as { label: string }).label);
    const an = (await (await post('/v1/messages', { 'anthropic-version': '2023-06-01' }, { model: 'm', max_tokens: 100, messages: ask, tools: [{ name: 'pick', input_schema: tool.schema }], tool_choice: { type: 'tool', name: 'pick' } })).json()) as {
      content: { type: string; input: { label: string } }[];
    };
    expect(['a', 'b']).toContain(an.content.find((b) => b.type === 'tool_use')?.input.label);
  });

  it('a tool_choice naming an unknown tool is refused on both protocols', async () => {
    const oa = await post('/v1/chat/completions', {}, { model: 'm', messages: ask, tools: [{ type: 'function', function: { name: 'pick', parameters: tool.schema } }], tool_choice: { type: 'function', function: { name: 'nope' } } });
    expect(oa.status).toBe(400);
    const an = await post('/v1/messages', { 'anthropic-version': '2023-06-01' }, { model: 'm', max_tokens: 100, messages: ask, tools: [{ name: 'pick', input_schema: tool.schema }], tool_choice: { type: 'tool', name: 'nope' } });
    expect(an.status).toBe(400);
  });
});
