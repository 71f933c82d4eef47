import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseChain } from '../chain/parse.ts';
import type { Chain } from '../chain/schema.ts';
import { builtInSteps, stepRegistry } from '../steps/index.ts';
import { createStepRegistry } from '../steps/registry.ts';
import { defineStep } from '../steps/types.ts';
import { templateStep } from '../steps/template.ts';
import { twoStepChain } from '../testing/chain-fixtures.ts';
import { REPO_ROOT, runProcess } from '../testing/conformance-harness.ts';
import { claimStepNames } from './emit/names.ts';
import { exportChain, exportChainFiles, exportProgram, programFileName } from './export-chain.ts';
import { camelCase, createNameScope, isSafeIdentifier, snakeCase, upperSnakeCase } from './identifiers.ts';
import { embeddedChainJson, importChainSource, isExportedProgram } from '../formats/index.ts';
import { commentText, pyLiteral, pyString, safeJson, textLines, tsKey, tsLiteral, tsString } from './literals.ts';
import { fallbackChain, planExport } from './plan.ts';
import { createZip } from './zip.ts';

describe('a step kind exports from its definition alone', () => {
  it('writes a kind src/export has never heard of to Python through its `python` form', () => {
    // A kind defined outside the built-ins, in one object and one registry line: nothing in src/export names it.
    const shout = defineStep({ ...templateStep, kind: 'shout', title: 'Shout', python: { form: 'call', spec: 'TemplateSpec', method: 'template', fields: (cfg) => ({ text: `${cfg.text}!` }) } });
    const registry = createStepRegistry([...builtInSteps, shout]);
    const chain: Chain = {
      format: 'seamscope.chain', version: 1, id: 'shouted', name: 'Shouted',
      inputs: [{ name: 'who', schema: { type: 'string' }, trust: 'trusted', required: true }],
      steps: [
        { id: 'hello', kind: 'shout', name: 'Hello', position: { x: 0, y: 0 }, config: { bindings: { who: 'inputs.who' }, text: 'Hello {who}' } },
        { id: 'final', kind: 'output', name: 'Out', position: { x: 280, y: 0 }, config: { bindings: { value: 'steps.hello' } } },
      ],
    };
    const py = exportProgram(chain, { lang: 'py', registry }).program.contents;
    expect(py).toContain('HELLO = rt.TemplateSpec(');
    expect(py).toContain('text="Hello {who}!",');
    expect(py).toContain('return run.template(HELLO, reads)');
  });

  it('every built-in kind names a spec class and a method the Python runtime has', async () => {
    const { readFile } = await import('node:fs/promises');
    const runtime = join(REPO_ROOT, 'src/export/runtime/py/seamscope_runtime');
    const [specs, run] = await Promise.all([readFile(join(runtime, 'specs.py'), 'utf8'), readFile(join(runtime, 'run.py'), 'utf8')]);
    for (const def of stepRegistry.all()) {
      const form = def.python;
      expect(specs, `${def.kind}: no class ${form.spec} in specs.py`).toMatch(new RegExp(`^class ${form.spec}\\b`, 'm'));
      const method = form.form === 'call' ? form.method : form.form === 'map' ? 'unit' : 'route';
      expect(run, `${def.kind}: no Run.${method} in run.py`).toMatch(new RegExp(`^    def ${method}\\(self`, 'm'));
    }
  });
});

describe('literals', () => {
  it('escape what a reader cannot see and what would end or change the literal', () => {
    expect(tsString("it's \\ \n")).toBe("'it\\'s \\\\ \\n'");
    // \0 followed by a digit would be an octal escape; \x00 is not.
    expect(tsString('\u00001')).toBe("'\\x001'");
    expect(tsString('\u2028\u202e\ud800😀')).toBe("'\\u2028\\u202e\\ud800😀'");
    expect(tsString('${x} `')).toBe("'${x} `'");
    expect(pyString('"""\\\u0000')).toBe('"\\"\\"\\"\\\\\\x00"');
    expect(pyString('\udc00\ud800')).toBe('"\\udc00\\ud800"');
    expect(pyString('😀é')).toBe('"😀é"');
    expect(commentText('*/ end\nnext\u2028')).toBe('*\\/ end\\nnext\\u2028');
  });

  it('write JSON values as literals by walking them, never by replacing text', () => {
    const value = { true: 'true', null: [null, true, false], n: [1, 1.5, 1e21, -0.25], 'a-b': { '': 'x' } };
    expect(pyLiteral(value, 4)).toContain('"true": "true"');
    expect(pyLiteral(value, 4)).toContain('None,\n');
    expect(pyLiteral([true, false], 4)).toBe('[\n    True,\n    False,\n]');
    expect(tsLiteral(value)).toBe("{ true: 'true', null: [null, true, false], n: [1, 1.5, 1e+21, -0.25], 'a-b': { '': 'x' } }");
    expect(JSON.parse(safeJson(value, 2))).toEqual(value);
    // A "__proto__" key would set the prototype in a TypeScript object literal; chains never have one.
    expect(() => safeJson({ ['__proto__']: 1 })).toThrow();
    expect(() => tsKey('__proto__')).toThrow();
    expect(() => safeJson(Number.NaN)).toThrow();
  });

  it('split a prompt into lines without splitting anything else', () => {
    expect(textLines('a\nb\n')).toEqual(['a\n', 'b\n']);
    expect(textLines('😀\n😀')).toEqual(['😀\n', '😀']);
    expect(textLines('')).toEqual(['']);
  });
});

describe('identifiers', () => {
  it('fold names to each language\'s style', () => {
    expect(camelCase('quotes_check')).toBe('quotesCheck');
    expect(camelCase('routeEvidence2')).toBe('routeEvidence2');
    expect(snakeCase('routeEvidence')).toBe('route_evidence');
    expect(upperSnakeCase('select')).toBe('SELECT');
  });

  it('are valid, not keywords, and numbered instead of colliding', () => {
    const ts = createNameScope('ts', ['run']);
    expect(ts.claim('run')).toBe('run2');
    expect(ts.claim('class')).toBe('class2');
    expect(ts.claim('fooBar')).toBe('fooBar');
    expect(ts.claim('fooBar')).toBe('fooBar2');
    expect(ts.claim('x1')).toBe('x1');
    expect(ts.claim('x1')).toBe('x1_2');
    expect(ts.claim('')).toBe('value');
    expect(ts.claim('9lives')).toBe('_9lives');
    const py = createNameScope('py');
    for (const word of ['None', 'True', 'match', 'print', 'lambda']) expect(isSafeIdentifier(py.claim(word), 'py')).toBe(true);
  });

  it('give every step of a chain distinct names in both languages', () => {
    const chain = twoStepChain();
    const steps = ['fooBar', 'foo_bar', 'FooBar', 'run', 'CHAIN', 'class', 'None', 'selectStep', 'select'].map((id, i) => ({
      id, kind: 'output', name: id, position: { x: i, y: 0 }, config: { bindings: { value: 'inputs.question' } },
    }));
    const parsed = parseChain({ ...chain, steps: [...chain.steps, ...steps] }, stepRegistry);
    if (!parsed.ok) throw new Error('fixture');
    for (const lang of ['ts', 'py'] as const) {
      const names = [...claimStepNames(planExport(parsed.chain, stepRegistry), lang).values()].flatMap((n) => Object.values(n));
      expect(new Set(names).size).toBe(names.length);
      for (const name of names) expect(isSafeIdentifier(name, lang), `${lang} ${name}`).toBe(true);
    }
  });
});

function withFallbacks(): Chain {
  const parsed = parseChain({
    format: 'seamscope.chain', version: 1, id: 'fb', name: 'Fallbacks',
    inputs: [{ name: 'q', schema: { type: 'string' } }],
    steps: [
      { id: 'a', kind: 'model', name: 'A', config: { bindings: { q: 'inputs.q' }, prompt: '{q}', onFail: 'fallback:b' } },
      { id: 'b', kind: 'model', name: 'B', config: { bindings: { q: 'inputs.q' }, prompt: '{q}', onFail: 'fallback:c' } },
      { id: 'c', kind: 'escalate', name: 'C', config: {} },
      { id: 'r', kind: 'router', name: 'R', config: { bindings: { value: 'steps.a' }, routes: [{ equals: 'x', to: 'x' }], defaultTo: 'y' } },
      { id: 'x', kind: 'output', name: 'X', config: { bindings: { value: 'steps.a' } } },
      { id: 'y', kind: 'output', name: 'Y', config: { bindings: { value: 'steps.r' } } },
    ],
  }, stepRegistry);
  if (!parsed.ok) throw new Error(parsed.problems.map((p) => p.message).join('; '));
  return parsed.chain;
}

describe('the export plan', () => {
  it('runs fallback targets only in place of a failed step, and guards steps behind a router', () => {
    const plan = planExport(withFallbacks(), stepRegistry);
    expect(plan.order).toEqual(['a', 'r', 'x', 'y']);
    expect(fallbackChain(plan, 'a').map((s) => s.step.id)).toEqual(['b', 'c']);
    expect(plan.steps.get('x')?.conditional).toBe(true);
    expect(plan.steps.get('y')?.chosenBy).toEqual(['r']);
    expect(plan.steps.get('r')?.conditional).toBe(false);
  });

  it('writes the fallbacks out in turn (Python) and describes them over the engine\'s step table (TypeScript)', () => {
    const ts = exportProgram(withFallbacks(), { lang: 'ts' }).program.contents;
    expect(ts).toContain(' *   a (model); on fail: b runs in its place, then c runs in its place, then the run fails');
    expect(ts).toContain('export const STEPS: Readonly<Record<string, rt.StepFunction>> = {\n  a: aStep,\n  b: bStep,\n  c: cStep,');
    const py = exportProgram(withFallbacks(), { lang: 'py' }).program.contents;
    expect(py).toContain('    if a.failed:  # b runs in its place\n        a = run.fallback(a, B, {"q": run.read("inputs.q")}, b_step)');
  });
});

describe('exporting', () => {
  it('names files after the chain id, safely', () => {
    expect(programFileName('demo-x', 'ts')).toBe('demo-x.ts');
    expect(programFileName('demo-x', 'py')).toBe('demo_x.py');
    expect(programFileName('../../etc/passwd', 'ts')).toBe('etc-passwd.ts');
    expect(programFileName('9 lives', 'py')).toBe('chain_9_lives.py');
  });

  it('refuses an invalid chain and never takes a key', () => {
    expect(() => exportProgram({ ...twoStepChain(), steps: [] } as unknown as Chain, { lang: 'ts' })).not.toThrow();
    expect(() => exportProgram({ format: 'seamscope.chain' } as unknown as Chain, { lang: 'ts' })).toThrow(/not valid/);
    expect(() => exportProgram(twoStepChain(), { lang: 'py', endpoint: { apiKey: 'sk-x' } as never })).toThrow(/keys come from the environment/);
  });

  it('leaves the Python rank table pending until exportChainFiles, and only for chains that count tokens', async () => {
    const plain = await exportChain(twoStepChain(), { lang: 'py' });
    expect(plain.pending).toEqual([]);
    const budget = twoStepChain();
    (budget.steps[0] as { config: Record<string, unknown> }).config.inputBudget = 500;
    expect((await exportChain(budget, { lang: 'py' })).pending).toEqual(['seamscope_runtime/o200k_base.ranks']);
    expect((await exportChain(budget, { lang: 'ts' })).pending).toEqual([]);
    const full = await exportChainFiles(budget, { lang: 'py' });
    expect(full.files.find((f) => f.role === 'data')?.contents.startsWith('seamscope-bpe-ranks 2 o200k_base\nclass L ')).toBe(true);
  });
});

describe('the Python token counter', () => {
  it('counts as the engine does, long runs of one word included (cut into the same pieces)', async () => {
    const budget = twoStepChain();
    (budget.steps[0] as { config: Record<string, unknown> }).config.inputBudget = 500;
    const { files } = await exportChainFiles(budget, { lang: 'py' });
    const dir = await mkdtemp(join(tmpdir(), 'seamscope-tokens-'));
    const { mkdir } = await import('node:fs/promises');
    for (const f of files) {
      await mkdir(join(dir, f.path, '..'), { recursive: true });
      await writeFile(join(dir, f.path), f.contents);
    }
    const texts = [
      'Appeals are filed within 180 calendar days of the notice.',
      'a'.repeat(2000),
      `id: ${'ab'.repeat(700)} tail`,
      `wide ${'😀'.repeat(700)}!`, // astral characters: the pieces are cut by UTF-16 units, a pair may split
      `${'x'.repeat(511)} ${'y'.repeat(512)}\n${'z'.repeat(1025)}`,
    ];
    await writeFile(join(dir, 'texts.json'), JSON.stringify(texts));
    const script = 'import json, sys\nfrom seamscope_runtime.tokens import load_token_counter\ncount, exact = load_token_counter(False)\nassert exact\nsys.stdout.write(json.dumps([count(t) for t in json.load(open("texts.json", encoding="utf-8"))]))';
    const { stdout, stderr } = await runProcess('python3', ['-c', script], dir, {});
    expect(stderr).toBe('');
    const { loadTokenCounter } = await import('../providers/tokenizer.ts');
    const count = await loadTokenCounter();
    expect(JSON.parse(stdout)).toEqual(texts.map(count));
  }, 60_000);
});

describe('importing an exported program', () => {
  it('restores the chain from TypeScript and from Python, and passes chain files through', () => {
    const chain = twoStepChain();
    for (const lang of ['ts', 'py'] as const) {
      const text = exportProgram(chain, { lang }).program.contents;
      expect(isExportedProgram(text)).toBe(true);
      const back = importChainSource(text);
      expect(back.ok && back.chain).toEqual(parseChain(chain, stepRegistry).ok && (parseChain(chain, stepRegistry) as { chain: Chain }).chain);
    }
    expect(importChainSource(JSON.stringify(chain)).ok).toBe(true);
    expect(embeddedChainJson(JSON.stringify(chain))).toBeNull();
  });

  it('reports a cut or edited embedded chain with a path, never a stack trace', () => {
    const text = exportProgram(twoStepChain(), { lang: 'py' }).program.contents;
    const cut = text.slice(0, text.indexOf('</seamscope:chain>') - 40);
    const result = importChainSource(cut);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problems[0]?.path).toBe('$');
    const edited = importChainSource(text.replace('"version": 1', '"version": 99'));
    expect(!edited.ok && edited.problems[0]?.message).toContain('newer Seamscope');
  });
});

describe('the download archive', () => {
  it('is a ZIP that Python\'s zipfile reads back file for file', async () => {
    const files = (await exportChain(twoStepChain(), { lang: 'py' })).files.map((f) => ({ path: f.path, contents: f.contents }));
    const zip = createZip([...files, { path: 'unicodé/😀.txt', contents: 'é\u0000x' }]);
    const dir = await mkdtemp(join(tmpdir(), 'seamscope-zip-'));
    await writeFile(join(dir, 'export.zip'), zip);
    const script = 'import json, sys, zipfile\nz = zipfile.ZipFile("export.zip")\nassert z.testzip() is None\nassert {(i.date_time, i.external_attr >> 16, i.compress_type) for i in z.infolist()} == {((1980, 1, 1, 0, 0, 0), 0o100644, zipfile.ZIP_DEFLATED)}\nsys.stdout.write(json.dumps({n: z.read(n).decode("utf-8") for n in z.namelist()}))';
    const { stdout, stderr } = await runProcess('python3', ['-c', script], dir, {});
    expect(stderr).toBe('');
    expect(JSON.parse(stdout)).toEqual(Object.fromEntries([...files.map((f) => [f.path, f.contents]), ['unicodé/😀.txt', 'é\u0000x']]));
    expect(createZip(files)).toEqual(createZip(files));
    // Deflated: the export is mostly text.
    expect(createZip(files).length).toBeLessThan(files.reduce((n, f) => n + f.contents.length, 0) / 2);
  });
});

describe('export notes', () => {
  it('say when steps name endpoint profiles the exported program cannot tell apart', () => {
    expect(exportProgram(twoStepChain(), { lang: 'ts' }).notes).toEqual([]);
    const chain = { ...twoStepChain(), steps: twoStepChain().steps.map((s) => (s.id === 'extract' ? { ...s, config: { ...s.config, profile: 'Local' } } : s)) };
    const [note] = exportProgram(chain, { lang: 'py' }).notes;
    expect(note).toContain('extract (Local)');
    expect(note).toContain('one endpoint');
  });
});
