import { describe, expect, it } from 'vitest';
import { b7ExportStrings } from './b7-exports.ts';
import { suiteMet } from './types.ts';

describe('battery B7: adversarial strings through both exports', () => {
  it('every string in some place: both programs compile, import back equal and send the engine\'s requests byte for byte', async () => {
    const result = await b7ExportStrings.run({ quick: true });
    expect(result.failures).toEqual([]);
    expect(result.checks.filter((c) => !c.timed && !c.ok)).toEqual([]);
    expect(result.dataLost).toBe(0);
    expect(suiteMet(result)).toBe(true);
  }, 180_000);
});
