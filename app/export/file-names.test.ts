import { describe, expect, it } from 'vitest';
import { chainFileNameOf, programFileNameOf, slugOf } from './file-names.ts';

describe('export file names', () => {
  it('slugs a chain name', () => {
    expect(slugOf('Support ticket: extract, classify, route in code, draft, check')).toBe('support-ticket-extract-classify-route-in-code-draft-check');
    expect(slugOf('Café résumé — v2')).toBe('cafe-resume-v2');
    expect(slugOf('../../etc/passwd')).toBe('etc-passwd');
  });
  it('cuts long names between words, and falls back to the id', () => {
    const long = slugOf('word '.repeat(40));
    expect(long.length).toBeLessThanOrEqual(60);
    expect(long.endsWith('-')).toBe(false);
    expect(slugOf('x'.repeat(80))).toHaveLength(60);
    expect(slugOf('???', 'demo-triage')).toBe('demo-triage');
    expect(slugOf('日本語')).toBe('chain');
  });
  it('names programs and chain files from the name', () => {
    const chain = { name: 'Support ticket triage', id: 'demo-support-ticket' };
    expect(programFileNameOf(chain, 'ts')).toBe('support-ticket-triage.ts');
    expect(programFileNameOf(chain, 'py')).toBe('support_ticket_triage.py');
    expect(programFileNameOf({ name: '3 step chain', id: 'x' }, 'py')).toBe('chain_3_step_chain.py');
    expect(chainFileNameOf(chain)).toBe('support-ticket-triage.chain.json');
  });
});
