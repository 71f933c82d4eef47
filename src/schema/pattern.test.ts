import { describe, expect, it } from 'vitest';
import { compilePattern } from './pattern.ts';
import { translatePattern } from './pattern-syntax.ts';

const test = (source: string, text: string) => {
  const r = compilePattern(source);
  if (!r.ok) throw new Error(r.problem);
  return r.pattern.test(text);
};

describe('linear-time schema patterns', () => {
  it('keep JavaScript\'s meaning (\\s, ., $, classes, escapes, pairs)', () => {
    const cases: [string, string][] = [
      ['\\s', '\u00a0'], ['\\s', 'x'], ['^.$', '\n'], ['^.$', '\u2028'], ['^.$', '😀'], ['^[^]$', '\n'], ['^[]$', ''], ['^\\S+$', 'a\u3000b'], ['^[\\S]+$', 'ab'],
      ['^\\d{3}-\\d{2}$', '123-45'], ['\\uD83D\\uDE00', '😀'], ['^\\u{1F600}$', '😀'], ['^a|b$', 'xb'], ['(?<y>\\d{4})', '2024'], ['[a-z-0]', '-'], ['\\bfoo\\b', 'afoo'],
      ['\\/x', '/x'], ['^\\x41\\t$', 'A\t'], ['^[\\w.-]+@x$', 'a.b-c@x'], ['^a$', 'a\n'], ['^(?:ab)*?c', 'ababc'], ['^\\cJ$', '\n'], ['[\\b]', '\b'], ['^\\0$', '\0'],
    ];
    for (const [source, text] of cases) expect(test(source, text), `${source} on ${JSON.stringify(text)}`).toBe(new RegExp(source, 'u').test(text));
  });

  it('finish on inputs that take a backtracking engine exponential time', () => {
    const long = `${'a'.repeat(10_000)}!`;
    for (const source of ['^(a+)+$', '^(a|a)*$', '^(a|aa)+$', '^(\\w+\\s?)*$', '(x+x+)+y']) expect(test(source, long)).toBe(false);
    expect(test('^(a+)+$', 'a'.repeat(10_000))).toBe(true);
  });

  it('refuse what RE2 cannot do in linear time, with a reason instead of a crash', () => {
    const problem = (source: string) => {
      const r = compilePattern(source);
      return r.ok ? null : r.problem;
    };
    expect(problem('(a)\\1')).toMatch(/backreferences/);
    expect(problem('(?<x>a)\\k<x>')).toMatch(/backreferences/);
    expect(problem('a(?=b)')).toMatch(/lookahead/);
    expect(problem('a(?!b)')).toMatch(/lookahead/);
    expect(problem('(?<=a)b')).toMatch(/lookbehind/);
    expect(problem('\\p{L}+')).toMatch(/Unicode property/);
    expect(problem('\\uD800')).toMatch(/lone surrogate/);
    expect(problem('a{1,5000}')).toMatch(/repeat count above 1000/);
    expect(problem('(')).toMatch(/not a valid regular expression/);
    expect(problem('[z-a]')).toMatch(/not a valid regular expression/);
  });
});

describe('the RE2-free check (pattern-syntax.ts)', () => {
  // Shapes near each of RE2's limits, and a seeded sweep of random patterns from pieces that
  // nest, repeat and alternate: the check without RE2 must refuse exactly what RE2 refuses.
  const edges = [
    '(?:a{1000}){1000}', '(a{999}){999}', '(?:a{10}){100}', '(?:a{10}){101}', '(?:(?:a{2}){2}){250}', '(?:(?:a{2}){2}){251}',
    '(?:a{0}){1000}', '(?:a{2,}){500}', '(?:a{2,}){501}', '(?:a*){1000}', '(?:a{1,3}b?){333}', '(?:a{1,3}b?){334}',
    `${'(?:'.repeat(250)}a${')*'.repeat(250)}`, `${'(?:'.repeat(251)}a${')'.repeat(251)}`, `${'(?:a|'.repeat(250)}b${')+'.repeat(250)}`,
    `(?:${'[a-z]\\s.'.repeat(400)}){1000}`, `(?:${'abc|'.repeat(400)}c){1000}`, '(?:(?:x{1000})|y)?', '^(?:\\d{3}-){1,300}\\d{3}$',
  ];
  const pieces = ['a', '\\d', '[x-z]', '.', '\\s', '(?:', ')', '|', '*', '+', '?', '{2}', '{3,7}', '{10,}', '{0,40}', '{100}', '{999}', '??', '^', '$'];
  let seed = 12345;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const sweep = Array.from({ length: 3000 }, () => Array.from({ length: 1 + rand(24) }, () => pieces[rand(pieces.length)]).join(''));

  it('agrees with RE2 on every pattern JavaScript can read', async () => {
    const { RE2JS } = await import('re2js');
    let valid = 0;
    let refusedByLimits = 0;
    for (const source of [...edges, ...sweep]) {
      try {
        new RegExp(source, 'u');
      } catch {
        continue;
      }
      valid++;
      const translated = translatePattern(source);
      let re2Ok = true;
      if (translated.ok) {
        try {
          RE2JS.compile(translated.re2);
        } catch {
          re2Ok = false;
        }
      }
      expect(re2Ok, `RE2 refused ${source}, which the check passed`).toBe(true);
      if (!translated.ok && /multiply|instructions|nested more/.test(translated.problem)) refusedByLimits++;
    }
    expect(valid).toBeGreaterThan(300);
    expect(refusedByLimits).toBeGreaterThan(5);
  });

  it('names each limit it refuses', () => {
    const problem = (source: string) => {
      const r = translatePattern(source);
      return r.ok ? null : r.problem;
    };
    expect(problem('(?:a{10}){101}')).toMatch(/nested repeat counts .* multiply to 1010, above 1000/);
    expect(problem(`${'(?:'.repeat(251)}a${')'.repeat(251)}`)).toMatch(/groups nested more than 250 deep/);
    expect(problem(`(?:${'abc|'.repeat(400)}c){1000}`)).toMatch(/expands to more than 1,000,000 instructions/);
    expect(problem('(?:a{10}){100}')).toBeNull();
    expect(compilePattern('(?:a{10}){101}')).toEqual({ ok: false, problem: problem('(?:a{10}){101}') });
  });
});
