import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockModelServer, type MockModelServer } from './mock-server.ts';

let server: MockModelServer;
beforeAll(async () => {
  server = await createMockModelServer();
});
afterAll(() => server.close());

// The mock generates structured output with the demo model, which checks `pattern` in linear time.
describe('the mock server with a catastrophic pattern in the response schema', () => {
  it('answers a json_schema request whose pattern is ^(a+)+$ over 10,000-character text', async () => {
    const hostile = `${'a'.repeat(10_000)}!`;
    const schema = { type: 'object', properties: { code: { type: 'string', pattern: '^(a+)+$' } }, required: ['code'], additionalProperties: false };
    const res = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-mock', messages: [{ role: 'user', content: `Code: ${hostile}` }], response_format: { type: 'json_schema', json_schema: { name: 'out', schema, strict: true } } }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { choices: { message: { content: string } }[] };
    expect(JSON.parse(body.choices[0]?.message.content ?? 'null')).toEqual(expect.objectContaining({ code: expect.any(String) }));
  });
});
