import { z } from 'zod';

/**
 * An endpoint profile: where to send model calls and what that endpoint can do. Profiles
 * never hold the API key; keys live apart (the app keeps them in their own store) and are
 * handed in only when a provider is created for a call.
 */
export const endpointProfileSchema = z.object({
  id: z.string().min(1).max(100),
  name: z.string().min(1).max(200),
  kind: z.enum(['demo', 'openai', 'anthropic']),
  baseUrl: z.string().max(2000).default(''),
  model: z.string().min(1).max(200),
  contextWindow: z.number().int().positive().default(128_000),
  maxOutputTokens: z.number().int().positive().default(4096),
  structuredOutput: z.boolean().default(true),
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
