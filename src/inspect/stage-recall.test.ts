import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseChain } from '../chain/parse.ts';
import { runChain } from '../engine/run.ts';
import { createDemoProvider } from '../providers/demo-model.ts';
import { demoProfile, runModelSettings } from '../providers/profile.ts';
import { loadTokenCounter } from '../providers/tokenizer.ts';
import { stepRegistry } from '../steps/index.ts';
import { createMemoryRunRepository } from '../trace/repository.ts';
import { buildRunView, type Boundary } from '../trace/replay.ts';
import { containsId, stageRecall } from './stage-recall.ts';

const boundary = (intermediate: unknown, sent: string | null): Boundary => ({
  id: 'e', producer: 'retrieve', consumer: 'answer', binding: 'chunks', intermediate, sources: [], consumerOutput: null,
  received: sent === null ? null : { messages: [{ role: 'user', content: sent }], segments: [{ kind: 'template', text: 'Chunks:\n', tokens: 2 }, { kind: 'binding:chunks', text: sent, tokens: 10 }] },
});

describe('containsId', () => {
  it('finds an id only whole: not a prefix of a deeper clause, not inside a longer id', () => {
    expect(containsId('see (a)(2)(A) and (b)', '(a)(2)(A)')).toBe(true);
    expect(containsId('see (a)(2)(A)', '(a)(2)')).toBe(false);
    expect(containsId('c12, c3', 'c1')).toBe(false);
    expect(containsId('"section_id": "7.2"', '7.2')).toBe(true);
    expect(containsId('7.2.1 applies', '7.2')).toBe(false);
  });
});

describe('stageRecall', () => {
  const sections = [{ section_id: 'c1', text: 'a' }, { section_id: 'c2', text: 'b' }, { section_id: 'c5', text: 'e' }];

  it('measures recall on the stage output and on the text the consumer was sent, naming the gold the prompt lost', () => {
    const r = stageRecall(boundary({ sections }, '[{"section_id": "c1"}, {"section_id": "c2"'), ['c1', 'c5', 'c9']);
    expect(r).toEqual({ gold: 3, k: 3, output: 2 / 3, sent: 1 / 3, lostInPrompt: ['c5'] });
  });

  it('reads ids from id-named keys and id lists; a stage with no ids (an answer, a summary) is not measured', () => {
    expect(stageRecall(boundary({ ranked_ids: ['c2', 'c1'] }, null), ['c1'])).toEqual({ gold: 1, k: 2, output: 1, sent: null, lostInPrompt: [] });
    expect(stageRecall(boundary({ answer: 'See c1.' }, 'See c1.'), ['c1'])).toBeNull();
    expect(stageRecall(boundary({ sections }, ''), [])).toBeNull();
  });

  it('on the retrieval demo, the 4,000-token budget cuts a retrieved chunk out of the text sent: recall on the output stays above recall sent', async () => {
    const demo = (file: string) => readFileSync(new URL(`../../public/demo/${file}`, import.meta.url), 'utf8');
    const parsed = parseChain(demo('retrieval-pipeline.chain.json'), stepRegistry);
    if (!parsed.ok) throw new Error('the retrieval demo does not parse');
    const files = (parsed.chain.meta?.inputFiles ?? {}) as Record<string, string>;
    const inputs = Object.fromEntries(parsed.chain.inputs.map((i) => [i.name, files[i.name] ? demo(files[i.name] as string) : i.example]));
    const repo = createMemoryRunRepository();
    const meta = await runChain({ chain: parsed.chain, inputs, provider: createDemoProvider(), model: runModelSettings(demoProfile), repo, countTokens: await loadTokenCounter() });
    const view = buildRunView(meta, await repo.getEvents(meta.id), stepRegistry);
    const seam = view.boundaries.find((b) => b.producer === 'retrieve' && b.consumer === 'generate');
    if (!seam) throw new Error('no retrieve → generate boundary');
    // Gold: every chunk the retriever returned (so recall on its output is 1 by construction).
    const retrieved = (seam.intermediate as { sections: { section_id: string }[] }).sections.map((s) => s.section_id);
    const r = stageRecall(seam, retrieved);
    expect(r?.output).toBe(1);
    expect(r?.sent).toBeLessThan(1);
    expect(r?.lostInPrompt.length).toBeGreaterThan(0);
    expect(retrieved.slice(-(r?.lostInPrompt.length ?? 0))).toEqual(r?.lostInPrompt);
  }, 60_000);
});
