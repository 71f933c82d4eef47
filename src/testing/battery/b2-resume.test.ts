import { describe, expect, it } from 'vitest';
import { b2Resume } from './b2-resume.ts';
import { callTarget } from './b2-chain.ts';
import { suiteMet } from './types.ts';

describe('battery B2: kill and resume', () => {
  it('tells a step from a unit by the tag its prompt starts with, not by quoted earlier outputs', () => {
    expect(callTarget({ messages: [{ role: 'user', content: 'STEP s2: join the notes [{"note":"UNIT u1: x"}]' }] })).toBe('s2');
    expect(callTarget({ messages: [{ role: 'user', content: 'UNIT u3: note y (context: STEP s1: z)' }] })).toBe('units/u3');
  });

  it('a run stopped at each point (abort, crash after a flush, SIGKILL) resumes without repeating a completed call', async () => {
    const result = await b2Resume.run({ quick: true });
    expect(result.failures).toEqual([]);
    expect(result.definedEnd).toBe(result.cases);
    expect(result.dataLost).toBe(0);
    for (const check of result.checks) expect(check, check.name).toMatchObject({ ok: true });
    expect(suiteMet(result)).toBe(true);
  }, 180_000);
});
