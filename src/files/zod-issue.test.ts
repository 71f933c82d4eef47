import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { firstIssue } from './zod-issue.ts';

describe('firstIssue', () => {
  it('names the first problem by its JSON path', () => {
    const schema = z.object({ items: z.array(z.object({ id: z.string() })), 'odd key': z.number() });
    const failed = (value: unknown) => {
      const parsed = schema.safeParse(value);
      if (parsed.success) throw new Error('expected a failure');
      return firstIssue(parsed.error);
    };
    expect(failed({ items: [{ id: 'a' }, { id: 2 }], 'odd key': 1 })).toMatch(/^\$\.items\[1\]\.id: /);
    expect(failed({ items: [], 'odd key': 'x' })).toMatch(/^\$\["odd key"\]: /);
    expect(failed('nope')).toMatch(/^\$: /);
  });
});
