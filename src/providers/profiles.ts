import { createAnthropicProvider } from './anthropic.ts';
import { createDemoProvider } from './demo-model.ts';
import { createOpenAIProvider } from './openai.ts';
import type { EndpointProfile } from './profile.ts';
import type { ModelProvider } from './types.ts';

// Profiles and their schema live in profile.ts (light, for the app's first paint); this module
// builds providers and pulls in every protocol client.
export { baseUrlProblem, demoProfile, endpointProfileSchema, runModelSettings, type EndpointProfile } from './profile.ts';

export interface ProviderOptions {
  apiKey?: string;
  /** True in a browser tab: Anthropic needs an explicit header to accept direct calls. */
  browser?: boolean;
}

export function createProviderForProfile(profile: EndpointProfile, opts: ProviderOptions = {}): ModelProvider {
  switch (profile.kind) {
    case 'demo':
      return createDemoProvider();
    case 'openai':
      return createOpenAIProvider({ baseUrl: profile.baseUrl, apiKey: opts.apiKey, structuredOutput: profile.structuredOutput });
    case 'anthropic':
      return createAnthropicProvider({ baseUrl: profile.baseUrl, apiKey: opts.apiKey, structuredOutput: profile.structuredOutput, browser: opts.browser, apiVersion: profile.anthropicVersion });
  }
}

