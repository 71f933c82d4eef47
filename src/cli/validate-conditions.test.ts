import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from './main.ts';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (t: string) => out.push(t), err: (t: string) => err.push(t), env: {} }, out, err };
}
const demo = (file: string) => new URL(`../../public/demo/${file}`, import.meta.url).pathname;

describe('seamscope validate: conditions a summary is not told to keep', () => {
  it('warns on the summarising step, naming the condition, and still exits 0', async () => {
    const { io, out, err } = capture();
    expect(await main(['validate', demo('summarise-handbook-condition.chain.json')], io)).toBe(0);
    expect(out.join('\n')).toContain(': ok —');
    expect(err).toEqual([expect.stringMatching(/^warning: step summarise: Step "answer" is asked “When does an appeal count as urgent\?”, .*seriously harm the member's health” \(section 4\.3, .*\(summary-drops-conditions\)$/)]);
  });

  it('says nothing when the question needs no condition or the summary is told to keep them', async () => {
    for (const file of ['summarise-then-answer.chain.json', 'question-conditioned-summary.chain.json']) {
      const { io, err } = capture();
      expect(await main(['validate', demo(file)], io)).toBe(0);
      expect(err).toEqual([]);
    }
  });

  it('reads the documents only from the chain\'s own folder: a file it cannot read is no document, not a crash', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'seamscope-conditions-'));
    const chain = JSON.parse(await (await import('node:fs/promises')).readFile(demo('summarise-handbook-condition.chain.json'), 'utf8')) as { meta: { inputFiles: Record<string, string> } };
    chain.meta.inputFiles = { document: 'missing.md' };
    await writeFile(join(dir, 'c.chain.json'), JSON.stringify(chain));
    const { io, err } = capture();
    expect(await main(['validate', join(dir, 'c.chain.json')], io)).toBe(0);
    expect(err).toEqual([]);
  });
});
