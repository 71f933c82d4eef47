import { createAnthropicProvider } from '../../providers/anthropic.ts';
import { createOpenAIProvider } from '../../providers/openai.ts';
import type { ModelProvider } from '../../providers/types.ts';
import type { RunModelSettings } from '../../engine/run.ts';

/** The two real HTTP providers, pointed at a mock model server: the battery's endpoints. */
export type Protocol = 'openai' | 'anthropic';

export const PROTOCOLS: readonly Protocol[] = ['openai', 'anthropic'];

export const BATTERY_KEY = 'battery-mock-key';

export function mockProvider(protocol: Protocol, url: string): ModelProvider {
  return protocol === 'openai'
    ? createOpenAIProvider({ baseUrl: `${url}/v1`, apiKey: BATTERY_KEY, structuredOutput: true })
    : createAnthropicProvider({ baseUrl: url, apiKey: BATTERY_KEY, structuredOutput: true });
}

export const mockModel: RunModelSettings = { name: 'mock-model', maxOutputTokens: 1024, structuredOutput: true };

/** Crude but deterministic and instant: the battery measures behaviour, not token counts. */
export const countTokens = (text: string): number => Math.ceil(text.length / 4);

/** The mock's model routes (its control routes are not model calls). */
export const isModelCall = (path: string): boolean => path.endsWith('/chat/completions') || path.endsWith('/messages');
