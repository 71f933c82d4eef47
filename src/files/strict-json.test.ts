import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatJsonPath, parseStrictJson } from './strict-json.ts';

const refusal = (text: string) => {
  const read = parseStrictJson(text);
  if (read.ok) throw new Error(`accepted ${text}`);
  return read;
};

/** A small deterministic generator of JSON values, to compare with JSON.parse. */
function randomValue(seed: { n: number }, depth = 0): unknown {
  const next = () => (seed.n = (seed.n * 1103515245 + 12345) % 2147483648) / 2147483648;
  const pick = Math.floor(next() * (depth > 4 ? 5 : 7));
  const strings = ['', 'a', 'é', '"q"', 'back\\slash', 'line\nbreak', '\u0000\u001b[2J', '\u202e', '😀', '\ud800', '__proto__', 'constructor'];
  switch (pick) {
    case 0: return null;
    case 1: return next() < 0.5;
    case 2: return Math.floor(next() * 1e6) - 5e5;
    case 3: return (next() - 0.5) * 10 ** Math.floor(next() * 600 - 300);
    case 4: return strings[Math.floor(next() * strings.length)];
    case 5: return Array.from({ length: Math.floor(next() * 5) }, () => randomValue(seed, depth + 1));
    default: {
      const out: Record<string, unknown> = {};
      const count = Math.floor(next() * 5);
      for (let i = 0; i < count; i++) Object.defineProperty(out, `${strings[Math.floor(next() * strings.length)]}${i}`, { value: randomValue(seed, depth + 1), enumerable: true, writable: true, configurable: true });
      return out;
    }
  }
}

describe('parseStrictJson', () => {
  it('reads what JSON.parse reads, for generated values and every demo chain', () => {
    const seed = { n: 7 };
    for (let i = 0; i < 500; i++) {
      const text = JSON.stringify(randomValue(seed), null, i % 2 ? 2 : undefined);
      expect(parseStrictJson(text)).toEqual({ ok: true, value: JSON.parse(text) });
    }
    const demo = new URL('../../public/demo/', import.meta.url);
    for (const name of readdirSync(demo).filter((n) => n.endsWith('.json'))) {
      const text = readFileSync(new URL(name, demo), 'utf8');
      expect(parseStrictJson(text), name).toEqual({ ok: true, value: JSON.parse(text) });
    }
  });

  it('reads escapes, scalars at the root and a leading byte-order mark', () => {
    expect(parseStrictJson(String.raw`"\u0041\n\t\/\"\\\ud83d\ude00"`)).toEqual({ ok: true, value: 'A\n\t/"\\😀' });
    expect(parseStrictJson(' 12.5e-1 ')).toEqual({ ok: true, value: 1.25 });
    expect(parseStrictJson('-0')).toEqual({ ok: true, value: -0 });
    expect(parseStrictJson('\ufeff{"a":[]}')).toEqual({ ok: true, value: { a: [] } });
    expect(parseStrictJson('[[],{},[{}]]')).toEqual({ ok: true, value: [[], {}, [{}]] });
  });

  it('refuses a key written twice, with the path of the second one', () => {
    const read = refusal('{"steps": [{"id": "a", "config": {"prompt": "shown", "prompt": "run"}}]}');
    expect(formatJsonPath(read.path)).toBe('$.steps[0].config.prompt');
    expect(read.message).toMatch(/"prompt" appears twice.*line 1, column 54/);
    // The same key in different objects is fine.
    expect(parseStrictJson('[{"a":1},{"a":2}]').ok).toBe(true);
    // Two keys that are equal once escapes are read are the same key.
    expect(formatJsonPath(refusal('{"a": 1, "\\u0061": 2}').path)).toBe('$.a');
  });

  it('refuses numbers that overflow to Infinity, with their path', () => {
    const read = refusal('{"inputs": [{"schema": {"maxLength": 1e400}}]}');
    expect(formatJsonPath(read.path)).toBe('$.inputs[0].schema.maxLength');
    expect(read.message).toContain('1e400 is too large');
    expect(refusal('[-1e309]').message).toContain('-Infinity');
    expect(formatJsonPath(refusal('[1, 2, 1' + '0'.repeat(400) + ']').path)).toBe('$[2]');
    // Underflow to zero is a representable number, as in JSON.parse.
    expect(parseStrictJson('1e-400')).toEqual({ ok: true, value: 0 });
  });

  it('refuses what JSON does not allow, with line and column', () => {
    for (const bad of ['', '{', '[1,]', '{"a":1,}', '{a:1}', "{'a':1}", 'NaN', 'Infinity', '01', '1.', '.5', '+1', '1e', '"\\x"', '"\\u12"', '"a\nb"', 'tru', 'nul', '[1] 2', '{"a" 1}', '// c\n1', '"open']) {
      expect(parseStrictJson(bad).ok, JSON.stringify(bad)).toBe(false);
    }
    expect(refusal('{\n  "a": [1,\n   x]\n}').message).toMatch(/line 3, column 4/);
  });

  it('keeps "__proto__" an own key and never touches a prototype', () => {
    const read = parseStrictJson('{"__proto__": {"polluted": true}, "constructor": 1}');
    expect(read.ok).toBe(true);
    const value = (read as { value: Record<string, unknown> }).value;
    expect(Object.keys(value)).toEqual(['__proto__', 'constructor']);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(value).toEqual(JSON.parse('{"__proto__": {"polluted": true}, "constructor": 1}'));
  });

  it('refuses nesting past the limit without overflowing the stack', () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const read = refusal(deep);
    expect(read.message).toContain('deeper than 512');
    expect(parseStrictJson('[[[]]]', { maxDepth: 2 }).ok).toBe(false);
    expect(parseStrictJson('[[]]', { maxDepth: 2 }).ok).toBe(true);
  });

  it('is linear: many keys and a long string read quickly', () => {
    const many = `{${Array.from({ length: 200_000 }, (_, i) => `"k${i}":${i}`).join(',')}}`;
    const long = JSON.stringify('x'.repeat(5_000_000) + '\\"');
    const started = performance.now();
    expect(parseStrictJson(many).ok).toBe(true);
    expect(parseStrictJson(long).ok).toBe(true);
    expect(performance.now() - started).toBeLessThan(5000);
  });
});

describe('the native fast path agrees with the strict reader', () => {
  it('reads valid text as JSON.parse does, whatever its strings hold', () => {
    const texts = [
      '{"a":"\\":","b":["\\"c\\":",{"d" : 1}],"e\\\\":2}',
      '{"__proto__":{"x":1},"k":"v"}',
      '\ufeff{"bom":true}',
      '[{"a":1},{"a":1},{"a":{"a":{"a":[]}}}]',
      '"just a string with \\"a\\": inside"',
      '{"x":-0,"y":1e308,"z":[1.5e-300]}',
    ];
    for (const text of texts) {
      const read = parseStrictJson(text);
      expect(read.ok, text).toBe(true);
      if (read.ok) expect(read.value).toEqual(JSON.parse(text.replace(/^\ufeff/, '')));
    }
    const proto = parseStrictJson('{"__proto__":{"polluted":true}}');
    expect(proto.ok && Object.hasOwn(proto.value as object, '__proto__')).toBe(true);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it('still refuses a key written twice wherever it hides, with its path', () => {
    const cases: [string, (string | number)[]][] = [
      ['{"a":"\\"a\\":","a":1}', ['a']],
      ['{"outer":[{"k":1},{"k":2,"k" :3}]}', ['outer', 1, 'k']],
      ['{"e\\\\":1,"e\\\\":2}', ['e\\']],
      ['{"__proto__":1,"__proto__":2}', ['__proto__']],
    ];
    for (const [text, path] of cases) {
      const read = parseStrictJson(text);
      expect(read.ok, text).toBe(false);
      if (!read.ok) {
        expect(read.code).toBe('duplicate-key');
        expect(read.path).toEqual(path);
      }
    }
  });

  it('still refuses a number that overflows and nesting past the limit', () => {
    const big = parseStrictJson('{"n":[1,2,1e400]}');
    expect(!big.ok && big.code).toBe('non-finite');
    const deep = parseStrictJson(`${'['.repeat(6)}${']'.repeat(6)}`, { maxDepth: 5 });
    expect(!deep.ok && deep.code).toBe('depth');
    expect(parseStrictJson(`${'['.repeat(5)}${']'.repeat(5)}`, { maxDepth: 5 }).ok).toBe(true);
  });
});
