import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from './main.ts';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (t: string) => out.push(t), err: (t: string) => err.push(t), env: {} }, out, err };
}

const chain = (outputSchema: unknown) => ({
  format: 'seamscope.chain', version: 1, id: 'x', name: 'x', inputs: [{ name: 'doc', schema: { type: 'string' } }],
  steps: [{ id: 'a', kind: 'model', name: 'A', config: { prompt: '{doc}', bindings: { doc: 'inputs.doc' }, outputSchema } }],
});

describe('seamscope validate checks every schema before anything runs', () => {
  const broken: [string, unknown, string][] = [
    ['an uncompilable pattern', { type: 'object', properties: { a: { type: 'string', pattern: '(' } } }, '$.steps[0].config.outputSchema.properties.a.pattern'],
    ['a misspelt type', { type: 'object', properties: { a: { type: 'strin' } } }, '$.steps[0].config.outputSchema.properties.a.type'],
    ['a $ref loop', { $defs: { a: { $ref: '#/$defs/a' } }, $ref: '#/$defs/a' }, '$.steps[0].config.outputSchema["$defs"].a["$ref"]'],
    ['a lone surrogate in a pattern', { type: 'object', properties: { a: { type: 'string', pattern: '[\\uDC00]' } } }, '$.steps[0].config.outputSchema.properties.a.pattern'],
    ['a draft-04 boolean exclusiveMaximum', { type: 'number', exclusiveMaximum: true }, '$.steps[0].config.outputSchema.exclusiveMaximum'],
    ['a lookahead', { type: 'string', pattern: '^(?=a)' }, '$.steps[0].config.outputSchema.pattern'],
  ];
  it('accepts a chain whose format is not enforced, and says so', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'seamscope-'));
    const file = join(dir, 'uri.chain.json');
    await writeFile(file, JSON.stringify(chain({ type: 'object', properties: { site: { type: 'string', format: 'uri' }, to: { type: 'string', format: 'email' } } })));
    const { io, out, err } = capture();
    expect(await main(['validate', file], io)).toBe(0);
    expect(out.join('\n')).toContain(': ok');
    expect(err).toEqual([expect.stringMatching(/^note: \$\.steps\[0\]\.config\.outputSchema\.properties\.site\.format: the format "uri" is not enforced/)]);
  });

  for (const [kind, schema, path] of broken) {
    it(`refuses ${kind}, naming ${path}`, async () => {
      const dir = await mkdtemp(join(tmpdir(), 'seamscope-'));
      const file = join(dir, 'bad.chain.json');
      await writeFile(file, JSON.stringify(chain(schema)));
      const { io, err } = capture();
      expect(await main(['validate', file], io)).toBe(1);
      expect(err.join('\n')).toContain(path);
    });
  }
});
