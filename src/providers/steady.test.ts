import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from '../testing/free-port.ts';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusPath } from '../testing/corpus.ts';
import { ProviderError } from './errors.ts';
import { createOpenAIProvider } from './openai.ts';
import type { ModelRequest } from './types.ts';

/**
 * Request conformance against something nobody here wrote: `steady` (@stdy/cli, the mock
 * OpenAI's own SDK tests run against) serving the published OpenAPI spec. It answers 400
 * with E-coded diagnostics for any body that breaks the spec, so every request shape our
 * OpenAI provider can send is checked against the real schema.
 *
 * Observed behaviour (steady 0.22.2): it serves the spec's paths at the root (`/chat/completions`,
 * no `/v1`), streams only when the request says `accept: text/event-stream`, and ends a stream
 * with `event: done` instead of `data: [DONE]`.
 */

const STEADY = fileURLToPath(new URL('../../node_modules/.bin/steady', import.meta.url));

let steady: ChildProcess | undefined;
let baseUrl = '';
let output = '';


async function waitUntilHealthy(url: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (steady?.exitCode !== null) throw new Error(`steady exited early:\n${output}`);
    try {
      const res = await fetch(`${url}/_x-steady/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`steady did not become healthy:\n${output}`);
}

beforeAll(async () => {
  const port = await freePort();
  steady = spawn(STEADY, ['--host', '127.0.0.1', '-p', String(port), '--quiet', '--no-color', corpusPath('openai-openapi.yaml')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  steady.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  steady.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  baseUrl = `http://127.0.0.1:${port}`;
  await waitUntilHealthy(baseUrl);
}, 60_000);

afterAll(async () => {
  const child = steady;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  // The npm wrapper forwards SIGTERM to the native server it started.
  child.kill('SIGTERM');
  await exited;
});

const request: ModelRequest = {
  model: 'gpt-4.1-mini',
  maxTokens: 64,
  temperature: 0.2,
  messages: [
    { role: 'system', content: 'Answer in JSON.' },
    { role: 'user', content: 'How many days to appeal?' },
  ],
};
const contract = {
  name: 'appeal_window',
  strict: true,
  schema: { type: 'object', properties: { days: { type: 'integer' }, quote: { type: 'string' } }, required: ['days', 'quote'], additionalProperties: false },
};

/** Records steady's verdict header for each call the provider makes. */
function verdictFetch(verdicts: (string | null)[], statuses: number[]): typeof fetch {
  return async (input, init) => {
    const res = await fetch(input, init);
    verdicts.push(res.headers.get('x-steady-request-valid'));
    statuses.push(res.status);
    return res;
  };
}

function provider(extra: Partial<Parameters<typeof createOpenAIProvider>[0]> = {}) {
  // Steady's own headers make the stream short and fast; they are ignored by real servers.
  return createOpenAIProvider({ baseUrl, apiKey: 'sk-steady', extraHeaders: { 'x-steady-stream-interval-ms': '1', 'x-steady-stream-count': '3' }, ...extra });
}

describe('OpenAI request bodies pass steady’s validation against the published spec', () => {
  it('plain request', async () => {
    const verdicts: (string | null)[] = [];
    const statuses: number[] = [];
    const res = await provider().call(request, { fetch: verdictFetch(verdicts, statuses) });
    expect(statuses).toEqual([200]);
    expect(verdicts).toEqual(['true']);
    expect(res.status).toBe(200);
  });

  it('structured output (response_format json_schema, strict) with max_completion_tokens', async () => {
    const verdicts: (string | null)[] = [];
    const statuses: number[] = [];
    await provider({ maxTokensParam: 'max_completion_tokens' }).call({ ...request, contract }, { fetch: verdictFetch(verdicts, statuses) });
    expect(statuses).toEqual([200]);
    expect(verdicts).toEqual(['true']);
  });

  it('streaming request is accepted (steady ends streams without [DONE], so only the 400 matters)', async () => {
    const verdicts: (string | null)[] = [];
    const statuses: number[] = [];
    try {
      await provider().call({ ...request, contract, stream: true }, { fetch: verdictFetch(verdicts, statuses) });
    } catch (err) {
      expect(err).toBeInstanceOf(ProviderError);
      expect((err as ProviderError).code).not.toBe('bad_request');
    }
    expect(statuses).toEqual([200]);
    expect(verdicts).toEqual(['true']);
  });

  it('a malformed body sent by hand gets steady’s 400 diagnosis', async () => {
    const res = await fetch(`${baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer sk-steady' },
      body: JSON.stringify({ model: 'gpt-4.1-mini', messages: [{ role: 'wizard', content: 'hi' }], max_tokens: 'ten' }),
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('x-steady-request-valid')).toBe('false');
    const body = (await res.json()) as { steady: { errors: { code: string; path: string }[] } };
    const found = body.steady.errors.map((e) => `${e.code} ${e.path}`);
    expect(found).toContain('E3008 body.max_tokens');
    expect(found.some((f) => f.includes('body.messages.0.role'))).toBe(true);
  });

  it('the provider surfaces steady’s 400 as bad_request with its text', async () => {
    const err = await provider()
      .call({ ...request, maxTokens: 1.5 }, { fetch })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).code).toBe('bad_request');
    expect((err as ProviderError).message).toContain('400');
    expect((err as ProviderError).message).toContain('Validation failed');
  });
});
