import { describe, expect, it } from 'vitest';
import { twoStepChain } from '../testing/chain-fixtures.ts';
import { createScriptedProvider } from '../testing/scripted-provider.ts';
import { createMemoryRunRepository } from '../trace/repository.ts';
import { runChain } from './run.ts';
import { createSchemaValidator } from './validate.ts';

const model = { name: 'test-model', maxOutputTokens: 4096, structuredOutput: true };
const hostile = `${'a'.repeat(10_000)}!`;

// `^(a+)+$` takes a backtracking engine exponential time (40 characters: over 90 s); these assert completion.
function redosChain() {
  const chain = twoStepChain();
  chain.inputs[0] = { ...chain.inputs[0], schema: { type: 'string', pattern: '^(a+)+$' } } as (typeof chain.inputs)[0];
  const extract = chain.steps[0] as { config: Record<string, unknown> };
  extract.config.outputSchema = { type: 'object', properties: { facts: { type: 'array', items: { type: 'string', pattern: '^(a+)+$' }, maxItems: 5 } }, required: ['facts'], additionalProperties: false };
  return chain;
}

describe('engine validation', () => {
  it('refuses a hostile input against ^(a+)+$ before any model call', async () => {
    const provider = createScriptedProvider([]);
    const meta = await runChain({ chain: redosChain(), inputs: { document: hostile, question: 'q' }, provider, model, repo: createMemoryRunRepository(), countTokens: (t) => t.length });
    expect(meta.status).toBe('failed');
    expect(meta.error).toContain('must match pattern "^(a+)+$"');
    expect(provider.requests).toHaveLength(0);
  });

  it('checks hostile model output against ^(a+)+$ and retries with the feedback', async () => {
    const provider = createScriptedProvider([{ facts: [hostile] }, { facts: ['aaa'] }, { answer: 'ok' }]);
    const meta = await runChain({ chain: redosChain(), inputs: { document: 'aaaa', question: 'q' }, provider, model, repo: createMemoryRunRepository(), countTokens: (t) => t.length });
    expect(meta.status).toBe('succeeded');
    expect(provider.requests[1]?.messages.at(-1)?.content).toContain('/facts/0: must match pattern "^(a+)+$"');
  });

  it('enforces format: email', () => {
    const v = createSchemaValidator();
    expect(v.validate({ type: 'object', properties: { to: { type: 'string', format: 'email' } } }, { to: 'nobody' })).toEqual(['/to: must match format "email"']);
  });
});
