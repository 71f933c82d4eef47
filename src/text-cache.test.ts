import { describe, expect, it } from 'vitest';
import { TextCache } from './text-cache.ts';

describe('TextCache', () => {
  it('drops the least recently used text past its count bound', () => {
    const cache = new TextCache<number>({ texts: 2, chars: 1000 });
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1);
    cache.set('c', 3);
    expect(cache.get('b')).toBeUndefined();
    expect([cache.get('a'), cache.get('c')]).toEqual([1, 3]);
  });

  it('drops old texts past its character bound and never keeps one longer than it', () => {
    const cache = new TextCache<string>({ texts: 100, chars: 10 });
    cache.set('12345', 'x');
    cache.set('678901', 'y');
    expect(cache.get('12345')).toBeUndefined();
    expect(cache.get('678901')).toBe('y');
    expect(cache.set('x'.repeat(11), 'z')).toBe('z');
    expect(cache.get('x'.repeat(11))).toBeUndefined();
  });
});
