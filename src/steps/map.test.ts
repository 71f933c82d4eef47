import { describe, expect, it } from 'vitest';
import type { Chain } from '../chain/schema.ts';
import { runChain } from '../engine/run.ts';
import type { ModelProvider } from '../providers/types.ts';
import { createMemoryRunRepository } from '../trace/repository.ts';
import { mapWithConcurrency } from './map-run.ts';

const mapChain: Chain = {
  format: 'seamscope.chain', version: 1, id: 'map-reduce', name: 'Map then reduce',
  inputs: [{ name: 'notes', schema: { type: 'array', items: { type: 'object' } }, trust: 'trusted', required: false }],
  steps: [
    {
      id: 'per_note', kind: 'map', name: 'Per note', position: { x: 0, y: 0 },
      config: {
        bindings: { items: 'inputs.notes' }, itemName: 'note', unitIdField: 'id', concurrency: 3, retries: 1,
        prompt: 'Summarise note {note.id}: {note.text}',
        outputSchema: { type: 'object', properties: { summary: { type: 'string' } }, required: ['summary'], additionalProperties: false },
      },
    },
    {
      id: 'integrate', kind: 'reduce', name: 'Integrate', position: { x: 280, y: 0 },
      config: {
        bindings: { collection: 'steps.per_note' }, prompt: 'Integrate: {collection}',
        outputSchema: { type: 'object', properties: { synthesis: { type: 'string' } }, required: ['synthesis'], additionalProperties: false },
      },
    },
    { id: 'final', kind: 'output', name: 'Final', position: { x: 560, y: 0 }, config: { bindings: { value: 'steps.integrate' } } },
  ],
};

/** Answers per unit from the prompt; unit n3 always breaks the schema. Tracks calls in flight. */
function unitProvider() {
  let inFlight = 0;
  const stats = { maxInFlight: 0, calls: 0, prompts: [] as string[] };
  const provider: ModelProvider = {
    kind: 'fake',
    async call(req) {
      stats.calls++;
      inFlight++;
      stats.maxInFlight = Math.max(stats.maxInFlight, inFlight);
      await new Promise((r) => setTimeout(r, 5));
      inFlight--;
      const prompt = req.messages.find((m) => m.role === 'user')?.content ?? '';
      stats.prompts.push(req.messages[req.messages.length - 1]?.content ?? '');
      const text = prompt.startsWith('Integrate') ? JSON.stringify({ synthesis: 'done' }) : prompt.includes('n3') ? '{"wrong": 1}' : JSON.stringify({ summary: `sum ${/note (\w+)/.exec(prompt)?.[1]}` });
      return { text, finishReason: 'stop', rawFinishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1 }, requestBody: {}, rawResponse: {}, status: 200, model: req.model };
    },
  };
  return { provider, stats };
}

const model = { name: 'm', maxOutputTokens: 1000, structuredOutput: true };

describe('map and reduce', () => {
  it('keeps a failed unit as typed data, and the reduce sees ok units plus named failures', async () => {
    const { provider, stats } = unitProvider();
    const repo = createMemoryRunRepository();
    const notes = Array.from({ length: 7 }, (_, i) => ({ id: `n${i + 1}`, text: `text ${i + 1}` }));
    const run = await runChain({ chain: mapChain, inputs: { notes }, provider, model, repo, countTokens: (t) => t.length });
    expect(run.status).toBe('succeeded');
    const events = await repo.getEvents(run.id);
    const map = events.find((e) => e.type === 'step.finished' && e.stepId === 'per_note');
    const output = (map as { output: { results: { unit_id: string; status: string }[]; ok_count: number; error_count: number } }).output;
    expect(output.ok_count).toBe(6);
    expect(output.error_count).toBe(1);
    expect(output.results.find((r) => r.unit_id === 'n3')).toMatchObject({ status: 'error', output: null, error_detail: { code: 'schema_violation' } });
    expect(events.filter((e) => e.type === 'step.unit')).toHaveLength(7);
    // Unit n3 had its retry: 7 units + 1 retry + 1 reduce.
    expect(stats.calls).toBe(9);
    expect(stats.maxInFlight).toBeLessThanOrEqual(3);
    const reducePrompt = stats.prompts.find((p) => p.startsWith('Integrate')) ?? '';
    expect(reducePrompt).toContain('"failed_units"');
    expect(reducePrompt).toContain('"unit_id": "n3"');
    expect(reducePrompt).not.toContain('text 1');
  });

  it('stops before any model call on an empty collection, naming what is missing', async () => {
    const { provider, stats } = unitProvider();
    const run = await runChain({ chain: mapChain, inputs: { notes: [] }, provider, model, repo: createMemoryRunRepository(), countTokens: (t) => t.length });
    expect(run.status).toBe('failed');
    expect(run.error).toContain('"items" is empty');
    expect(stats.calls).toBe(0);
  });

  it('bounds concurrency and keeps input order', async () => {
    let inFlight = 0;
    let peak = 0;
    const out = await mapWithConcurrency([5, 1, 3, 2, 4], 2, async (n) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, n));
      inFlight--;
      return n * 10;
    });
    expect(out).toEqual([50, 10, 30, 20, 40]);
    expect(peak).toBe(2);
  });
});
