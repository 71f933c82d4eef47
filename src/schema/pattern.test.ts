import { describe, expect, it } from 'vitest';
import { compilePattern } from './pattern.ts';

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
