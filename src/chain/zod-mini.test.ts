import { describe, expect, it } from 'vitest';
import { stepRegistry } from '../steps/index.ts';
import { chainSchema } from './schema.ts';

// This file imports only schemas written in zod/mini (as the app's first paint does): classic
// zod, which would register English itself, is never loaded here.
describe('schemas in zod/mini', () => {
  it('report problems in English, as classic zod words them', () => {
    const config = stepRegistry.get('model')?.config.safeParse({ prompt: 'Hi', maxTokens: 'many', temperature: 3 });
    expect(config?.success).toBe(false);
    expect(config?.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['temperature', 'Too big: expected number to be <=2'],
      ['maxTokens', 'Invalid input: expected number, received string'],
    ]);
    const chain = chainSchema.safeParse({ format: 'seamscope.chain', version: 1, id: '', name: 'x', inputs: [], steps: [] });
    expect(chain.error?.issues[0]?.message).toBe('Too small: expected string to have >=1 characters');
  });

  it('fill defaults and keep absent optional fields absent', () => {
    const config = stepRegistry.get('router')?.config.parse({});
    expect(config).toEqual({ bindings: {}, field: '', routes: [], defaultTo: null });
  });
});
