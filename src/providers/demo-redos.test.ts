import { describe, expect, it } from 'vitest';
import { generateDemoOutput } from './demo-model.ts';
import { conforms } from './demo-schema.ts';

// A backtracking RegExp takes exponential time on these; the demo model matches schema
// patterns in linear time, so each call returns (the assertion is that it completes).
const hostile = `${'a'.repeat(10_000)}!`;
const schema = {
  type: 'object',
  properties: { code: { type: 'string', pattern: '^(a+)+$' }, note: { type: 'string' } },
  required: ['code', 'note'],
  additionalProperties: false,
};

describe('the demo model with a catastrophic pattern', () => {
  it('checks a 10,000-character value against ^(a+)+$ and answers', () => {
    expect(conforms(schema.properties.code, hostile, schema)).toBe(false);
    expect(conforms(schema.properties.code, 'a'.repeat(10_000), schema)).toBe(true);
  });

  it('generates output for a prompt full of the hostile text', () => {
    const text = generateDemoOutput([{ role: 'user', content: `Code: ${hostile}\nNote: ${hostile}` }], schema);
    expect(JSON.parse(text)).toEqual(expect.objectContaining({ code: expect.any(String) }));
  });
});
