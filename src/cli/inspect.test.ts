import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureIo } from '../testing/capture-io.ts';
import { corpusPath } from '../testing/corpus.ts';
import { runChain } from '../engine/run.ts';
import { seedQuestion, seedSource, seedSummary } from '../testing/seed-example.ts';
import { twoStepChain } from '../testing/chain-fixtures.ts';
import { createScriptedProvider } from '../testing/scripted-provider.ts';
import { createMemoryRunRepository } from '../trace/repository.ts';
import { toRunFile } from '../trace/run-file.ts';
import { inspectCommand } from './inspect.ts';

let dir: string;
let runPath: string;


beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'seamscope-inspect-'));
  const repo = createMemoryRunRepository();
  const provider = createScriptedProvider([{ facts: seedSummary.split('. ') }, { answer: 'File promptly after the denial notice.' }]);
  const meta = await runChain({
    chain: twoStepChain(), inputs: { document: seedSource, question: seedQuestion }, provider,
    model: { name: 'm', maxOutputTokens: 100, structuredOutput: true }, repo, countTokens: (t) => t.length,
  });
  runPath = join(dir, 'seed.run.json');
  await writeFile(runPath, JSON.stringify(toRunFile((await repo.getRun(meta.id))!, await repo.getEvents(meta.id))));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('seamscope inspect', () => {
  it('prints an imported trace\'s span tree, each model span with the step it became, and puts it in --json', async () => {
    const trace = corpusPath('vendor-traces/langfuse-export-google-adk-2025-08-28.trace.json');
    const text = captureIo();
    expect(await inspectCommand([trace], {}, text.io)).toBe(0);
    expect(text.out.join('\n')).toMatch(/spans: 5\n {2}chain invocation \[hello_app\] \(\d+ ms at \+0 ms\)\n {4}agent agent_run \[hello_agent\] .*\n {6}model call_llm .*→ step call_llm\n {8}tool execute_tool say_hello .*\n {6}model call_llm .*→ step call_llm_2/);
    const json = captureIo();
    expect(await inspectCommand([trace], { json: true }, json.io)).toBe(0);
    const report = JSON.parse(json.out.join('\n')) as { spans: { kind: string; depth: number; stepId?: string }[]; spansOmitted: number };
    expect(report.spans.map((n) => [n.kind, n.depth, n.stepId ?? null])).toEqual([['chain', 0, null], ['agent', 1, null], ['model', 2, 'call_llm'], ['tool', 3, null], ['model', 2, 'call_llm_2']]);
    expect(report.spansOmitted).toBe(0);
  });

  it('prints each boundary with its lossy flag and the dropped facts with their lines, and exits 0', async () => {
    const { out, err, io } = captureIo();
    expect(await inspectCommand([runPath], {}, io)).toBe(0);
    expect(err).toEqual([]);
    const text = out.join('\n');
    expect(text).toMatch(/extract → answer: LIKELY LOSSY \(question asks for "180 calendar days" \(duration, .*\): dropped\)/);
    expect(text).toContain(`question: ${seedQuestion}`);
    expect(text).toMatch(/document:1\s+duration\s+180 calendar days/);
    expect(text).toMatch(/document:2\s+duration\s+72 hours/);
    expect(text).toMatch(/asked: 180 calendar days \(document:1\) dropped — score [\d.]+ \(best\); matched day/);
    expect(text).toContain('answer → final: ok');
  });

  it('prints one machine-readable report with --json', async () => {
    const { out, io } = captureIo();
    expect(await inspectCommand([runPath], { json: true }, io)).toBe(0);
    expect(out).toHaveLength(1);
    const report = JSON.parse(out[0]!) as { format: string; lossy: string[]; boundaries: { id: string; lossy: boolean; dropped: { kind: string; line: number }[] }[] };
    expect(report.format).toBe('seamscope.inspect');
    const seam = report.boundaries.find((b) => b.id === 'data:extract->answer:facts');
    expect(seam?.lossy).toBe(true);
    expect(report.lossy).toEqual(['data:extract->answer:facts']);
    expect(seam?.dropped.filter((f) => f.kind === 'duration').map((f) => f.line)).toEqual([1, 2]);
    // Why each fact was judged asked: score, the question's words found around it, its kind.
    const asked = (seam as unknown as { askedFacts: { text: string; status: string; score: number; matched: string[]; kindMatch: boolean; why: string }[] }).askedFacts;
    expect(asked[0]).toMatchObject({ text: '180 calendar days', status: 'dropped', matched: ['day'], kindMatch: true });
    expect(asked[0]?.score).toBeGreaterThan(0);
    expect(asked[0]?.why).toMatch(/^score [\d.]+ \(best\); matched day; a duration, as "How many days" asks$/);
  });

  it('rejects a file that is not a run with a one-line message and exit 1', async () => {
    const garbage = join(dir, 'garbage.run.json');
    await writeFile(garbage, '{"format": "something else", "events": 3}');
    const { out, err, io } = captureIo();
    expect(await inspectCommand([garbage], {}, io)).toBe(1);
    expect(out).toEqual([]);
    expect(err).toHaveLength(1);
    expect(err[0]).toContain('not a Seamscope run file, an OTLP/JSON trace or a Langfuse trace export');
    expect(err[0]).not.toContain('\n');

    await writeFile(garbage, 'not json at all');
    const second = captureIo();
    expect(await inspectCommand([garbage], {}, second.io)).toBe(1);
    expect(second.err[0]).toContain('not valid JSON');
  });

  it('reports a missing file and a missing argument', async () => {
    const missing = captureIo();
    expect(await inspectCommand([join(dir, 'nope.run.json')], {}, missing.io)).toBe(1);
    expect(missing.err[0]).toContain('ENOENT');
    const none = captureIo();
    expect(await inspectCommand([], {}, none.io)).toBe(2);
    expect(none.err[0]).toContain('Usage');
  });
});
