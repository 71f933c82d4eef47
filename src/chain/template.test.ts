import { describe, expect, it } from 'vitest';
import { findPlaceholders, renderTemplate } from './template.ts';
import { getPath, resolveRef } from './refs.ts';

describe('templates', () => {
  it('replaces placeholders and leaves JSON braces alone', () => {
    const { text, missing } = renderTemplate('Q: {question} as {"answer": "…"} { } {a.b}', (p) => (p.binding === 'question' ? 'why?' : undefined));
    expect(text).toBe('Q: why? as {"answer": "…"} { } {a.b}');
    expect(missing).toEqual(['a.b']);
  });

  it('does not expand placeholders inside substituted values', () => {
    const { text } = renderTemplate('{a} {b}', (p) => (p.binding === 'a' ? '{b}' : 'B'));
    expect(text).toBe('{b} B');
  });

  it('finds placeholders with paths and positions', () => {
    expect(findPlaceholders('x {doc} y {sel.items.0}')).toEqual([
      { name: 'doc', binding: 'doc', path: [], index: 2 },
      { name: 'sel.items.0', binding: 'sel', path: ['items', '0'], index: 10 },
    ]);
  });
});

describe('refs', () => {
  it('resolves inputs and step outputs by path, and never walks the prototype chain', () => {
    const scope = { inputs: { q: 'hi' }, outputs: new Map<string, unknown>([['s', { items: [{ quote: 'x' }] }]]) };
    expect(resolveRef('inputs.q', scope)).toBe('hi');
    expect(resolveRef('steps.s.items.0.quote', scope)).toBe('x');
    expect(resolveRef('steps.s.constructor', scope)).toBeUndefined();
    expect(getPath({}, ['__proto__'])).toBeUndefined();
  });
});
