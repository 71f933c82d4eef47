import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseChain } from '../chain/parse.ts';
import type { Chain } from '../chain/schema.ts';
import { main } from '../cli/main.ts';
import { runChain } from '../engine/run.ts';
import { createDemoProvider } from '../providers/demo-model.ts';
import { PROTO_NAMES, protoNamesChain } from '../testing/proto-chain.ts';
import { createMemoryRunRepository } from '../trace/repository.ts';
import { DEFAULT_SETTINGS, runEngine, runExported } from '../testing/conformance-harness.ts';
import { exportProgram } from './export-chain.ts';
import { importChainSource } from '../formats/index.ts';
import { stepRegistry } from '../steps/index.ts';

/**
 * `constructor`, `toString`, `hasOwnProperty`, `valueOf` and `__proto__` as input names,
 * binding names, step ids, output property names, enum values and route values and labels:
 * the chain validates, runs on the demo model and on the mock server, exports to both
 * languages, imports back deep-equal, and the exported programs end as the engine does.
 */
const chainFor = (label: (typeof PROTO_NAMES)[number]): Chain => {
  const parsed = parseChain(protoNamesChain(label), stepRegistry);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.chain;
};
const inputsOf = (chain: Chain) => Object.fromEntries(chain.inputs.map((i) => [i.name, i.example]));
const demoRun = (chain: Chain, inputs: Record<string, unknown>, structuredOutput = true) => runChain({
  chain, inputs, provider: createDemoProvider(), repo: createMemoryRunRepository(), model: { name: 'demo', maxOutputTokens: 2000, structuredOutput },
});

describe('prototype names in a chain', () => {
  it.each(PROTO_NAMES.map((n) => [n]))('route %s: validate, demo run, export and import back', async (label) => {
    const chain = chainFor(label);
    const run = await demoRun(chain, inputsOf(chain));
    expect(run.status, run.error).toBe('succeeded');
    expect(run.inputs).toEqual(inputsOf(chain));
    // The route taken is the one the label names, through a route whose label is that name.
    expect(run.output).toEqual(label === '__proto__' ? { constructor: expect.any(Number) } : expect.any(Array));
    for (const lang of ['ts', 'py'] as const) {
      const program = exportProgram(chain, { lang }).program;
      expect(importChainSource(program.contents, { fileName: program.path })).toEqual({ ok: true, chain });
    }
  });

  it('the demo model and the mock answer enums whose values are prototype names', async () => {
    const schemas = [
      { type: 'object', properties: { label: { enum: ['constructor'] } }, required: ['label'] },
      { type: 'object', properties: { label: { type: 'string', enum: ['constructor', 'toString', 'hasOwnProperty', '__proto__'] } }, required: ['label'] },
      { type: 'object', properties: { category: { type: 'string', enum: ['valueOf', 'constructor'] } }, required: ['category'] },
    ];
    for (const outputSchema of schemas) {
      const parsed = parseChain({
        format: 'seamscope.chain', version: 1, id: 'enum', name: 'Enum', inputs: [{ name: 'q', schema: { type: 'string' } }],
        steps: [{ id: 'm', kind: 'model', name: 'm', config: { bindings: { q: 'inputs.q' }, prompt: 'Pick one for {q}', outputSchema } }, { id: 'o', kind: 'output', name: 'o', config: { bindings: { value: 'steps.m' } } }],
      }, stepRegistry);
      if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
      const inputs = { q: 'constructor toString' };
      const [field, { enum: allowed }] = Object.entries(outputSchema.properties as unknown as Record<string, { enum: string[] }>)[0] as [string, { enum: string[] }];
      for (const structuredOutput of [true, false]) {
        const run = await demoRun(parsed.chain, inputs, structuredOutput);
        expect(run.status, run.error).toBe('succeeded');
        expect(allowed).toContain((run.output as Record<string, string>)[field]);
      }
      const mock = await runEngine(parsed.chain, inputs, DEFAULT_SETTINGS, [], 'enum-run');
      expect(mock.status, mock.error).toBe('succeeded');
      expect(allowed).toContain((mock.output as Record<string, string>)[field]);
    }
  }, 60_000);

  it('the demo model fills a required "constructor" that has no property schema', async () => {
    const parsed = parseChain({
      format: 'seamscope.chain', version: 1, id: 'req', name: 'Req', inputs: [{ name: 'q', schema: { type: 'string' } }],
      steps: [{ id: 'm', kind: 'model', name: 'm', config: { bindings: { q: 'inputs.q' }, prompt: 'Answer {q}', outputSchema: { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer', 'constructor', 'toString'] } } }, { id: 'o', kind: 'output', name: 'o', config: { bindings: { value: 'steps.m' } } }],
    }, stepRegistry);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    const run = await demoRun(parsed.chain, { q: 'anything' });
    expect(run.status, run.error).toBe('succeeded');
    expect(Object.keys(run.output as object)).toEqual(['answer', 'constructor', 'toString']);
  });

  it.each([['constructor'], ['__proto__']] as const)('route %s: the engine and both exports agree over the mock server', async (label) => {
    const chain = chainFor(label);
    const inputs = inputsOf(chain);
    const engine = await runEngine(chain, inputs, DEFAULT_SETTINGS, [], `proto-${label}`);
    expect(engine.status, engine.error).toBe('succeeded');
    for (const lang of ['ts', 'py'] as const) {
      const exported = await runExported(chain, lang, inputs, DEFAULT_SETTINGS, [], `proto-${label}`);
      expect({ lang, status: exported.status, output: exported.output }, exported.log).toEqual({ lang, status: engine.status, output: engine.output });
      expect(exported.bodies, lang).toEqual(engine.bodies);
      expect(exported.decisions, lang).toEqual(engine.decisions);
    }
  }, 120_000);

  it('the CLI takes an input named __proto__ from an inputs file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'seamscope-proto-'));
    const chain = chainFor('__proto__');
    await writeFile(join(dir, 'p.chain.json'), JSON.stringify(chain));
    await writeFile(join(dir, 'inputs.json'), '{"__proto__": "from the file", "constructor": "c", "toString": "t"}');
    const out: string[] = [];
    const err: string[] = [];
    const io = { out: (t: string) => out.push(t), err: (t: string) => err.push(t), env: {} };
    expect(await main(['run', join(dir, 'p.chain.json'), '--inputs', join(dir, 'inputs.json'), '--out', join(dir, 'r.json')], io), err.join('\n')).toBe(0);
    expect(err.join('\n')).not.toContain('missing');
  });
});
