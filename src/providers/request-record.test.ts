import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callModelWithRetries, defaultTransportPolicy } from '../engine/call-model.ts';
import { readCorpus } from '../testing/corpus.ts';
import { createFixtureServer, type FixtureServer } from '../testing/fixture-server.ts';
import { createAnthropicProvider } from './anthropic.ts';
import { createOpenAIProvider } from './openai.ts';
import { REDACTED } from './scrub.ts';
import type { ModelProvider, ModelRequest } from './types.ts';

/**
 * The request as sent is recorded with the configured key taken out (and nothing else: a prompt
 * keeps its words). The providers seal that record from the JSON text they send when the text
 * shows no key, so these check both sides of that decision on real providers and real replies.
 */
const KEY = 'sk-record-test-key-0123456789';

let server: FixtureServer;
beforeAll(async () => {
  server = await createFixtureServer();
});
afterAll(() => server.close());

const providers: { name: string; make: () => ModelProvider; reply: string }[] = [
  { name: 'OpenAI', make: () => createOpenAIProvider({ baseUrl: `${server.url}/v1`, apiKey: KEY }), reply: readCorpus('openai-recorded/openai-text.response.json') },
  { name: 'Anthropic', make: () => createAnthropicProvider({ baseUrl: server.url, apiKey: KEY }), reply: readCorpus('anthropic-recorded/anthropic-text.response.json') },
];

const ask = (content: string): ModelRequest => ({ model: 'm', maxTokens: 50, messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content }] });

async function record(provider: ModelProvider, req: ModelRequest) {
  const { response } = await callModelWithRetries({
    provider, fetch: globalThis.fetch, signal: new AbortController().signal, now: Date.now, emit: () => undefined,
    policy: { ...defaultTransportPolicy, maxAttempts: 1 },
  }, 's', req);
  const sent = server.requests.at(-1)?.body ?? '';
  return { recorded: JSON.stringify(response.requestBody), sent };
}

describe.each(providers)('$name: the request as recorded', ({ make, reply }) => {
  it('a prompt that names the key is sent as typed and recorded without the key', async () => {
    server.reply({ body: reply });
    const { recorded, sent } = await record(make(), ask(`My key is ${KEY}, keep it safe.`));
    expect(sent).toContain(KEY);
    expect(recorded).not.toContain(KEY);
    expect(recorded).toContain(`My key is ${REDACTED}, keep it safe.`);
  });

  it('a key beside a character JSON escapes as \\u (so the text cannot vouch for it) is still taken out', async () => {
    server.reply({ body: reply });
    const { recorded, sent } = await record(make(), ask(`tab\u0001${KEY}`));
    expect(JSON.parse(sent)).toBeTruthy();
    expect(recorded).not.toContain(KEY);
  });

  it('a prompt without the key is recorded exactly as sent, key shapes and all', async () => {
    server.reply({ body: reply });
    // A key shape that is not the configured key stays: the request is kept as the model saw it.
    const { recorded, sent } = await record(make(), ask('Send "Authorization: Bearer abcdefgh" with sk-not-ours-123456 please.'));
    expect(JSON.parse(recorded)).toEqual(JSON.parse(sent));
  });

  it('an answer handled before the body is sealed (it is sealed once the request went out) is recorded alike', async () => {
    // A fetch that answers at once: the call's record is built before the deferred seal runs.
    let sent = '';
    const instant = (async (_url: string | URL | Request, init?: RequestInit) => {
      sent = String(init?.body);
      return new Response(reply, { status: 200, headers: { 'content-type': 'application/json' } });
    }) as typeof fetch;
    const call = (content: string) => callModelWithRetries({
      provider: make(), fetch: instant, signal: new AbortController().signal, now: Date.now, emit: () => undefined,
      policy: { ...defaultTransportPolicy, maxAttempts: 1 },
    }, 's', ask(content));
    const named = JSON.stringify((await call(`My key is ${KEY}.`)).response.requestBody);
    expect(sent).toContain(KEY);
    expect(named).not.toContain(KEY);
    expect(named).toContain(`My key is ${REDACTED}.`);
    const clean = (await call('Nothing secret here.')).response.requestBody;
    expect(clean).toEqual(JSON.parse(sent));
  });
});
