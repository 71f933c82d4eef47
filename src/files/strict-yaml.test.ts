import { describe, expect, it } from 'vitest';
import { parseStrictYaml } from './strict-yaml.ts';

const refusal = (text: string, options = {}) => {
  const read = parseStrictYaml(text, { fileName: 'c.yaml', ...options });
  if (read.ok) throw new Error(`accepted ${text.slice(0, 80)}`);
  return read;
};

const laughs = (levels: number) => ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  ...Array.from({ length: levels }, (_, i) => `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(9).fill(`*${String.fromCharCode(97 + i)}`).join(',')}]`)].join('\n');

describe('parseStrictYaml', () => {
  it('reads the core schema as plain values', () => {
    const read = parseStrictYaml('prompts:\n  - "Say {{topic}}"\nn: 3\nt: 0.5\nok: true\nnone: null\nblock: |\n  line one\n  line two\n');
    expect(read).toEqual({ ok: true, value: { prompts: ['Say {{topic}}'], n: 3, t: 0.5, ok: true, none: null, block: 'line one\nline two\n' } });
  });

  it('keeps a few aliases, as configs use them', () => {
    expect(parseStrictYaml('a: &v [1, 2]\nb: *v\n')).toEqual({ ok: true, value: { a: [1, 2], b: [1, 2] } });
  });

  it('refuses a key written twice, naming it, the file, line and column', () => {
    const read = refusal('a: 1\nb: 2\na: 3\n');
    expect(read.code).toBe('duplicate-key');
    expect(read.message).toBe('c.yaml:3:1: the key "a" appears twice in the same map');
  });

  it.each([
    ['custom', 'f: !foo x', '!foo'],
    ['js function', 'f: !!js/function "function () { return 1 }"', '!!js/function'],
    ['python object', 'o: !!python/object:os.system [ls]', '!!python/object:os.system'],
    ['binary', 'b: !!binary aGVsbG8=', '!!binary'],
    ['even str', 'x: !!str 5', '!!str'],
    ['on a map', 'm: !!set {a: null}', '!!set'],
  ])('refuses every explicit tag (%s)', (_name, text, tag) => {
    const read = refusal(text);
    expect(read.code).toBe('tag');
    expect(read.message).toContain(tag);
    expect(read.message).toMatch(/^c\.yaml:1:\d+: /);
  });

  it('refuses an alias bomb before it expands', () => {
    const read = refusal(laughs(8));
    expect(read.code).toBe('alias');
    expect(read.message).toContain('more than 100 copies');
  });

  it.each([
    ['flow', `${'['.repeat(100_000)}${']'.repeat(100_000)}`],
    ['block maps', Array.from({ length: 400 }, (_, i) => `${' '.repeat(i)}a:`).join('\n')],
    ['block lists', `${'- '.repeat(400)}x`],
  ])('refuses nesting deeper than the bound before building anything (%s)', (_name, text) => {
    const read = refusal(text);
    expect(read.code).toBe('depth');
    expect(read.message).toMatch(/^c\.yaml:1:\d+: nesting is deeper than 256 levels$|^c\.yaml:\d+:\d+: nesting is deeper than 256 levels$/);
  });

  it('refuses a file over the size cap without reading it', () => {
    const read = refusal(`a: "${'x'.repeat(3 * 1024 * 1024)}"`);
    expect(read.code).toBe('size');
  });

  it('refuses numbers that are not finite, several documents and broken syntax', () => {
    expect(refusal('n: .inf').code).toBe('non-finite');
    expect(refusal('a: 1\n---\nb: 2\n').message).toMatch(/^c\.yaml:2:1: .*multiple documents/);
    expect(refusal('a: [1, 2\n').code).toBe('syntax');
    expect(refusal('a: *missing').code).toBe('syntax');
  });

  it('keeps merge keys off: << is an ordinary key', () => {
    expect(parseStrictYaml('base: &b {x: 1}\nc:\n  <<: *b\n')).toEqual({ ok: true, value: { base: { x: 1 }, c: { '<<': { x: 1 } } } });
  });

  it('stores __proto__ as an own key, never as a prototype', () => {
    const read = parseStrictYaml('__proto__: {polluted: 1}\n');
    if (!read.ok) throw new Error(read.message);
    const value = read.value as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.hasOwn(value, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
