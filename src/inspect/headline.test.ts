import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseChain } from '../chain/parse.ts';
import { runChain } from '../engine/run.ts';
import { createDemoProvider } from '../providers/demo-model.ts';
import { demoProfile, runModelSettings } from '../providers/profile.ts';
import { loadTokenCounter } from '../providers/tokenizer.ts';
import { stepRegistry } from '../steps/index.ts';
import { createMemoryRunRepository } from '../trace/repository.ts';
import { inspectRun } from './boundary.ts';
import { questionAsks } from './headline.ts';
import { factSurvival } from './survival.ts';

const demo = (file: string) => readFileSync(new URL(`../../public/demo/${file}`, import.meta.url), 'utf8');

/** Runs a demo chain on the offline demo model with its own example inputs and files, as the app's Run does. */
async function runDemo(file: string) {
  const parsed = parseChain(demo(file), stepRegistry);
  if (!parsed.ok) throw new Error(`${file} does not parse`);
  const files = (parsed.chain.meta?.inputFiles ?? {}) as Record<string, string>;
  const inputs = Object.fromEntries(parsed.chain.inputs.map((i) => [i.name, files[i.name] ? demo(files[i.name] as string) : i.example]));
  const repo = createMemoryRunRepository();
  const meta = await runChain({ chain: parsed.chain, inputs, provider: createDemoProvider(), model: runModelSettings(demoProfile), repo, countTokens: await loadTokenCounter() });
  return inspectRun(meta, await repo.getEvents(meta.id));
}

describe('the asked fact leads', () => {
  it('on "Summarise, then answer", the headline names the dropped 180-day period the question asks about', async () => {
    const report = await runDemo('summarise-then-answer.chain.json');
    const seam = report.boundaries.find((b) => b.producer === 'summarise' && b.consumer === 'answer');
    expect(seam?.lossy).toBe(true);
    expect(seam?.askedFacts[0]?.fact.text).toBe('180-day period');
    expect(seam?.lead?.fact.text).toBe('180-day period');
    expect(seam?.lead?.headline).toBe('180-day period: dropped — the question asks how many days to request a reconsideration');
    // The reviewer's 60-day deadline (whose start is "a request for reconsideration") is not what is asked first.
    expect(seam?.reasons[0]).toMatch(/^question asks for "180-day period"/);
  }, 60_000);

  it('counts leave out the source note, its citation and its year, and years in headings; a citation in the body is one reference', () => {
    const text = [
      '<!-- Source: United States Code (public domain, 17 U.S.C. 105), statute as of that snapshot (2023). -->',
      '# Title 42 (edition of 2023)',
      'Source: Office of the Law Revision Counsel, retrieved in 2024.',
      'A request must be filed within 180 days after notice, as 42 U.S.C. § 1395ff requires, and in 2004 the rule changed.',
    ].join('\n');
    const report = factSurvival([{ name: 'document', text }], '');
    expect(report.facts.map((f) => f.text)).toEqual(['180 days', '42 U.S.C. § 1395ff', '2004']);
    // The note's "17 U.S.C. 105" and "2023", the heading's 2023, the source line's 2024.
    expect(report.boilerplate).toBe(4);
  });

  it('a router choosing a branch from a label needs none of the ticket\'s facts: nothing is headlined', async () => {
    const report = await runDemo('support-ticket.chain.json');
    const routed = report.boundaries.filter((b) => b.consumer.startsWith('route_'));
    expect(routed.length).toBeGreaterThan(0);
    for (const b of routed) {
      expect(b.survival.dropped.length).toBeGreaterThan(0);
      expect(b.factsNeeded).toBe(false);
      expect(b.lossy).toBe(false);
      expect(b.lead).toBeNull();
    }
    // The drafting step writes from the ticket: its facts are still its material.
    expect(report.boundaries.find((b) => b.consumer === 'draft')?.factsNeeded).toBe(true);
  }, 60_000);

  it('says what the question asks in its own words', () => {
    expect(questionAsks('How long do I have to appeal a denied claim?', ['appeal', 'deni', 'claim'])).toBe('how long to appeal a denied claim');
    expect(questionAsks('Does filing a grievance give me more time?', ['grievance'])).toBe('“Does filing a grievance give me more time?”');
  });
});
