import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { runChain } from '../../src/engine/index.ts';
import { createProviderForProfile, demoProfile, runModelSettings, type EndpointProfile } from '../../src/providers/profiles.ts';
import { twoStepChain } from '../../src/testing/index.ts';
import { exportRunToOtlp } from '../../src/trace/otlp/index.ts';
import { createMemoryRunRepository } from '../../src/trace/index.ts';
import { toRunFile } from '../../src/trace/index.ts';
import { SeamscopeDb } from '../persistence/db.ts';
import { loadProfiles, saveProfile } from '../persistence/profiles.ts';

const KEY = 'sk-live-THIS-MUST-NEVER-LEAK-0123456789';

/**
 * Keys stay on the device and out of everything that can leave it: the trace of a run made
 * with a key, its OTLP export and run file, and the profile records (chain export writes the
 * chain object alone, which has no place for a key).
 */
describe('API keys are kept apart', () => {
  it('never appear in a run trace, its OTLP export or run file, though the endpoint received them', async () => {
    const profile: EndpointProfile = { ...demoProfile, id: 'p', kind: 'openai', baseUrl: 'http://127.0.0.1:9/v1', model: 'gpt-4.1-mini' };
    const headers: string[] = [];
    const fetchStub: typeof fetch = async (_url, init) => {
      headers.push(new Headers(init?.headers).get('authorization') ?? '');
      const body = JSON.parse(String(init?.body)) as { messages: { content: string }[] };
      const content = body.messages.at(-1)?.content.includes('List the facts') ? '{"facts":["a"]}' : '{"answer":"b"}';
      return new Response(JSON.stringify({ model: 'gpt-4.1-mini', choices: [{ message: { content }, finish_reason: 'stop' }], usage: { prompt_tokens: 3, completion_tokens: 2 } }), { status: 200, headers: { 'content-type': 'application/json' } });
    };
    const repo = createMemoryRunRepository();
    const events: unknown[] = [];
    const meta = await runChain({
      chain: twoStepChain(), inputs: { document: 'Doc.', question: 'Q?' }, provider: createProviderForProfile(profile, { apiKey: KEY, browser: true }),
      model: runModelSettings(profile), repo, fetch: fetchStub, onEvent: (e) => events.push(e),
    });
    expect(meta.status).toBe('succeeded');
    expect(headers.every((h) => h === `Bearer ${KEY}`)).toBe(true);
    const stored = await repo.getEvents(meta.id);
    for (const text of [JSON.stringify(events), JSON.stringify(stored), JSON.stringify(meta), JSON.stringify(exportRunToOtlp(meta, stored)), JSON.stringify(toRunFile(meta, [...stored]))]) {
      expect(text).not.toContain(KEY);
    }
  });

  it('live in their own table: profile records never carry them', async () => {
    const db = new SeamscopeDb('key-isolation');
    const profile: EndpointProfile = { ...demoProfile, id: 'p2', kind: 'openai', baseUrl: 'https://api.example.com/v1', model: 'm' };
    await saveProfile(db, profile, KEY);
    expect(JSON.stringify(await db.profiles.toArray())).not.toContain(KEY);
    expect(JSON.stringify(await loadProfiles(db))).not.toContain(KEY);
    expect((await db.secrets.get('p2'))?.apiKey).toBe(KEY);
    await db.delete();
  });
});
