import { describe, expect, it } from 'vitest';
import { uniqueName } from './unique-name.ts';

describe('uniqueName', () => {
  it('keeps a free name and numbers a taken one, ignoring case and spaces', () => {
    expect(uniqueName('capture', ['other'])).toBe('capture');
    expect(uniqueName('capture', ['Capture '])).toBe('capture (2)');
    expect(uniqueName('capture', ['capture', 'capture (2)', 'capture (3)'])).toBe('capture (4)');
  });
  it('stays within the length limit, the number kept', () => {
    const long = 'x'.repeat(300);
    expect(uniqueName(long, [long.slice(0, 200)])).toBe(`${'x'.repeat(196)} (2)`);
  });
});
