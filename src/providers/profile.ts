import * as z from 'zod';

/**
 * An endpoint profile: where to send model calls and what that endpoint can do. Profiles
 * never hold the API key; keys live apart (the app keeps them in their own store) and are
 * handed in only when a provider is created for a call.
 */
/**
 * Why a base URL may not be used, or null. A user name or password in it (`https://user:pass@host`)
 * is a credential in plain sight: it would be shown, stored with the profile, written into
 * exported code and sent in every request line's logs. Keys go in the key field, kept apart.
 */
export function baseUrlProblem(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'is not a valid URL';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'must be an http(s) address';
  if (parsed.username || parsed.password) return 'has a user name or password in it (user:pass@host); put the key in the API key field instead';
  return null;
}

export const endpointProfileSchema = z.object({
  id: z.string().min(1).max(100),
  name: z.string().min(1).max(200),
  kind: z.enum(['demo', 'openai', 'anthropic']),
  // Empty for the demo model; otherwise an http(s) address without userinfo.
  baseUrl: z.string().max(2000).default('').refine((url) => url === '' || baseUrlProblem(url) === null, { message: 'has a user name or password in it, or is not an http(s) address' }),
  model: z.string().min(1).max(200),
  contextWindow: z.number().int().positive().default(128_000),
  maxOutputTokens: z.number().int().positive().default(4096),
  structuredOutput: z.boolean().default(true),
  /**
   * Anthropic only: the `anthropic-version` sent; absent (as in profiles saved before it) means
   * the current one, 2026-10-21. 2023-06-01 keeps `temperature`, which 2026-10-21 refuses.
   */
  anthropicVersion: z.enum(['2026-10-21', '2023-06-01']).optional(),
  /** USD per million tokens, for cost per attempt, step and run. */
  prices: z.object({ input: z.number().min(0), output: z.number().min(0) }).default({ input: 0, output: 0 }),
});
export type EndpointProfile = z.infer<typeof endpointProfileSchema>;

/** The offline demo model: the default, so the app works with no key and no network. */
export const demoProfile: EndpointProfile = {
  id: 'demo',
  name: 'Demo model (offline, extractive)',
  kind: 'demo',
  baseUrl: '',
  model: 'seamscope-demo-1',
  contextWindow: 200_000,
  maxOutputTokens: 8192,
  structuredOutput: true,
  prices: { input: 0, output: 0 },
};

/** The model settings a run needs from its profile. */
export function runModelSettings(profile: EndpointProfile) {
  return { name: profile.model, maxOutputTokens: profile.maxOutputTokens, structuredOutput: profile.structuredOutput, contextWindow: profile.contextWindow, prices: profile.prices };
}
