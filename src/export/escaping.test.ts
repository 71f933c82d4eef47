import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseChain } from '../chain/parse.ts';
import { findPlaceholders } from '../chain/template.ts';
import type { Chain } from '../chain/schema.ts';
import { hostileStrings, seeded } from '../testing/adversarial-exports.ts';
import { REPO_ROOT, runProcess } from '../testing/conformance-harness.ts';
import { claimStepNames } from './emit/names.ts';
import { EXPORT_TSCONFIG, exportChain, exportProgram, RUNTIME_DIR } from './export-chain.ts';
import { importChainSource } from '../formats/index.ts';
import { commentText, pyInline, pyLiteral, pyString, safeJson, tsLiteral, tsString } from './literals.ts';
import { planExport } from './plan.ts';
import { stepRegistry } from '../steps/index.ts';

/**
 * Escaping: hundreds of hostile strings (quotes of every kind, backticks, `${`, `"""`,
 * backslashes, U+2028/2029, NUL, lone surrogates, emoji, bidi marks, `</script>`, 100 KB
 * strings) go through every literal helper and into whole exported programs. The TypeScript
 * must pass `tsc --noEmit`, the Python `py_compile`, and every string must come back byte for
 * byte when the generated code runs.
 */
const strings = hostileStrings(600);
const tsc = join(REPO_ROOT, 'node_modules/.bin/tsc');
const tsx = join(REPO_ROOT, 'node_modules/.bin/tsx');

// The compiler options an export ships with (its tsconfig.json).
const TSCONFIG = EXPORT_TSCONFIG;

const made: string[] = [];
afterAll(() => Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true }))));

async function workDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  made.push(dir);
  await symlink(join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  await writeFile(join(dir, 'package.json'), '{ "type": "module" }\n');
  await writeFile(join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG));
  return dir;
}

/** Values that nest the hostile strings as keys and values, with numbers of every shape. */
function nestedValues(): unknown[] {
  const random = seeded(11);
  const values: unknown[] = [];
  for (let i = 0; i < 60; i++) {
    const key = strings[Math.floor(random() * 300)] as string;
    values.push({ [key === '__proto__' ? 'proto' : key]: [strings[i], i, -(i + 1) / 7, 1e21, 1.5e-7, true, false, null, { [`k${i}`]: strings[i + 1] }] });
  }
  return values;
}

describe('literals round-trip byte for byte', () => {
  const values = [...strings, ...nestedValues()];

  it(`${strings.length} hostile strings and ${values.length - strings.length} nested values through tsString / tsLiteral / safeJson`, async () => {
    const dir = await workDir('seamscope-literals-ts-');
    const lines = ['// Literal round-trip cases.', 'export const values: unknown[] = ['];
    for (const v of values) lines.push(`  ${typeof v === 'string' ? tsString(v) : tsLiteral(v)},`);
    lines.push('];', 'export const json: unknown[] = [');
    for (const v of values) lines.push(`  ${safeJson(v, 2)},`);
    lines.push('];');
    for (const s of strings.slice(0, 200)) lines.push(`// ${commentText(s)}`, `/** ${commentText(s)} */`);
    // console, not process: the export's tsconfig declares no Node types (the program needs none).
    lines.push('console.log(JSON.stringify([values, json]));');
    await writeFile(join(dir, 'cases.ts'), `${lines.join('\n')}\n`);
    const compiled = await runProcess(tsc, ['--noEmit', '-p', 'tsconfig.json'], dir, {});
    expect(compiled.stdout + compiled.stderr).toBe('');
    const run = await runProcess(tsx, ['cases.ts'], dir, {});
    expect(run.stderr).toBe('');
    const [back, backJson] = JSON.parse(run.stdout) as [unknown[], unknown[]];
    expect(back).toEqual(values);
    expect(backJson).toEqual(values);
    for (let i = 0; i < strings.length; i++) expect(back[i] === strings[i], `string ${i}`).toBe(true);
  }, 120_000);

  it(`the same through pyString / pyLiteral / pyInline and a raw-string JSON block`, async () => {
    const dir = await workDir('seamscope-literals-py-');
    const lines = ['# Literal round-trip cases.', 'import json', 'import sys', 'values = ['];
    for (const v of values) lines.push(`    ${typeof v === 'string' ? pyString(v) : pyLiteral(v)},`);
    lines.push(']', 'inline = [');
    for (const v of values) lines.push(`    ${pyInline(v)},`);
    lines.push(']', 'BLOCK = r"""', safeJson(values, 2), '"""');
    for (const s of strings.slice(0, 200)) lines.push(`# ${commentText(s)}`);
    lines.push('sys.stdout.write(json.dumps([values, inline, json.loads(BLOCK)]))');
    await writeFile(join(dir, 'cases.py'), `${lines.join('\n')}\n`);
    const compiled = await runProcess('python3', ['-m', 'py_compile', 'cases.py'], dir, {});
    expect(compiled.stderr).toBe('');
    const run = await runProcess('python3', ['cases.py'], dir, {});
    expect(run.stderr).toBe('');
    const [back, inline, block] = JSON.parse(run.stdout) as unknown[][];
    expect(back).toEqual(values);
    expect(inline).toEqual(values);
    expect(block).toEqual(values);
  }, 120_000);
});

const TRICKY_IDS = ['class', 'None', 'constructor', '__proto__', 'rt', 'run', 'CHAIN', 'flow', 'fooBar', 'foo_bar', 'FooBar', 'await', 'yield',
  'def', 'lambda', 'self', 'print', 'Inputs', 'selectStep', 'select', 'SELECT', 'x1', 'x_1', '_', '__', 'label', 'items'];

const clip = (s: string, max: number) => (s.length > max ? s.slice(0, max) : s);

/** A valid chain whose names, prompts, schemas, route labels and messages are hostile strings. */
function hostileChain(n: number): Chain {
  const random = seeded(100 + n);
  const text = (max: number) => clip(strings[Math.floor(random() * strings.length)] as string, max);
  const ids = TRICKY_IDS.slice((n * 3) % TRICKY_IDS.length).concat(TRICKY_IDS).slice(0, 6);
  const [model, gate, router, out1, out2, abstain] = ids as [string, string, string, string, string, string];
  const propName = text(60) || 'p';
  const schema = {
    type: 'object', description: text(500),
    properties: { [propName === '__proto__' ? 'proto' : propName]: { type: 'string', description: text(300), enum: [text(100), text(100)] }, answer: { type: 'string', title: text(200) } },
    required: ['answer'], additionalProperties: false,
  };
  const system = text(20_000);
  const prompt = `${text(150_000)} {question} ${text(2000)} {x}`;
  // Every placeholder the hostile text happens to contain (`{question}`, `\\N{BULLET}`…) gets a binding.
  const placeholders = Object.fromEntries(findPlaceholders(`${system}\n${prompt}`).filter((p) => p.binding !== '__proto__').map((p) => [p.binding, 'inputs.question']));
  const raw = {
    format: 'seamscope.chain', version: 1, id: clip(`${n}-${text(100)}`, 128) || `chain-${n}`, name: text(200) || 'chain', description: text(8000),
    inputs: [
      { name: 'question', description: text(2000), schema: { type: 'string', description: text(1000) }, trust: n % 2 ? 'untrusted' : 'trusted', example: text(5000) },
      { name: 'x', schema: { type: 'string' }, trust: 'untrusted' },
    ],
    steps: [
      { id: model, kind: 'model', name: text(200), description: text(4000), config: {
        bindings: { ...placeholders, question: 'inputs.question', x: 'inputs.x', class: 'inputs.question' },
        system, prompt, outputSchema: schema, schemaName: `s_${n}`, onFail: `fallback:${abstain}`,
      } },
      { id: gate, kind: 'gate', name: text(200), config: {
        bindings: { value: `steps.${model}` },
        check: { type: 'rule', rule: { '==': [{ var: 'value.answer' }, text(100)] }, message: text(500) || 'm' },
      } },
      { id: router, kind: 'router', name: text(200), config: {
        bindings: { value: `steps.${gate}` }, field: 'answer',
        routes: [{ equals: text(100), to: out1, label: text(100) }, { equals: { [text(20) || 'k']: [1, 2.5, null, true] }, to: out2 }, { equals: n, to: out2 }, { equals: null, to: out1 }],
        defaultTo: out2,
      } },
      { id: out1, kind: 'output', name: text(200), config: { bindings: { value: `steps.${router}` } } },
      { id: out2, kind: 'output', name: text(200), config: { bindings: { value: `steps.${gate}.answer` } } },
      { id: abstain, kind: 'abstain', name: text(200), config: { bindings: { value: 'inputs.question' }, reason: text(2000) } },
    ],
    meta: { notes: text(5000), [text(30) || 'k']: [text(100)] },
  };
  const parsed = parseChain(raw, stepRegistry);
  if (!parsed.ok) throw new Error(`hostile chain ${n} does not parse: ${parsed.problems.map((p) => `${p.path} ${p.message}`).join('; ')}`);
  return parsed.chain;
}

describe('whole programs with hostile names, prompts and schemas', () => {
  const chains = Array.from({ length: 10 }, (_, n) => hostileChain(n));
  let tsDir = '';
  let pyDir = '';

  beforeAll(async () => {
    tsDir = await workDir('seamscope-hostile-ts-');
    pyDir = await mkdtemp(join(tmpdir(), 'seamscope-hostile-py-'));
    made.push(pyDir);
    for (const [i, chain] of chains.entries()) {
      for (const [lang, dir] of [['ts', tsDir], ['py', pyDir]] as const) {
        const { files } = await exportChain(chain, { lang, fileName: lang === 'ts' ? `chain${i}.ts` : `chain${i}.py` });
        for (const file of files) {
          if (file.role === 'package') continue;
          await mkdir(dirname(join(dir, file.path)), { recursive: true });
          await writeFile(join(dir, file.path), file.contents);
        }
      }
    }
  }, 60_000);

  it('identifiers are valid and never collide (both languages)', () => {
    for (const chain of chains) {
      for (const lang of ['ts', 'py'] as const) {
        const names = [...claimStepNames(planExport(chain, stepRegistry), lang).values()].flatMap((n) => Object.values(n));
        expect(new Set(names).size).toBe(names.length);
        for (const name of names) expect(name).toMatch(/^[A-Za-z_][A-Za-z0-9_]*$/);
      }
    }
  });

  it('the TypeScript programs pass tsc --noEmit', async () => {
    const { stdout, stderr } = await runProcess(tsc, ['--noEmit', '-p', 'tsconfig.json'], tsDir, {}, 120_000);
    expect(stdout + stderr).toBe('');
  }, 120_000);

  it('the Python programs pass py_compile', async () => {
    const files = chains.map((_, i) => `chain${i}.py`);
    const { stderr, code } = await runProcess('python3', ['-m', 'py_compile', ...files, `${RUNTIME_DIR.py}/__init__.py`], pyDir, {});
    expect(stderr).toBe('');
    expect(code).toBe(0);
  }, 60_000);

  it('importing each program restores its chain exactly', () => {
    for (const [i, chain] of chains.entries()) {
      for (const lang of ['ts', 'py'] as const) {
        const back = importChainSource(exportProgram(chain, { lang, fileName: `chain${i}.${lang}` }).program.contents);
        expect(back.ok && back.chain, `chain ${i} (${lang})`).toEqual(chain);
      }
    }
  });

  it('the prompts and schemas in the running code are the chain\'s, byte for byte', async () => {
    const expected = chains.map((chain) => Object.fromEntries(chain.steps.filter((s) => s.kind === 'model').map((s) => [s.id, { prompt: s.config.prompt, system: s.config.system, schema: s.config.outputSchema }])));
    const specNames = (lang: 'ts' | 'py') => chains.map((chain) => {
      const names = claimStepNames(planExport(chain, stepRegistry), lang);
      return Object.fromEntries(chain.steps.filter((s) => s.kind === 'model').map((s) => [s.id, names.get(s.id)?.spec]));
    });
    const tsNames = specNames('ts');
    const tsProbe = [
      ...chains.map((_, i) => `import * as c${i} from './chain${i}.ts';`),
      `const specs = [${chains.map((_, i) => `c${i} as Record<string, unknown>`).join(', ')}];`,
      // JSON.parse, not an object literal: a step id may be "__proto__".
      `const names = JSON.parse(${tsString(JSON.stringify(tsNames))}) as Record<string, string>[];`,
      'process.stdout.write(JSON.stringify(names.map((byId, i) => Object.fromEntries(Object.entries(byId).map(([id, name]) => {',
      '  const spec = specs[i]?.[name as string] as { prompt: string; system: string; outputSchema: unknown };',
      '  return [id, { prompt: spec.prompt, system: spec.system, schema: spec.outputSchema }];',
      '})))));',
    ];
    await writeFile(join(tsDir, 'probe.ts'), `${tsProbe.join('\n')}\n`);
    const ts = await runProcess(tsx, ['probe.ts'], tsDir, {});
    expect(ts.stderr).toBe('');
    expect(JSON.parse(ts.stdout)).toEqual(expected);

    const pyNames = specNames('py');
    const pyProbe = [
      'import importlib.util, json, sys',
      'sys.path.insert(0, ".")',
      `names = json.loads(${pyString(JSON.stringify(pyNames))})`,
      'out = []',
      'for i, by_id in enumerate(names):',
      '    spec = importlib.util.spec_from_file_location(f"chain{i}", f"chain{i}.py")',
      '    module = importlib.util.module_from_spec(spec)',
      '    spec.loader.exec_module(module)',
      '    out.append({sid: {"prompt": getattr(module, n).prompt, "system": getattr(module, n).system, "schema": getattr(module, n).output_schema} for sid, n in by_id.items()})',
      'sys.stdout.write(json.dumps(out))',
    ];
    await writeFile(join(pyDir, 'probe.py'), `${pyProbe.join('\n')}\n`);
    const py = await runProcess('python3', ['probe.py'], pyDir, {});
    expect(py.stderr).toBe('');
    expect(JSON.parse(py.stdout)).toEqual(expected);
  }, 120_000);
});
