import { cp, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureIo } from '../testing/capture-io.ts';
import { main } from './main.ts';

let dir: string;
const demo = new URL('../../public/demo/', import.meta.url);


const items = [
  { id: 'redetermination', inputs: { question: 'How many days do I have to ask for a redetermination?' }, expected: { facts: ['120-day period'] } },
  { id: 'reconsideration', inputs: { question: 'How many days do I have to request a reconsideration after the redetermination?' }, expected: { facts: ['180-day period'] } },
];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'seamscope-eval-'));
  await mkdir(join(dir, 'documents'));
  for (const f of ['summarise-then-answer.chain.json', 'select-quotes-then-answer.chain.json']) await cp(new URL(f, demo), join(dir, f));
  await cp(new URL('documents/42-USC-1395ff.md', demo), join(dir, 'documents/42-USC-1395ff.md'));
  await writeFile(join(dir, 'q.dataset.jsonl'), `${items.map((i) => JSON.stringify(i)).join('\n')}\n`);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const chains = () => [join(dir, 'summarise-then-answer.chain.json'), join(dir, 'select-quotes-then-answer.chain.json')];

describe('seamscope eval', () => {
  it('compares two designs on the demo model: one JSON object, run files under --out, and resumes without re-running', async () => {
    const out = join(dir, 'out');
    const first = captureIo();
    expect(await main(['eval', ...chains(), '--dataset', join(dir, 'q.dataset.jsonl'), '--volume', '400000', '--price-in', '0.4', '--price-out', '1.6', '--out', out, '--json'], first.io)).toBe(0);
    const report = JSON.parse(first.out.at(-1) ?? '{}') as { format: string; dataset: { items: number }; variants: { name: string; kind: string; n: number; accuracy: number; calls: number; spendPerMonth: number }[]; boundaries: { producer: string; sufficiencyRate: number | null }[] };
    expect(report.format).toBe('seamscope.eval');
    expect(report.dataset.items).toBe(2);
    const byName = Object.fromEntries(report.variants.map((v) => [v.name, v]));
    // The article's finding on the demo model: the summary loses the day counts, the selection keeps them.
    expect(byName['demo-summarise-then-answer']).toMatchObject({ kind: 'chain', n: 2, accuracy: 0, calls: 2 });
    expect(byName['demo-select-quotes-then-answer']).toMatchObject({ n: 2, accuracy: 1 });
    expect(byName['demo-select-quotes-then-answer']?.spendPerMonth).toBeGreaterThan(0);
    expect(report.boundaries.find((b) => b.producer === 'summarise')?.sufficiencyRate).toBe(0);
    expect((await readdir(join(out, 'runs', 'demo-summarise-then-answer'))).sort()).toEqual(['reconsideration.run.json', 'redetermination.run.json']);

    const again = captureIo();
    expect(await main(['eval', ...chains(), '--dataset', join(dir, 'q.dataset.jsonl'), '--out', out], again.io)).toBe(0);
    expect(again.err[0]).toContain('resuming: 4 item run(s) already in');
    expect(again.err.some((l) => /\d+\/\d+ done/.test(l))).toBe(false);
    expect(again.out.join('\n')).toMatch(/#1\s+demo-select-quotes-then-answer\s+chain\s+2\s+100\.0%/);
    expect((await readFile(join(out, 'results.jsonl'), 'utf8')).trim().split('\n')).toHaveLength(4);

    // A torn last line (a crash mid-write) is dropped: that item runs again.
    const lines = (await readFile(join(out, 'results.jsonl'), 'utf8')).trim().split('\n');
    await writeFile(join(out, 'results.jsonl'), `${lines.slice(0, 3).join('\n')}\n${(lines[3] ?? '').slice(0, 40)}`);
    const torn = captureIo();
    expect(await main(['eval', ...chains(), '--dataset', join(dir, 'q.dataset.jsonl'), '--out', out], torn.io)).toBe(0);
    expect(torn.err[0]).toMatch(/results\.jsonl: dropped a torn last line/);
    expect(torn.err[1]).toContain('resuming: 3 item run(s) already in');
    // The torn fragment is gone, not glued to the rerun item's line: the next resume runs nothing.
    const repaired = await readFile(join(out, 'results.jsonl'), 'utf8');
    expect(repaired.endsWith('\n')).toBe(true);
    expect(repaired.trim().split('\n').map((l) => (JSON.parse(l) as { itemId: string }).itemId).sort()).toEqual(lines.map((l) => (JSON.parse(l) as { itemId: string }).itemId).sort());
    const afterTorn = captureIo();
    expect(await main(['eval', ...chains(), '--dataset', join(dir, 'q.dataset.jsonl'), '--out', out], afterTorn.io)).toBe(0);
    expect(afterTorn.err[0]).toContain('resuming: 4 item run(s) already in');

    // A line someone edited into another shape is an error with the file and line; nothing runs.
    const edited = (await readFile(join(out, 'results.jsonl'), 'utf8')).trim().split('\n');
    const bad = { ...(JSON.parse(edited[1] ?? '{}') as Record<string, unknown>), calls: 'many' };
    await writeFile(join(out, 'results.jsonl'), `${[edited[0], JSON.stringify(bad), ...edited.slice(2)].join('\n')}\n`);
    const before = await readFile(join(out, 'results.jsonl'), 'utf8');
    const refused = captureIo();
    expect(await main(['eval', ...chains(), '--dataset', join(dir, 'q.dataset.jsonl'), '--out', out], refused.io)).toBe(2);
    expect(refused.err.join('\n')).toMatch(/results\.jsonl line 2: \$\.calls: /);
    expect(await readFile(join(out, 'results.jsonl'), 'utf8')).toBe(before);
  });

  it('adds the controls: the generated baseline, an identity control and an ablation per stage, and says which cannot be built', async () => {
    const io = captureIo();
    expect(await main(['eval', chains()[0] as string, '--controls', '--dataset', join(dir, 'q.dataset.jsonl'), '--out', join(dir, 'out-controls'), '--json'], io.io)).toBe(0);
    const report = JSON.parse(io.out.at(-1) ?? '{}') as { variants: { name: string; kind: string; accuracy: number; calls: number }[] };
    expect(report.variants.map((v) => [v.name, v.kind])).toEqual([
      ['demo-summarise-then-answer', 'chain'], ['demo-summarise-then-answer:baseline', 'baseline'],
      ['demo-summarise-then-answer:identity-summarise', 'identity'], ['demo-summarise-then-answer:ablate-summarise', 'ablation'],
    ]);
    // The identity control makes no call in the summary step: one call per item.
    expect(report.variants.find((v) => v.kind === 'identity')).toMatchObject({ accuracy: 1, calls: 1 });
    // Without the summary in the way, the demo model finds the day counts: the stage is what loses them.
    expect(report.variants.find((v) => v.kind === 'ablation')).toMatchObject({ accuracy: 1, calls: 1 });
    expect(io.err.some((l) => l.includes('control not applicable: demo-summarise-then-answer ablation of answer: it reads 2 values'))).toBe(true);
  });

  it('finds the baseline a chain names by id in its own folder, and skips files that could not be a chain', async () => {
    for (const f of ['select-quotes-enum.chain.json', 'bm25-then-single-prompt.chain.json']) await cp(new URL(f, demo), join(dir, f));
    await writeFile(join(dir, 'huge.chain.json'), Buffer.alloc(11 * 1024 * 1024, 0x20));
    const io = captureIo();
    expect(await main(['eval', join(dir, 'select-quotes-enum.chain.json'), '--controls', '--dataset', join(dir, 'q.dataset.jsonl'), '--out', join(dir, 'out-named'), '--json'], io.io)).toBe(0);
    const report = JSON.parse(io.out.at(-1) ?? '{}') as { variants: { name: string; kind: string; chainId: string }[] };
    // Found (the note names it), but BM25 selection is not a single prompt: a generated one stands in.
    expect(io.err).toContain('control: demo-select-quotes-enum baseline: the baseline it names, demo-bm25-then-single-prompt, is not a single prompt: its model step "answer" does not put the input "document" whole in its prompt; a generated single prompt stands in');
    expect(report.variants.find((v) => v.kind === 'baseline')).toMatchObject({ name: 'demo-select-quotes-enum:baseline', chainId: 'demo-select-quotes-enum--baseline' });
    await rm(join(dir, 'huge.chain.json'));
  });

  it('refuses to mix results of a different eval in one --out', async () => {
    const out = join(dir, 'out');
    const other = captureIo();
    expect(await main(['eval', chains()[0] as string, '--dataset', join(dir, 'q.dataset.jsonl'), '--out', out, '--scorer', 'contains:answer'], other.io)).toBe(2);
    expect(other.err[0]).toContain('holds the results of a different eval');
  });

  it('reads a CSV dataset exported from a spreadsheet, its columns mapped by header and by --csv-map', async () => {
    const csv = ['Question ID,Question,Needed facts,Reviewer', ...items.map((i) => `${i.id},"${i.inputs.question}",${i.expected.facts?.join(' | ')},ann`)].join('\r\n');
    await writeFile(join(dir, 'q.csv'), `${csv}\r\n`);
    const io = captureIo();
    const args = ['eval', chains()[1] as string, '--dataset', join(dir, 'q.csv'), '--csv-map', 'Question ID=id', '--csv-map', 'Question=inputs.question', '--csv-map', 'Needed facts=facts', '--csv-map', 'Reviewer=-', '--out', join(dir, 'out-csv'), '--json'];
    expect(await main(args, io.io)).toBe(0);
    const report = JSON.parse(io.out.at(-1) ?? '{}') as { dataset: { items: number }; variants: { accuracy: number }[] };
    expect(report.dataset.items).toBe(2);
    expect(report.variants[0]?.accuracy).toBe(1);
    const bad = captureIo();
    expect(await main(['eval', chains()[1] as string, '--dataset', join(dir, 'q.csv'), '--out', join(dir, 'out-csv-bad')], bad.io)).toBe(2);
    expect(bad.err.join('\n')).toMatch(/q\.csv:1: no column maps to "id"; nothing was run/);
  });

  it('freezes a boundary: reruns a stage against the run files of an earlier eval, calling nothing upstream', async () => {
    const { createMockModelServer } = await import('../testing/mock-server.ts');
    const mock = await createMockModelServer();
    try {
      const endpoint = ['--endpoint', `${mock.url}/v1`, '--model', 'mock-model'];
      const first = join(dir, 'out-frozen-first');
      expect(await main(['eval', chains()[0] as string, '--dataset', join(dir, 'q.dataset.jsonl'), ...endpoint, '--out', first], captureIo().io)).toBe(0);
      expect(mock.requests).toHaveLength(4);
      const io = captureIo();
      expect(await main(['eval', chains()[0] as string, '--dataset', join(dir, 'q.dataset.jsonl'), ...endpoint, '--frozen', first, '--stage', 'answer', '--out', join(dir, 'out-frozen'), '--json'], io.io)).toBe(0);
      // Two items, one call each: only the answering stage ran; the summaries came from the first eval's run files.
      expect(mock.requests).toHaveLength(6);
      const run = JSON.parse(await readFile(join(dir, 'out-frozen', 'runs', 'demo-summarise-then-answer', 'redetermination.run.json'), 'utf8')) as { run: { forkedFrom?: { stepId: string } } };
      expect(run.run.forkedFrom?.stepId).toBe('answer');
      const bad = captureIo();
      expect(await main(['eval', chains()[0] as string, '--dataset', join(dir, 'q.dataset.jsonl'), '--frozen', first], bad.io)).toBe(2);
      expect(bad.err[0]).toContain('--frozen DIR and --stage STEP go together');
    } finally {
      await mock.close();
    }
  });

  it('exits 1 below --min-accuracy', async () => {
    const io = captureIo();
    expect(await main(['eval', chains()[0] as string, '--dataset', join(dir, 'q.dataset.jsonl'), '--out', join(dir, 'out-min'), '--min-accuracy', '0.5'], io.io)).toBe(1);
    expect(io.err.at(-1)).toContain('accuracy 0.0% is below --min-accuracy 0.5');
  });

  it('refuses bad data with the line number and bad arguments with exit 2, running nothing', async () => {
    await writeFile(join(dir, 'bad.dataset.jsonl'), `${JSON.stringify(items[0])}\n{"id": "x", "inputs": {}, "expected": {"facts": [1]}}\n`);
    const bad = captureIo();
    expect(await main(['eval', chains()[0] as string, '--dataset', join(dir, 'bad.dataset.jsonl'), '--out', join(dir, 'out-bad')], bad.io)).toBe(2);
    expect(bad.err[0]).toMatch(/bad\.dataset\.jsonl:2: \$\.expected\.facts\[0\]: .*nothing was run/);
    await expect(readdir(join(dir, 'out-bad'))).rejects.toThrow();

    await writeFile(join(dir, 'escape.dataset.jsonl'), `${JSON.stringify({ id: 'x', inputs: { document: { $file: '../../etc/passwd' }, question: 'q' } })}\n`);
    const escape = captureIo();
    expect(await main(['eval', chains()[0] as string, '--dataset', join(dir, 'escape.dataset.jsonl')], escape.io)).toBe(2);
    expect(escape.err[0]).toContain('nothing was run');

    for (const args of [['--concurrency', '0'], ['--scorer', 'judge'], ['--min-accuracy', '2']]) {
      const io = captureIo();
      expect(await main(['eval', chains()[0] as string, '--dataset', join(dir, 'q.dataset.jsonl'), ...args], io.io)).toBe(2);
    }
    const none = captureIo();
    expect(await main(['eval', '--dataset', join(dir, 'q.dataset.jsonl')], none.io)).toBe(2);
  });
});
