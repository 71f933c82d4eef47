import type { EndpointProfile } from '../../src/providers/index.ts';
import { loadProviderModule } from '../persistence/connection.ts';
import { explainNetworkFailure, type NetworkExplanation } from './cors-hint.ts';

/**
 * "Test connection": one tiny request through the real provider (the same code a run uses),
 * so what it reports is what a run would meet: ok, or the status and the endpoint's message,
 * or, when the browser got no answer at all, what to check (CORS on local servers).
 */
export interface ConnectionResult {
  ok: boolean;
  status: number | null;
  message: string;
  ms: number;
  explanation?: NetworkExplanation;
}

export async function testConnection(profile: EndpointProfile, apiKey: string | undefined, opts: { fetch?: typeof fetch; timeoutMs?: number; pageOrigin?: string } = {}): Promise<ConnectionResult> {
  const { createProviderForProfile, ProviderErrorClass } = await loadProviderModule().then(async (m) => ({
    createProviderForProfile: m.createProviderForProfile,
    ProviderErrorClass: (await import('../../src/providers/index.ts')).ProviderError,
  }));
  const provider = createProviderForProfile(profile, { apiKey, browser: true });
  const started = performance.now();
  const doFetch = opts.fetch ?? globalThis.fetch.bind(globalThis);
  try {
    const response = await provider.call(
      { model: profile.model, messages: [{ role: 'user', content: 'Reply with the word OK.' }], maxTokens: 8, temperature: 0 },
      { fetch: doFetch, signal: AbortSignal.timeout(opts.timeoutMs ?? 15_000) },
    );
    const ms = Math.round(performance.now() - started);
    return { ok: true, status: response.status, message: `${response.model || profile.model} answered in ${ms} ms`, ms };
  } catch (error) {
    const ms = Math.round(performance.now() - started);
    // An endpoint may echo the key in its error: the form shows the message scrubbed, like a run's record.
    const scrub = provider.scrubber ?? (await import('../../src/providers/index.ts')).shapeScrubber;
    if (error instanceof ProviderErrorClass) {
      const result: ConnectionResult = { ok: false, status: error.status, message: scrub.text(error.message), ms };
      if (error.code === 'network') result.explanation = explainNetworkFailure(profile.baseUrl, opts.pageOrigin ?? globalThis.location?.origin ?? '');
      return result;
    }
    return { ok: false, status: null, message: scrub.text((error as Error).message), ms };
  }
}
