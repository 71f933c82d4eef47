import { readdir, readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parseChain } from '../chain/parse.ts';
import type { Chain } from '../chain/schema.ts';
import { stringifyForPrompt } from '../chain/template.ts';
import { runChain } from '../engine/run.ts';
import { createDemoProvider } from '../providers/demo-model.ts';
import { stepRegistry } from '../steps/index.ts';
import { createMemoryRunRepository } from '../trace/repository.ts';
import { buildControls } from './controls.ts';

/**
 * Every demo chain's single-prompt baseline, as Evaluate builds it (the baseline its
 * meta.baseline names, else a generated one), run once on the offline demo model: the prompt
 * its one call sent holds every input of the item whole. A baseline that retrieved or
 * summarised first would have sent a few hundred tokens instead of the document.
 */
const demoDir = new URL('../../public/demo/', import.meta.url);

async function demoChains(): Promise<Chain[]> {
  const files = (await readdir(demoDir)).filter((f) => f.endsWith('.chain.json')).sort();
  const chains: Chain[] = [];
  for (const file of files) {
    const parsed = parseChain(await readFile(new URL(file, demoDir), 'utf8'), stepRegistry);
    if (!parsed.ok) throw new Error(`${file}: ${parsed.problems[0]?.message}`);
    chains.push(parsed.chain);
  }
  return chains;
}

/** An item's inputs as Evaluate completes them: the chain's input files, then its examples. */
async function inputsOf(chain: Chain): Promise<Record<string, unknown>> {
  const files = (chain.meta?.inputFiles ?? {}) as Record<string, string>;
  const inputs: Record<string, unknown> = {};
  for (const input of chain.inputs) {
    if (typeof files[input.name] === 'string') inputs[input.name] = await readFile(new URL(files[input.name] as string, demoDir), 'utf8');
    else if (input.example !== undefined) inputs[input.name] = input.example;
  }
  return inputs;
}

const chains = await demoChains();

describe('every demo chain’s baseline receives the document', () => {
  it('covers every demo chain', () => {
    expect(chains.length).toBeGreaterThanOrEqual(10);
  });

  for (const chain of chains) {
    it(chain.name, async () => {
      const named = typeof chain.meta?.baseline === 'string' ? chains.find((c) => c.id === chain.meta?.baseline) ?? null : null;
      const plan = buildControls(chain, stepRegistry, { name: chain.id, baseline: named });
      const baseline = plan.variants.find((v) => v.kind === 'baseline');
      if (!baseline) throw new Error(`no baseline: ${plan.notApplicable.map((n) => n.reason).join('; ')}`);
      // A named baseline runs on its own chain's files; a generated one on this chain's.
      const inputs = await inputsOf(baseline.chain === named ? named : chain);
      expect(Object.keys(inputs).sort()).toEqual(baseline.chain.inputs.map((i) => i.name).sort());

      const repo = createMemoryRunRepository();
      const run = await runChain({ chain: baseline.chain, inputs, provider: createDemoProvider(), model: { name: 'seamscope-demo-1', maxOutputTokens: 4096, structuredOutput: true }, repo, registry: stepRegistry });
      const attempts = (await repo.getEvents(run.id)).flatMap((e) => (e.type === 'step.attempt' ? [e] : []));
      expect(new Set(attempts.map((a) => a.stepId)).size, 'one model step').toBe(1);
      const sent = (attempts[0]?.record.messages ?? []).map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content))).join('\n');
      for (const [name, value] of Object.entries(inputs)) {
        expect(sent.includes(stringifyForPrompt(value)), `the prompt holds the input "${name}" whole`).toBe(true);
      }
    });
  }
});
