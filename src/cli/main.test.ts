import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRunFile } from '../trace/run-file.ts';
import { main } from './main.ts';
import { routedChain, twoOutputChain } from '../testing/chain-fixtures.ts';

function capture(env: Record<string, string | undefined> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (t: string) => out.push(t), err: (t: string) => err.push(t), env }, out, err };
}

const demo = (name: string) => new URL(`../../public/demo/${name}`, import.meta.url).pathname;

describe('seamscope CLI', () => {
  it('validates a demo chain and exits 0', async () => {
    const { io, out } = capture();
    expect(await main(['validate', demo('summarise-then-answer.chain.json')], io)).toBe(0);
    expect(out.join('\n')).toContain(': ok');
  });

  it('lists every problem with its path and exits non-zero on a bad file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'seamscope-'));
    const path = join(dir, 'bad.chain.json');
    await writeFile(path, JSON.stringify({ format: 'seamscope.chain', version: 1, id: 'x', name: 'x', inputs: [], steps: [{ id: 'a', kind: 'model', name: 'A', config: { prompt: '{nothing}' } }] }));
    const { io, err } = capture();
    expect(await main(['validate', path], io)).toBe(1);
    expect(err.join('\n')).toContain('$.steps[0].config.prompt');
    expect(await main(['validate', join(dir, 'missing.json')], io)).toBe(1);
    expect(err.join('\n')).toContain('ENOENT');
  });

  it('a design error is a problem: validate names it and exits 1, and run refuses before any call', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'seamscope-'));
    const path = join(dir, 'router.chain.json');
    // A router's branch drawn to an Output that reads nothing: it would run and return nothing.
    const chain = routedChain();
    chain.steps = chain.steps.map((s) => (s.id === 'billing_reply' ? { ...s, config: { bindings: {} } } : s));
    await writeFile(path, JSON.stringify(chain));
    const { io, out, err } = capture();
    expect(await main(['validate', path], io)).toBe(1);
    expect(out.join('\n')).not.toContain(': ok');
    expect(err.join('\n')).toContain('error: billing_reply: Output reads "value" but nothing is bound to it');
    await writeFile(join(dir, 'inputs.json'), JSON.stringify({ ticket: 'Refund please' }));
    expect(await main(['run', path, '--inputs', join(dir, 'inputs.json'), '--out', join(dir, 'run.json')], io)).toBe(1);
    expect(err.join('\n')).toContain('failed — The chain cannot run: billing_reply');
  });

  it('prints every output of a chain with several, as one JSON object', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'seamscope-'));
    const path = join(dir, 'two.chain.json');
    await writeFile(path, JSON.stringify(twoOutputChain()));
    const { io, out } = capture();
    expect(await main(['run', path, '--out', join(dir, 'run.json')], io)).toBe(0);
    expect(Object.keys(JSON.parse(out.join('\n')) as object)).toEqual(['summary_out', 'answer_out']);
    // inspect names each output with what it returned, in text and in --json.
    const text = capture();
    expect(await main(['inspect', join(dir, 'run.json')], text.io)).toBe(0);
    expect(text.out.join('\n')).toMatch(/outputs: 2 of 2 returned a value\n {2}summary_out: .+\n {2}answer_out: .+/);
    const json = capture();
    expect(await main(['inspect', join(dir, 'run.json'), '--json'], json.io)).toBe(0);
    const outputs = (JSON.parse(json.out.join('\n')) as { outputs: { stepId: string; state: string }[] }).outputs;
    expect(outputs.map((o) => [o.stepId, o.state])).toEqual([['summary_out', 'returned'], ['answer_out', 'returned']]);
  });

  it('runs a demo chain headless on the demo model, writes the trace and prints the output', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'seamscope-'));
    const outPath = join(dir, 'run.json');
    const { io, out } = capture();
    expect(await main(['run', demo('select-quotes-then-answer.chain.json'), '--out', outPath], io)).toBe(0);
    expect(out.join('\n')).toContain('180 days');
    const parsed = parseRunFile(await readFile(outPath, 'utf8'));
    expect(parsed.ok && parsed.file.run.status).toBe('succeeded');
    expect(parsed.ok && parsed.file.events.filter((e) => e.type === 'step.attempt').length).toBe(2);
  });

  it('takes inputs from a file, with {"$file"} values read relative to it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'seamscope-'));
    await writeFile(join(dir, 'doc.txt'), 'A member may request reconsideration within 180 calendar days of the notice.');
    await writeFile(join(dir, 'inputs.json'), JSON.stringify({ document: { $file: 'doc.txt' }, question: 'How many days do I have to request reconsideration?' }));
    const { io, out } = capture();
    expect(await main(['run', demo('select-quotes-then-answer.chain.json'), '--inputs', join(dir, 'inputs.json'), '--out', join(dir, 'r.json')], io)).toBe(0);
    expect(out.join('\n')).toContain('180');
  });

  it('reads meta.inputFiles only for inputs --inputs did not supply', async () => {
    // The chain copied alone: the document its meta.inputFiles names is not beside it.
    const dir = await mkdtemp(join(tmpdir(), 'seamscope-'));
    const chainPath = join(dir, 'alone.chain.json');
    await writeFile(chainPath, await readFile(demo('select-quotes-then-answer.chain.json'), 'utf8'));
    await writeFile(join(dir, 'inputs.json'), JSON.stringify({ document: 'A member may request reconsideration within 180 calendar days of the notice.', question: 'How many days do I have to request reconsideration?' }));
    const given = capture();
    expect(await main(['run', chainPath, '--inputs', join(dir, 'inputs.json'), '--out', join(dir, 'r.json')], given.io)).toBe(0);
    expect(given.err.join('\n')).not.toContain('ENOENT');
    // An input left out still comes from meta.inputFiles, which here is missing: that is the error.
    await writeFile(join(dir, 'question.json'), JSON.stringify({ question: 'How many days?' }));
    const partial = capture();
    expect(await main(['run', chainPath, '--inputs', join(dir, 'question.json'), '--out', join(dir, 'r2.json')], partial.io)).toBe(1);
    expect(partial.err.join('\n')).toContain('ENOENT');
  });

  it('never reads an input file outside the chain\'s folder', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'seamscope-'));
    const chain = JSON.parse(await readFile(demo('select-quotes-then-answer.chain.json'), 'utf8')) as { meta: { inputFiles: Record<string, string> } };
    chain.meta.inputFiles = { document: '../../etc/hostname' };
    await writeFile(join(dir, 'escape.chain.json'), JSON.stringify(chain));
    const { io, err } = capture();
    expect(await main(['run', join(dir, 'escape.chain.json'), '--out', join(dir, 'r.json')], io)).toBe(1);
    expect(err.join('\n')).toContain('$.meta.inputFiles.document  names "../../etc/hostname", which is refused: it climbs out of the folder');
  });

  it('answers unknown commands with usage and exit 2', async () => {
    const { io, err } = capture();
    expect(await main(['frobnicate'], io)).toBe(2);
    expect(err.join('\n')).toContain('Usage');
  });
});
