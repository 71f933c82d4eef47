import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { protocolValidators } from './corpus.ts';
import { createMockModelServer, type MockModelServer } from './mock-server.ts';

/** What differs between Anthropic API versions in the mock, and the routes beside /v1/messages. */

let server: MockModelServer;
beforeAll(async () => {
  server = await createMockModelServer();
});
afterAll(() => server.close());

const v = protocolValidators();
const ask = { role: 'user', content: 'Hello' };
const doc = { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'A document.' } };

async function post(path: string, version: string, body: unknown): Promise<{ status: number; json: { error?: { type: string; message: string } } & Record<string, unknown> }> {
  const res = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'anthropic-version': version }, body: JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as never };
}

describe('Anthropic API versions in the mock', () => {
  it.each([
    ['temperature', { temperature: 0.5 }, 'temperature: Extra inputs are not permitted'],
    ['top_p', { top_p: 0.9 }, 'top_p: Extra inputs are not permitted'],
    ['a document block in an assistant turn', { messages: [ask, { role: 'assistant', content: [doc] }, ask] }, 'document blocks are not allowed in assistant messages'],
    ['citations on a user text block', { messages: [{ role: 'user', content: [{ type: 'text', text: 'x', citations: [{ type: 'char_location', cited_text: 'x' }] }] }] }, 'citations are not allowed'],
  ])('2026-10-21 refuses %s, 2023-06-01 takes it', async (_label, extra, message) => {
    const body = { model: 'm', max_tokens: 20, messages: [ask], ...extra };
    const current = await post('/v1/messages', '2026-10-21', body);
    expect(current.status).toBe(400);
    expect(v.anthropic.error(current.json)).toBe(true);
    expect(current.json.error?.message).toContain(message);
    expect((await post('/v1/messages', '2023-06-01', body)).status).toBe(200);
  });

  it('an unknown version is refused with the API wording', async () => {
    const res = await post('/v1/messages', '2024-01-01', { model: 'm', max_tokens: 5, messages: [ask] });
    expect(res.status).toBe(400);
    expect(res.json.error?.message).toBe('anthropic-version: invalid version "2024-01-01"');
  });

  it('count_tokens refuses generation fields and answers only input_tokens', async () => {
    const counted = await post('/v1/messages/count_tokens', '2026-10-21', { model: 'm', messages: [ask] });
    expect(counted).toEqual({ status: 200, json: { input_tokens: expect.any(Number) } });
    const withMax = await post('/v1/messages/count_tokens', '2026-10-21', { model: 'm', max_tokens: 5, messages: [ask] });
    expect(withMax.json.error?.message).toBe('max_tokens: Extra inputs are not permitted');
  });

  it('other /v1/messages paths answer 404 in Anthropic shape; a default 429 carries retry-after', async () => {
    const missing = await post('/v1/messages/batches/x', '2026-10-21', {});
    expect(missing.status).toBe(404);
    expect(missing.json.error?.type).toBe('not_found_error');
    server.enqueue({ fault: 'status', status: 429 });
    const res = await fetch(`${server.url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' }, body: JSON.stringify({ model: 'm', max_tokens: 5, messages: [ask] }) });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('1');
  });
});
