import { describe, expect, it } from 'vitest';
import { lintChain } from './lint.ts';
import { parseChain } from './parse.ts';
import { stepRegistry } from '../steps/index.ts';

function chainWith(outputSchema: unknown, inputSchema: unknown = { type: 'string' }) {
  return {
    format: 'seamscope.chain', version: 1, id: 'c', name: 'c',
    inputs: [{ name: 'doc', schema: inputSchema }],
    steps: [
      { id: 'ask', kind: 'model', name: 'Ask', config: { prompt: 'Read {doc}', bindings: { doc: 'inputs.doc' }, outputSchema } },
      { id: 'check', kind: 'gate', name: 'Check', config: { bindings: { value: 'steps.ask' }, check: { type: 'jsonSchema', schema: { type: 'object', properties: { n: { type: 'integr' } } } } } },
    ],
  };
}
const sound = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'], additionalProperties: false };

describe('every schema in a chain is checked at validate and import', () => {
  it('names the bad keyword of each schema: output, gate check and input', () => {
    const result = parseChain(JSON.stringify(chainWith({ ...sound, properties: { answer: { type: 'string', pattern: '(' } } }, { type: 'strin' })), stepRegistry);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((p) => p.path)).toEqual([
      '$.inputs[0].schema.type',
      '$.steps[0].config.outputSchema.properties.answer.pattern',
      '$.steps[1].config.check.schema.properties.n.type',
    ]);
  });

  it('refuses a $ref loop, a backreference and a lone surrogate in a pattern with their paths', () => {
    const loop = parseChain(chainWith({ $defs: { a: { $ref: '#/$defs/a' } }, ...sound, properties: { answer: { $ref: '#/$defs/a' } } }), stepRegistry);
    expect(!loop.ok && loop.problems[0]?.path).toBe('$.steps[0].config.outputSchema["$defs"].a["$ref"]');
    const backref = parseChain(chainWith({ ...sound, properties: { answer: { type: 'string', pattern: '(a)\\1' } } }), stepRegistry);
    expect(!backref.ok && backref.problems[0]?.message).toMatch(/backreferences .* linear time/);
    const surrogate = parseChain(chainWith({ ...sound, properties: { answer: { type: 'string', pattern: '^\\udc00' } } }), stepRegistry);
    expect(!surrogate.ok && surrogate.problems[0]?.path).toBe('$.steps[0].config.outputSchema.properties.answer.pattern');
  });

  it('lint reports an unenforced format as a warning and a schema broken after import as an error', () => {
    const parsed = parseChain(chainWith({ ...sound, properties: { answer: { type: 'string', format: 'uri' } } }, { type: 'string', format: 'email' }), stepRegistry);
    expect(parsed.ok).toBe(false); // the gate's integr
    const ok = parseChain({ ...chainWith({ ...sound, properties: { answer: { type: 'string', format: 'uri' } } }), steps: chainWith(sound).steps.slice(0, 1).map((s) => ({ ...s, config: { ...s.config, outputSchema: { ...sound, properties: { answer: { type: 'string', format: 'uri' } } } } })) }, stepRegistry);
    if (!ok.ok) throw new Error(JSON.stringify(ok.problems));
    const notes = lintChain(ok.chain, stepRegistry).filter((f) => f.code === 'format-not-enforced');
    expect(notes).toEqual([expect.objectContaining({ severity: 'warning', stepId: 'ask', message: expect.stringContaining('$.steps[0].config.outputSchema.properties.answer.format: the format "uri" is not enforced') })]);
    const edited = { ...ok.chain, steps: ok.chain.steps.map((s) => ({ ...s, config: { ...s.config, outputSchema: { type: 'strin' } } })) };
    expect(lintChain(edited, stepRegistry).filter((f) => f.code === 'invalid-schema').map((f) => f.severity)).toEqual(['error']);
  });
});
