import { describe, expect, it } from 'vitest';
import { demoProfile, type EndpointProfile } from '../../src/providers/index.ts';
import { testConnection } from './connection-test.ts';

const profile: EndpointProfile = { ...demoProfile, id: 'p', kind: 'openai', baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3', structuredOutput: false };

describe('testConnection', () => {
  it('reports ok with the status when the endpoint answers, sending the key only in the header', async () => {
    let seen: { url: string; auth: string | null; body: string } | null = null;
    const fake: typeof fetch = async (url, init) => {
      seen = { url: String(url), auth: new Headers(init?.headers).get('authorization'), body: String(init?.body) };
      return new Response(JSON.stringify({ model: 'llama3', choices: [{ message: { content: 'OK' }, finish_reason: 'stop' }], usage: { prompt_tokens: 5, completion_tokens: 1 } }), { status: 200, headers: { 'content-type': 'application/json' } });
    };
    const result = await testConnection(profile, 'sk-secret', { fetch: fake });
    expect(result).toMatchObject({ ok: true, status: 200 });
    expect(seen!.url).toBe('http://127.0.0.1:11434/v1/chat/completions');
    expect(seen!.auth).toBe('Bearer sk-secret');
    expect(seen!.body).not.toContain('sk-secret');
  });

  it('reports the status and message of a refusal, and explains a fetch TypeError as CORS or a server that is down', async () => {
    const refuse: typeof fetch = async () => new Response(JSON.stringify({ error: { message: 'Incorrect API key provided' } }), { status: 401, headers: { 'content-type': 'application/json' } });
    const refused = await testConnection(profile, 'bad', { fetch: refuse });
    expect(refused).toMatchObject({ ok: false, status: 401 });
    expect(refused.message).toMatch(/refused the API key.*Incorrect API key/);
    const blocked: typeof fetch = async () => {
      throw new TypeError('Failed to fetch');
    };
    const failed = await testConnection(profile, undefined, { fetch: blocked, pageOrigin: 'http://127.0.0.1:4173' });
    expect(failed).toMatchObject({ ok: false, status: null });
    expect(failed.explanation?.lines.join('\n')).toContain('OLLAMA_ORIGINS=http://127.0.0.1:4173');
  });

  it('shows an error that echoes the key with the key scrubbed out', async () => {
    const key = 'canary-key-in-the-form-123';
    const echo: typeof fetch = async () => new Response(JSON.stringify({ error: { message: `Incorrect API key provided: ${key}` } }), { status: 401, headers: { 'content-type': 'application/json' } });
    const result = await testConnection(profile, key, { fetch: echo });
    expect(result.message).toContain('Incorrect API key provided: [redacted]');
    expect(result.message).not.toContain(key);
  });
});
