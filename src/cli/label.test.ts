import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureIo } from '../testing/capture-io.ts';
import { runChain } from '../engine/run.ts';
import { seedQuestion, seedSource, seedSummary } from '../testing/seed-example.ts';
import { twoStepChain } from '../testing/chain-fixtures.ts';
import { createScriptedProvider } from '../testing/scripted-provider.ts';
import { createMemoryRunRepository } from '../trace/repository.ts';
import { toRunFile } from '../trace/run-file.ts';
import { inspectCommand } from './inspect.ts';
import { main } from './main.ts';

let dir: string;
let runPath: string;
let original: string;


beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'seamscope-label-'));
  const repo = createMemoryRunRepository();
  const provider = createScriptedProvider([{ facts: seedSummary.split('. ') }, { answer: 'File promptly after the denial notice.' }]);
  const meta = await runChain({
    chain: twoStepChain(), inputs: { document: seedSource, question: seedQuestion }, provider,
    model: { name: 'm', maxOutputTokens: 100, structuredOutput: true }, repo, countTokens: (t) => t.length,
  });
  runPath = join(dir, 'seed.run.json');
  original = JSON.stringify(toRunFile((await repo.getRun(meta.id))!, await repo.getEvents(meta.id)));
  await writeFile(runPath, original);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const inspectJson = async () => {
  const { out, io } = captureIo();
  expect(await inspectCommand([runPath], { json: true }, io)).toBe(0);
  return JSON.parse(out[0] ?? '{}') as {
    sufficiency: { labelled: { notDerivable: number }; compared: number; agree: number };
    boundaries: { id: string; sufficiency: { estimate: { verdict: string; basis: string; missing: string[] }; label: { verdict: string; note: string } | null } }[];
  };
};

describe('seamscope label and the sufficiency in inspect', () => {
  it('inspect --json reports the estimate, and no label yet', async () => {
    const report = await inspectJson();
    const seam = report.boundaries.find((b) => b.id === 'data:extract->answer:facts');
    expect(seam?.sufficiency).toMatchObject({ estimate: { verdict: 'insufficient', basis: 'asked' }, label: null });
  });

  it('labels a boundary by producer->consumer, and inspect shows the label beside the estimate', async () => {
    const { out, err, io } = captureIo();
    expect(await main(['label', runPath, 'extract->answer', 'not-derivable', '--note', 'it says "promptly", no deadline'], io)).toBe(0);
    expect(err).toEqual([]);
    expect(out.join('\n')).toContain('extract → answer labelled not-derivable');
    const report = await inspectJson();
    const seam = report.boundaries.find((b) => b.id === 'data:extract->answer:facts');
    expect(seam?.sufficiency.label).toMatchObject({ verdict: 'not-derivable', note: 'it says "promptly", no deadline' });
    expect(report.sufficiency).toMatchObject({ labelled: { notDerivable: 1 }, compared: 1, agree: 1 });
    const text = captureIo();
    await inspectCommand([runPath], {}, text.io);
    expect(text.out.join('\n')).toMatch(/sufficiency: estimated insufficient \(question asks for "180 calendar days".*dropped\); labelled not derivable \("it says "promptly", no deadline"\)/);
    // No temporary file is left beside the run.
    expect((await readdir(dir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('judges on gold facts given with --gold-fact', async () => {
    const { out, io } = captureIo();
    expect(await main(['inspect', runPath, '--json', '--gold-fact', '180 calendar days', '--gold-fact', '72 hours'], io)).toBe(0);
    const report = JSON.parse(out[0] ?? '{}') as Awaited<ReturnType<typeof inspectJson>>;
    const seam = report.boundaries.find((b) => b.id === 'data:extract->answer:facts');
    expect(seam?.sufficiency.estimate).toMatchObject({ verdict: 'insufficient', basis: 'gold', missing: ['180 calendar days', '72 hours'] });
  });

  it('clears a label', async () => {
    const { io } = captureIo();
    expect(await main(['label', runPath, 'data:extract->answer:facts', 'clear'], io)).toBe(0);
    expect((await inspectJson()).boundaries.every((b) => b.sufficiency.label === null)).toBe(true);
  });

  it('refuses a bad verdict, an unknown boundary and an oversized note, and leaves the file as it was', async () => {
    await writeFile(runPath, original);
    const bad = captureIo();
    expect(await main(['label', runPath, 'extract->answer', 'maybe'], bad.io)).toBe(2);
    expect(bad.err[0]).toContain('is not a verdict');
    const unknown = captureIo();
    expect(await main(['label', runPath, 'nope->answer', 'derivable'], unknown.io)).toBe(1);
    expect(unknown.err[0]).toContain('the run has no boundary "nope->answer" (its boundaries: data:extract->answer:facts');
    const long = captureIo();
    expect(await main(['label', runPath, 'extract->answer', 'unsure', '--note', 'x'.repeat(5000)], long.io)).toBe(1);
    expect(long.err[0]).toContain('the label was refused (note:');
    expect(await readFile(runPath, 'utf8')).toBe(original);
  });
});
