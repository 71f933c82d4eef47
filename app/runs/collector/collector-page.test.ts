import { describe, expect, it } from 'vitest';
import { asPage, cleanToken, collectorOrigin } from './collector-page.ts';

/**
 * The app's checks on what the person typed and on what a collector answered. Reading a page
 * from a real collector (a wrong token, the runs) is in e2e/collector.spec.ts; the collector's
 * side is src/collect/read-api.test.ts.
 */
describe('the collector address and token', () => {
  it('takes an origin, a bare host:port, or a URL with a path, and refuses the rest', () => {
    expect(collectorOrigin(' http://127.0.0.1:4318 ')).toEqual({ origin: 'http://127.0.0.1:4318' });
    expect(collectorOrigin('127.0.0.1:4318')).toEqual({ origin: 'http://127.0.0.1:4318' });
    expect(collectorOrigin('http://localhost:4318/v1/traces')).toEqual({ origin: 'http://localhost:4318' });
    expect(collectorOrigin('file:///etc/passwd')).toEqual({ problem: 'the address must start with http:// or https://' });
    expect(collectorOrigin('http://user:pw@127.0.0.1:4318')).toEqual({ problem: 'the address must not carry a user name or password' });
    expect(collectorOrigin('http://[')).toMatchObject({ problem: expect.stringMatching(/not a URL/) });
  });

  it('takes the token as the collector prints it, trimmed, and nothing else', () => {
    expect(cleanToken('  AbC_dEf-0123456789abcdefGHIJKLMN\n')).toBe('AbC_dEf-0123456789abcdefGHIJKLMN');
    for (const bad of ['has space inside', 'short', 'Bearer abcdefgh', 'a'.repeat(201), 'abcdefgh\u00e9']) expect(cleanToken(bad)).toBeNull();
  });
});

describe('a page from the collector', () => {
  it('is taken only in its shape', () => {
    const good = { collector: 'c', runs: [{ cursor: 1, name: 'a.run.json', text: '{}' }], next: 1, more: false, total: 3 };
    expect(asPage({ ...good, extra: 'dropped' })).toEqual(good);
    for (const bad of [null, [], 'text', { ...good, runs: {} }, { ...good, next: -1 }, { ...good, next: 1.5 }, { ...good, more: 'no' }, { ...good, total: undefined }, { ...good, total: 0 }, { ...good, collector: 1 }, { ...good, runs: [{ cursor: 1, name: 'a', text: {} }] }, { ...good, runs: Array(101).fill(good.runs[0]) }]) {
      expect(asPage(bad)).toBeNull();
    }
  });
});
