import { mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureIo } from '../testing/capture-io.ts';
import { corpusPath } from '../testing/corpus.ts';
import { stepRegistry } from '../steps/index.ts';
import { buildRunView, parseRunFile } from '../trace/index.ts';
import { convertCommand } from './convert.ts';
import { inspectCommand } from './inspect.ts';
import { main } from './main.ts';

let dir: string;
const langfuse = corpusPath('vendor-traces/langfuse-export-openai-agents-2025-09-30.trace.json');
const otlp = corpusPath('traces/otlp/openllmetry-0.33.9-openai-chat.otlp.json');

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'seamscope-convert-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function convert(input: string, to: string, out: string) {
  const io = captureIo();
  const code = await convertCommand([input], { to, out }, io.io);
  return { code, ...io };
}

const stepsOf = async (runPath: string) => {
  const parsed = parseRunFile(await readFile(runPath, 'utf8'));
  if (!parsed.ok) throw new Error(parsed.message);
  return buildRunView(parsed.file.run, parsed.file.events, stepRegistry).steps;
};

describe('seamscope convert', () => {
  it('a Langfuse export to a run file, saying what it read and what it wrote', async () => {
    const out = join(dir, 'agents.run.json');
    const { code, out: printed, err } = await convert(langfuse, 'run', out);
    expect(code).toBe(0);
    expect(printed).toEqual([out]);
    expect(err[0]).toMatch(/^read .*langfuse-export-openai-agents-2025-09-30\.trace\.json as a Langfuse trace export: run langfuse-\w+ "Agent workflow" \(succeeded\), 2 model calls$/);
    expect(err.at(-1)).toBe('wrote a Seamscope run file');
    expect(err.slice(1, -1).every((line) => line.startsWith('note: '))).toBe(true);
    const steps = await stepsOf(out);
    expect(steps.map((s) => [s.stepId, s.attempts[0]?.record.toolCalls?.[0]?.name ?? null])).toEqual([['response', 'get_weather'], ['response_2', null]]);
  });

  it('a run file to OTLP/JSON and back keeps the steps, tool calls and usage', async () => {
    const run = join(dir, 'agents.run.json');
    await convert(langfuse, 'run', run);
    const otlpOut = join(dir, 'nested', 'agents.otlp.json');
    expect((await convert(run, 'otlp', otlpOut)).code).toBe(0);
    expect(JSON.parse(await readFile(otlpOut, 'utf8'))).toHaveProperty('resourceSpans');
    const back = join(dir, 'agents-again.run.json');
    const again = await convert(otlpOut, 'run', back);
    expect(again.err[0]).toMatch(/ as an OTLP\/JSON trace: /);
    const [before, after] = [await stepsOf(run), await stepsOf(back)];
    expect(after.map((s) => s.stepId)).toEqual(before.map((s) => s.stepId));
    expect(after.map((s) => s.attempts.map((a) => [a.record.messages, a.record.text, a.record.toolCalls, a.record.usage])))
      .toEqual(before.map((s) => s.attempts.map((a) => [a.record.messages, a.record.text, a.record.toolCalls, a.record.usage])));
  });

  it('an OTLP trace to a run file that inspect reads', async () => {
    const out = join(dir, 'openllmetry.run.json');
    expect((await convert(otlp, 'run', out)).code).toBe(0);
    const io = captureIo();
    expect(await inspectCommand([out], {}, io.io)).toBe(0);
    expect(io.out[0]).toMatch(/openllmetry\.run\.json: read as a Seamscope run file$/);
  });

  it('refuses bad arguments with the usage and exit 2', async () => {
    for (const [positionals, options, message] of [
      [[], { to: 'run', out: 'x.json' }, /^Usage: seamscope convert/],
      [[langfuse], { out: 'x.json' }, /^--to must be run, otlp or chain/],
      [[langfuse], { to: 'csv', out: 'x.json' }, /^--to must be run, otlp or chain/],
      [[langfuse], { to: 'run' }, /^--out FILE is required/],
      [[langfuse], { to: 'run', out: langfuse }, /^--out names the input file/],
    ] as const) {
      const io = captureIo();
      expect(await convertCommand([...positionals], { ...options }, io.io)).toBe(2);
      expect(io.err[0]).toMatch(message);
    }
    const io = captureIo();
    expect(await main(['convert', langfuse, '--to', 'run', '--format', 'x'], io.io)).toBe(1);
    expect(io.err[0]).toMatch(/unknown option --format for "seamscope convert" \(it takes --to, --out\)/);
  });

  it('a hostile or oversized file is refused with its path, and nothing is written', async () => {
    const hostile = join(dir, 'hostile.trace.json');
    await writeFile(hostile, JSON.stringify({ trace: { id: 't' }, observations: [{ id: 'g', type: 'GENERATION', startTime: 5 }] }));
    const out = join(dir, 'never.run.json');
    const refused = await convert(hostile, 'run', out);
    expect(refused.code).toBe(1);
    expect(refused.err).toEqual([`${hostile}: read as a Langfuse trace export, but it cannot be imported: the Langfuse export is malformed: observations[0].startTime must be a string`]);
    expect(existsSync(out)).toBe(false);

    const big = join(dir, 'big.otlp.json');
    await writeFile(big, '');
    await truncate(big, 21 * 1024 * 1024);
    const tooBig = await convert(big, 'otlp', out);
    expect(tooBig.code).toBe(1);
    expect(tooBig.err).toEqual([`Cannot read ${big}: the file is 21.0 MB; trace files are limited to 20 MB`]);

    const unknown = join(dir, 'other.json');
    await writeFile(unknown, '{"spans": []}');
    expect((await convert(unknown, 'run', out)).err[0]).toMatch(/other\.json: not a Seamscope run file, an OTLP\/JSON trace or a Langfuse trace export \(this is not a trace Seamscope reads/);
    expect(existsSync(out)).toBe(false);
  });
});

describe('seamscope inspect reads every trace format', () => {
  it('a Langfuse export: the format and the import notes first, then the boundaries', async () => {
    const io = captureIo();
    expect(await inspectCommand([langfuse], {}, io.io)).toBe(0);
    expect(io.err).toEqual([]);
    expect(io.out[0]).toMatch(/langfuse-export-openai-agents-2025-09-30\.trace\.json: read as a Langfuse trace export$/);
    expect(io.out[1]).toMatch(/^ {2}note: 3 observation\(s\) that are not generations made no step \(they are in the span tree\)/);
    expect(io.out.some((line) => /^run langfuse-\w+ "Agent workflow" \(succeeded\)/.test(line))).toBe(true);
  });

  it('an OTLP trace, and the format in the --json report', async () => {
    const io = captureIo();
    expect(await inspectCommand([otlp], { json: true }, io.io)).toBe(0);
    expect(io.out).toHaveLength(1);
    expect(JSON.parse(io.out[0] ?? '')).toMatchObject({ format: 'seamscope.inspect', source: { format: 'otlp-json', name: 'OTLP/JSON trace', warnings: [] } });
  });

  it('an OTLP file with no LLM call is refused, naming the format it was read as', async () => {
    const io = captureIo();
    expect(await inspectCommand([corpusPath('traces/otlp/otlp-proto-example-trace.json')], {}, io.io)).toBe(1);
    expect(io.err).toEqual([expect.stringMatching(/otlp-proto-example-trace\.json: read as an OTLP\/JSON trace, but it cannot be imported: no LLM calls found/)]);
  });

  it('another tool\'s flow to a chain file, printing the fidelity report; the chain file then validates as itself', async () => {
    const flow = fileURLToPath(new URL('../testing/import-samples/langflow/Financial_Report_Parser.json', import.meta.url));
    const out = join(dir, 'financial.chain.json');
    const { code, out: printed, err } = await convert(flow, 'chain', out);
    expect(code).toBe(0);
    expect(printed).toEqual([out]);
    expect(err.join('\n')).toContain('Imported from Langflow');
    expect(err.join('\n')).toContain('kept  step structured_output: "Structured Output" (StructuredOutput) with its model "OpenAI" (OpenAIModel): temperature 0.1');
    const written = JSON.parse(await readFile(out, 'utf8')) as { meta: { importReport: { tool: string } } };
    expect(written.meta.importReport.tool).toBe('Langflow');
    const again = captureIo();
    expect(await main(['validate', out], again.io)).toBe(0);
    // Read back as a chain file: no report, nothing changed.
    expect(again.err.join('\n')).not.toContain('Imported from');
  });
});
