import { describe, expect, it } from 'vitest';
import { schemaProblems } from './schema-problems.ts';

const errors = (schema: unknown) => schemaProblems(schema).filter((p) => p.severity === 'error').map((p) => ({ path: p.path.join('/'), message: p.message }));

describe('checking a schema before it is used', () => {
  it('accepts sound schemas, recursive ones included', () => {
    expect(schemaProblems({ type: 'object', properties: { a: { type: 'string', pattern: '^[a-z]+$', format: 'email' } }, required: ['a'] })).toEqual([]);
    expect(schemaProblems({ $defs: { n: { type: 'object', properties: { next: { $ref: '#/$defs/n' } } } }, $ref: '#/$defs/n' })).toEqual([]);
    expect(schemaProblems(true)).toEqual([]);
  });

  it('an uncompilable pattern, with its path', () => {
    expect(errors({ properties: { code: { type: 'string', pattern: '(' } } })).toEqual([
      { path: 'properties/code/pattern', message: 'the pattern "(" is not a valid regular expression: /(/u: Unterminated group' },
    ]);
    expect(errors({ patternProperties: { '[': {} } })[0]?.path).toBe('patternProperties/[');
  });

  it('a misspelt type, with its path', () => {
    expect(errors({ type: 'object', properties: { n: { type: 'strin' } } })).toEqual([
      { path: 'properties/n/type', message: '"strin" is not a JSON Schema type (one of null, boolean, object, array, number, string, integer)' },
    ]);
    expect(errors({ type: ['string', 'nul'] })[0]?.path).toBe('type/1');
  });

  it('a $ref loop, a dangling $ref and a remote one', () => {
    expect(errors({ $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } }, $ref: '#/$defs/a' })[0]).toEqual({
      path: '$defs/a/$ref', message: 'the $ref loops (#/$defs/a → #/$defs/b → #/$defs/a) without reading any part of the value',
    });
    expect(errors({ $ref: '#' })[0]?.path).toBe('$ref');
    expect(errors({ allOf: [{ $ref: '#' }] })[0]?.path).toBe('allOf/0/$ref');
    expect(errors({ properties: { x: { $ref: '#/$defs/missing' } } })).toEqual([{ path: 'properties/x/$ref', message: '"#/$defs/missing" points to nothing in this schema' }]);
    expect(errors({ $ref: 'https://example.com/s.json' })[0]?.message).toMatch(/only local refs .* nothing is fetched/);
  });

  it('a lone surrogate: an ordinary name in properties, refused inside a pattern', () => {
    expect(errors({ type: 'object', properties: { 'bad\ud800': { type: 'string' } }, required: ['bad\ud800'] })).toEqual([]);
    expect(errors({ properties: { a: { pattern: '^\\uD800$' } } })[0]?.path).toBe('properties/a/pattern');
    expect(errors({ patternProperties: { '\udc00': {} } })[0]?.message).toMatch(/lone surrogate/);
  });

  it('patterns RE2 cannot match in linear time: backreferences and lookaround', () => {
    expect(errors({ pattern: '(a)\\1' })[0]).toEqual({ path: 'pattern', message: 'the pattern "(a)\\\\1" is not supported: backreferences (\\1) cannot be matched in linear time' });
    expect(errors({ pattern: '^(?=.*\\d)' })[0]?.message).toMatch(/lookahead/);
    expect(errors({ properties: { p: { pattern: '(?<!x)y' } } })[0]?.path).toBe('properties/p/pattern');
  });

  it('keyword values of the wrong shape, and keywords this validator does not evaluate', () => {
    expect(errors({ minLength: -1, maxItems: 1.5, required: 'a', multipleOf: 0, anyOf: [], exclusiveMaximum: true }).map((e) => e.path)).toEqual(
      ['required', 'minLength', 'maxItems', 'exclusiveMaximum', 'multipleOf', 'anyOf'],
    );
    expect(errors({ properties: { a: { unevaluatedProperties: false } } })[0]?.path).toBe('properties/a/unevaluatedProperties');
    expect(errors({ properties: { a: 'string' } })[0]).toEqual({ path: 'properties/a', message: 'must be a JSON Schema (an object, or true or false)' });
  });

  it('reports a format that is not enforced as a note, never silently', () => {
    expect(schemaProblems({ properties: { site: { type: 'string', format: 'uri' } } })).toEqual([{
      path: ['properties', 'site', 'format'], severity: 'note',
      message: 'the format "uri" is not enforced: values are not checked against it (enforced: date, time, date-time, email, uuid, ipv4, hostname); add a pattern if the shape matters',
    }]);
  });
});
