import { describe, expect, it } from 'vitest';
import { twoStepChain } from '../testing/chain-fixtures.ts';
import { parseChain } from './parse.ts';
import { stepRegistry } from '../steps/index.ts';

const paths = (input: unknown) => {
  const result = parseChain(typeof input === 'string' ? input : JSON.stringify(input), stepRegistry);
  if (result.ok) throw new Error('expected problems');
  return result.problems;
};

describe('parseChain', () => {
  it('accepts a sound chain and fills config defaults', () => {
    const result = parseChain(JSON.stringify(twoStepChain()), stepRegistry);
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.chain.steps[0]?.config.maxTokens).toBe(1024);
  });

  it('reports broken JSON plainly, without a stack trace', () => {
    const [problem] = paths('{"format": "seamscope.chain",');
    expect(problem?.path).toBe('$');
    expect(problem?.message).toMatch(/^the file is not valid JSON/);
    expect(problem?.message).not.toMatch(/at .*\.ts:\d+/);
  });

  it('rejects unknown and future format versions', () => {
    expect(paths({ ...twoStepChain(), version: 2 })[0]?.message).toContain('newer Seamscope');
    expect(paths({ ...twoStepChain(), version: '1' })[0]?.path).toBe('$.version');
    expect(paths({ ...twoStepChain(), format: 'langflow' })[0]?.path).toBe('$.format');
  });

  it('lists every problem with its JSON path', () => {
    const chain = twoStepChain() as unknown as { steps: { config: Record<string, unknown>; id: string }[]; name: unknown };
    chain.name = 42;
    chain.steps[0]!.id = 'has space';
    const problems = paths(chain);
    expect(problems.map((p) => p.path)).toEqual(expect.arrayContaining(['$.name', '$.steps[0].id']));
  });

  it('validates each step config against its kind, with paths into the config', () => {
    const chain = twoStepChain();
    chain.steps[0]!.config.maxTokens = 'lots';
    chain.steps[1]!.kind = 'teleport';
    const problems = paths(chain);
    expect(problems).toContainEqual(expect.objectContaining({ path: '$.steps[0].config.maxTokens' }));
    expect(problems).toContainEqual(expect.objectContaining({ path: '$.steps[1].kind', message: expect.stringContaining('unknown step kind "teleport"') }));
  });

  it('finds refs to nothing, placeholders that name nothing, and cycles', () => {
    const chain = twoStepChain();
    chain.steps[1]!.config.bindings = { facts: 'steps.nowhere.facts', question: 'inputs.question' };
    chain.steps[1]!.config.prompt = 'Facts: {facts} {missing}';
    const problems = paths(chain);
    expect(problems).toContainEqual({ path: '$.steps[1].config.bindings.facts', message: 'reads the step "nowhere", which does not exist' });
    expect(problems.some((p) => p.message.includes('{missing} names nothing'))).toBe(true);

    const cyclic = twoStepChain();
    cyclic.steps[0]!.config.bindings = { document: 'steps.answer' };
    cyclic.steps[0]!.config.prompt = '{document}';
    expect(paths(cyclic).some((p) => p.message.includes('form a cycle'))).toBe(true);
  });

  it('refuses hostile files: huge, deeply nested, __proto__ keys', () => {
    expect(paths(' '.repeat(11 * 1024 * 1024))[0]?.message).toContain('limited to 10 MB');
    const deep = '{"format":"seamscope.chain","meta":' + '['.repeat(5000) + ']'.repeat(5000) + '}';
    expect(paths(deep)[0]?.message).toContain('nesting is deeper');
    const proto = JSON.stringify(twoStepChain()).replace('"config":{', '"config":{"__proto__":{"polluted":true},');
    expect(paths(proto)[0]?.message).toContain('__proto__');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('accepts an already-parsed value as well as text', () => {
    expect(parseChain(twoStepChain(), stepRegistry).ok).toBe(true);
    expect(parseChain(null, stepRegistry).ok).toBe(false);
    expect(parseChain([], stepRegistry).ok).toBe(false);
  });
});
