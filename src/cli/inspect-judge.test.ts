import { copyFile, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockModelServer, type MockModelServer } from '../testing/mock-server.ts';
import { main } from './main.ts';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (t: string) => out.push(t), err: (t: string) => err.push(t), env: { OPENAI_API_KEY: 'sk-judge-test' } }, out, err };
}

const demo = (name: string) => new URL(`../../public/demo/${name}`, import.meta.url).pathname;
const judgeChain = new URL('../../public/judges/sufficiency.chain.json', import.meta.url).pathname;

let dir: string;
let mock: MockModelServer;
const runs: string[] = [];
// The person's labels of the summarise → answer boundary of twelve runs: six derivable, six not.
const person = ['derivable', 'not-derivable', 'derivable', 'not-derivable', 'derivable', 'not-derivable', 'derivable', 'not-derivable', 'derivable', 'not-derivable', 'derivable', 'not-derivable'] as const;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'seamscope-judge-'));
  mock = await createMockModelServer();
  const first = join(dir, 'run-0.run.json');
  expect(await main(['run', demo('summarise-then-answer.chain.json'), '--out', first], capture().io)).toBe(0);
  for (const [i, verdict] of person.entries()) {
    const path = join(dir, `run-${i}.run.json`);
    if (i > 0) await copyFile(first, path);
    expect(await main(['label', path, 'summarise->answer', verdict], capture().io)).toBe(0);
    runs.push(path);
  }
});
afterAll(async () => mock.close());

const endpoint = () => ['--endpoint', `${mock.url}/v1`, '--model', 'mock-model'];
const verdict = (derivable: boolean, quote = '') => ({ content: { derivable, reason: derivable ? `The summary says "${quote}"` : 'The summary does not give the number of days.', quote } });

describe('seamscope inspect --judge', () => {
  it('a judge that agrees with the person on 11 of 12 boundaries is trusted, with its table and kappa; its calls are counted apart', async () => {
    mock.reset();
    // Agrees everywhere but the last run, where it says derivable against the person's not-derivable.
    mock.enqueue(...person.map((p, i) => verdict(p === 'derivable' || i === 11, 'reconsideration')));
    const io = capture();
    expect(await main(['inspect', ...runs, '--judge', judgeChain, ...endpoint()], io.io)).toBe(0);
    const text = io.out.join('\n');
    expect(text).toContain('12 of 24 boundaries judged; 12 judge calls');
    expect(text).toContain('(counted apart from the runs)');
    expect(text).toMatch(/judge: derivable +6 +1\n +judge: not derivable +0 +5/);
    expect(text).toContain("observed 92 %, Cohen's kappa 0.83");
    expect(text).toContain('trusted: 12 labelled boundaries, kappa 0.83: at or above the bar');
    expect(text).toMatch(/summarise → answer: derivable · you: not-derivable \(disagrees\)/);
    // Each judge call saw the question and the summary, never the key in a record.
    expect(mock.requests).toHaveLength(12);
    const prompt = JSON.stringify(mock.requests[0]?.body);
    expect(prompt).toContain('How many days do I have to request a reconsideration');
    expect(io.out.join('\n')).not.toContain('sk-judge-test');
  });

  it('a judge that disagrees with the person is shown as an opinion, not trusted, and a quote it made up is flagged', async () => {
    mock.reset();
    mock.enqueue(...person.map(() => verdict(true, 'appeals may be filed at any time')));
    const io = capture();
    expect(await main(['inspect', ...runs, '--judge', judgeChain, ...endpoint(), '--json'], io.io)).toBe(0);
    const report = JSON.parse(io.out.join('\n')) as { agreement: { n: number; kappa: number | null; trusted: boolean; why: string }; usage: { calls: number }; boundaries: { label: string; judgement: { verdict: string; quote?: { found: boolean } } }[] };
    expect(report.agreement).toMatchObject({ n: 12, trusted: false });
    expect(report.agreement).toMatchObject({ kappa: 0 });
    expect(report.agreement.why).toContain('disagrees with you too often');
    expect(report.usage.calls).toBe(12);
    expect(report.boundaries.filter((b) => b.judgement).every((b) => b.judgement.quote?.found === false)).toBe(true);
    const text = capture();
    mock.enqueue(...person.map(() => verdict(true, 'appeals may be filed at any time')));
    expect(await main(['inspect', ...runs.slice(0, 2), '--judge', judgeChain, ...endpoint()], text.io)).toBe(0);
    expect(text.out.join('\n')).toContain('not trusted yet: 2 labelled boundaries');
    expect(text.out.join('\n')).toContain('judge says derivable · you: not-derivable (disagrees)');
    expect(text.out.join('\n')).toContain('[its quote is not in the intermediate]');
  });

  it('needs a real endpoint and a judge chain that takes a question and an intermediate; several traces only with --judge', async () => {
    const io = capture();
    expect(await main(['inspect', runs[0] as string, '--judge', judgeChain], io.io)).toBe(2);
    expect(io.err.join('\n')).toContain('the rule-based check stands');
    const wrong = join(dir, 'wrong.chain.json');
    await writeFile(wrong, JSON.stringify({ format: 'seamscope.chain', version: 1, id: 'w', name: 'W', inputs: [{ name: 'text', schema: { type: 'string' }, trust: 'untrusted', required: true }], steps: [{ id: 'o', kind: 'output', name: 'O', position: { x: 0, y: 0 }, config: { bindings: { value: 'inputs.text' } } }] }));
    const bad = capture();
    expect(await main(['inspect', runs[0] as string, '--judge', wrong, ...endpoint()], bad.io)).toBe(2);
    expect(bad.err.join('\n')).toContain('missing: question, intermediate');
    const two = capture();
    expect(await main(['inspect', ...runs.slice(0, 2)], two.io)).toBe(2);
    expect(two.err.join('\n')).toContain('several only with --judge');
  });
});
