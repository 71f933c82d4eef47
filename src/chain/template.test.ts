import { describe, expect, it } from 'vitest';
import { compileTemplate, findPlaceholders, renderTemplate } from './template.ts';
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

describe('compiled templates (cached per template string)', () => {
  const literalsOf = (template: string) => {
    const out: string[] = [];
    let last = 0;
    for (const p of findPlaceholders(template)) {
      out.push(template.slice(last, p.index));
      last = p.index + p.name.length + 2;
    }
    return [...out, template.slice(last)];
  };
  const cases = ['', 'no placeholders, {"json": 1} { }', '{a}', '{a}{b.c.0} tail', 'x {doc} y {sel.items.0}', 'line {a}\n{b}\n{"x": {c}}', '{a} and {a} again'];

  it('finds what findPlaceholders finds, with the literal text around it', () => {
    for (const template of cases) {
      const compiled = compileTemplate(template);
      expect(compiled.placeholders).toEqual(findPlaceholders(template));
      expect(compiled.literals).toEqual(literalsOf(template));
      expect(compiled.literals).toHaveLength(compiled.placeholders.length + 1);
    }
  });

  it('reuses the compiled form for the same string and compiles a changed template anew', () => {
    const first = compileTemplate('Hello {name}, see {doc.title}');
    expect(compileTemplate('Hello {name}, see {doc.title}')).toBe(first);
    const changed = compileTemplate('Hello {name}, see {doc.body}');
    expect(changed).not.toBe(first);
    expect(changed.placeholders.map((p) => p.name)).toEqual(['name', 'doc.body']);
    expect(first.placeholders.map((p) => p.name)).toEqual(['name', 'doc.title']);
  });

  it('is frozen, so no caller can change what the next one gets', () => {
    const compiled = compileTemplate('{a.b} {c}');
    expect(Object.isFrozen(compiled)).toBe(true);
    expect(Object.isFrozen(compiled.placeholders)).toBe(true);
    expect(Object.isFrozen(compiled.placeholders[0])).toBe(true);
    expect(Object.isFrozen(compiled.placeholders[0]?.path)).toBe(true);
    expect(Object.isFrozen(compiled.literals)).toBe(true);
    // findPlaceholders still hands out fresh arrays.
    expect(findPlaceholders('{a.b} {c}')).not.toBe(findPlaceholders('{a.b} {c}'));
  });

  it('stays bounded: after many distinct templates an early one is compiled again, with the same result', () => {
    const early = compileTemplate('early {x}');
    for (let i = 0; i < 1000; i++) compileTemplate(`template ${i} {v${i}}`);
    const again = compileTemplate('early {x}');
    expect(again).not.toBe(early);
    expect(again).toEqual(early);
    // A template over the size bound is compiled but not kept.
    const huge = `${'x'.repeat(4_000_001)} {tail}`;
    expect(compileTemplate(huge).placeholders.map((p) => p.name)).toEqual(['tail']);
    expect(compileTemplate(huge)).not.toBe(compileTemplate(huge));
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
