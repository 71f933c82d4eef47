import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hashString } from '../chain/hash.ts';
import { createSchemaValidator } from '../engine/validate.ts';
import { checkIdSet, checkNumbers, checkQuotes, checkRule, statedNumbers } from '../steps/gate-checks.ts';
import { assemblePrompt, isStrictCompatible, parseModelJson } from '../steps/model-prompt.ts';
import { modelConfigSchema } from '../steps/model.config.ts';
import { retrieveSections } from '../steps/retrieve-search.ts';
import { splitSections } from '../steps/sections.ts';
import { hostileStrings, seeded } from '../testing/adversarial-exports.ts';
import { REPO_ROOT, runProcess } from '../testing/conformance-harness.ts';
import { runtimeFiles } from './export-chain.ts';

let pythonRuntime: Promise<Record<string, string>> | undefined;

/**
 * The Python runtime against the engine's own code, function by function, on thousands of
 * generated cases: V8's JSON.parse (values and error wording), JavaScript number text,
 * JSON.stringify, ajv's messages, MiniSearch's BM25 scores, section splitting, Math.log,
 * the content hash, the gate checks, JSON Logic and prompt assembly.
 */
const PROBE = `
import sys
sys.path.insert(0, ".")
from seamscope_runtime import jsjson, text, sections, retrieval, validate, checks, json_logic, prompt
from seamscope_runtime.jsjson import UNDEFINED

validator = validate.Validator()

def run(fn, args):
    if fn == "parse":
        try:
            return {"text": jsjson.stringify(jsjson.parse_json(args))}
        except jsjson.JSONParseError as error:
            return {"error": str(error)}
    if fn == "model_json":
        ok, value = prompt.parse_model_json(args)
        return {"ok": ok, "value": value if ok else None, "error": None if ok else value}
    if fn == "number":
        return jsjson.number_to_string(args)
    if fn == "stringify":
        value = jsjson.parse_json(args)
        return [jsjson.stringify(value), jsjson.stringify(value, 2)]
    if fn == "validate":
        return validator(args[0], args[1])
    if fn == "retrieve":
        return retrieval.retrieve_sections(args[0], args[1], args[2])
    if fn == "sections":
        return [{"id": s.id, "heading": s.heading, "text": s.text} for s in sections.split_sections(args)]
    if fn == "log":
        return retrieval.js_log(args)
    if fn == "hash":
        return text.hash_string(args)
    if fn == "numbers":
        return checks.stated_numbers(args)
    if fn == "check_numbers":
        return checks.check_numbers(args[0], args[1], args[2])
    if fn == "check_id_set":
        return checks.check_id_set(args[0], args[1])
    if fn == "check_quotes":
        return checks.check_quotes(args[0], args[1], args[2], args[3])
    if fn == "rule":
        return checks.check_rule(args[0], args[1], "failed")
    if fn == "strict":
        return prompt.is_strict_compatible(args)
    if fn == "prompt":
        system, template, schema, values, untrusted, in_prompt = args
        messages, segments, missing = prompt.assemble_prompt(system, template, schema, values, set(untrusted), in_prompt)
        return {"messages": messages, "segments": segments, "missing": missing}
    raise ValueError(fn)

tasks = jsjson.parse_json(sys.stdin.read())
out = []
for fn, args in tasks:
    try:
        out.append(run(fn, args))
    except Exception as error:
        out.append({"python_error": f"{type(error).__name__}: {error}"})
sys.stdout.write(jsjson.stringify(out))
`;

async function python(tasks: [string, unknown][]): Promise<unknown[]> {
  const dir = await mkdtemp(join(tmpdir(), 'seamscope-probe-'));
  // The runtime folder as an export writes it (its modules and the shared tables from TypeScript).
  await mkdir(join(dir, 'seamscope_runtime'));
  for (const [name, text] of Object.entries(await (pythonRuntime ??= runtimeFiles('py')))) await writeFile(join(dir, 'seamscope_runtime', name), text);
  await writeFile(join(dir, 'probe.py'), PROBE);
  await writeFile(join(dir, 'tasks.json'), JSON.stringify(tasks));
  const { stdout, stderr } = await runProcess('bash', ['-c', 'python3 probe.py < tasks.json'], dir, { PYTHONDONTWRITEBYTECODE: '1' }, 120_000);
  if (!stdout) throw new Error(stderr);
  return JSON.parse(stdout) as unknown[];
}

const random = seeded(2024);
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
const hostile = hostileStrings(200);
const statute = readFileSync(join(REPO_ROOT, 'public/demo/documents/42-USC-1395ff.md'), 'utf8');
const handbook = readFileSync(join(REPO_ROOT, 'public/demo/documents/dental-plan-handbook.md'), 'utf8');
const contract = readFileSync(join(REPO_ROOT, 'public/demo/documents/cuad-neoforma-verticalnet-co-branding-1999.txt'), 'utf8');
// A table of contents before its body: the clause run is chosen by the text each line owns.
const paratek = readFileSync(join(REPO_ROOT, 'src/testing/survival-set/documents/cuad-paratek-carbogen.txt'), 'utf8');

function jsonSamples(): string[] {
  return [
    '{"answer":"180 days","section_ids":["(b)(1)(D)(i)"]}', '[1,2.5,-0.0,1e21,1E-7,123456789012345678901234567890]', '{"b":1,"2":2,"1":3,"a":{"10":1,"9":2}}',
    '{"a":1,"a":2,"b":[true,false,null]}', '"\\ud83d\\ude00 \\ud800 \\u00e9 \\/ \\b\\f\\n\\r\\t"', '{"nested":[[[[{"x":[]}]]]],"e":{}}', '0', '-0', '"x"',
    JSON.stringify({ relevant_sections: [{ section_id: '(a)', why: 'w', quote: 'q'.repeat(30) }], insufficient_evidence: false }),
  ];
}

function mutate(text: string): string {
  const inserts = ['{', '}', '[', ']', '"', ':', ',', '\\', '-', '.', 'e', '0', '1', 'a', 't', 'n', 'f', ' ', '\n', '\t', '\u0000', '\u0001', 'é', '😀', '\ud800', '\u2028', 'u', 'x'];
  const at = Math.floor(random() * (text.length + 1));
  switch (Math.floor(random() * 4)) {
    case 0:
      return text.slice(0, at) + pick(inserts) + text.slice(at);
    case 1:
      return text.slice(0, at) + text.slice(at + 1);
    case 2:
      return text.slice(0, at);
    default:
      return text.slice(0, at) + text.slice(Math.floor(random() * text.length));
  }
}

function v8Parse(text: string): { text: string } | { error: string } {
  try {
    return { text: JSON.stringify(JSON.parse(text)) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

describe('the Python runtime matches the engine', () => {
  it('JSON.parse: values and V8\'s error messages (3000 mutated texts)', async () => {
    const texts = ['', ' ', 'undefined', 'NaN', 'Infinity', '[object Object]', '\ufeff{}', 'nul', 'tru', 'fals', '{"a"', '{"a":', '01', '-', '1.', '1e', '1e+',
      '"\\u12g4"', '"\\x"', '"a\u0001"', 'x'.repeat(25), `${'x'.repeat(30)}{`, '[1,]', '{"a":1,}', '{,}', ' [ ] x', '"\\', '"\\u', '"\\ud800"'];
    const samples = jsonSamples();
    while (texts.length < 3000) {
      let t = pick(samples);
      const n = 1 + Math.floor(random() * 3);
      for (let i = 0; i < n; i++) t = mutate(t);
      texts.push(t);
    }
    const got = await python(texts.map((t) => ['parse', t]));
    const mismatches = texts.map((t, i) => ({ t, want: v8Parse(t), got: got[i] })).filter((c) => JSON.stringify(c.want) !== JSON.stringify(c.got));
    expect(mismatches.slice(0, 5)).toEqual([]);
    // And the retry feedback the engine words from it.
    const model = await python(texts.slice(0, 300).map((t) => ['model_json', `\`\`\`json\n${t}\n\`\`\``]));
    texts.slice(0, 300).forEach((t, i) => {
      const want = parseModelJson(`\`\`\`json\n${t}\n\`\`\``);
      const result = model[i] as { ok: boolean; error: string | null };
      expect(result.ok).toBe(want.ok);
      if (!want.ok) expect(result.error).toBe(want.error);
    });
  }, 120_000);

  it('number text: String(n) for 3000 doubles', async () => {
    const view = new DataView(new ArrayBuffer(8));
    const numbers = [0, 1, -1, 0.1, 0.1 + 0.2, 1e21, 1e20, 123456789012345680000, 1e-7, 1e-6, 5e-324, Number.MAX_VALUE, -1.5e-300, 2 ** 53, 2 ** 53 + 2, 1 / 3, 100, 1.005];
    while (numbers.length < 3000) {
      for (let i = 0; i < 8; i++) view.setUint8(i, Math.floor(random() * 256));
      const x = random() < 0.5 ? view.getFloat64(0) : (random() - 0.5) * 10 ** Math.floor(random() * 40 - 20);
      if (Number.isFinite(x)) numbers.push(x);
    }
    const got = await python(numbers.map((n) => ['number', n]));
    expect(numbers.map((n, i) => [n, got[i]]).filter(([n, g]) => String(n) !== g).slice(0, 5)).toEqual([]);
  }, 60_000);

  it('JSON.stringify, compact and pretty, with JavaScript key order', async () => {
    const texts = [...jsonSamples(), ...hostile.slice(0, 150).map((s) => JSON.stringify({ [s]: s, 7: [s], b: { 3: 1, a: s } }))];
    const got = await python(texts.map((t) => ['stringify', t]));
    texts.forEach((t, i) => expect(got[i], t.slice(0, 80)).toEqual([JSON.stringify(JSON.parse(t)), JSON.stringify(JSON.parse(t), null, 2)]));
  }, 60_000);

  it('JSON Schema validation: ajv\'s messages, pointers and order', async () => {
    const schemas: Record<string, unknown>[] = [
      { type: 'object', properties: { answer: { type: 'string' }, section_ids: { type: 'array', items: { type: 'string' }, maxItems: 4, minItems: 1 } }, required: ['answer', 'section_ids'], additionalProperties: false },
      { type: 'string', minLength: 3, maxLength: 5 }, { type: 'string', enum: ['a', 'b'] }, { enum: [1, 'x', null, { a: 1 }] }, { const: 'fixed' },
      { type: 'integer', minimum: 1, maximum: 10 }, { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1, multipleOf: 0.25 }, { type: ['string', 'null'] },
      { type: 'string', nullable: true }, { type: 'array', uniqueItems: true }, { type: 'array', items: { type: 'integer' }, uniqueItems: true },
      { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false }, { type: 'array', contains: { type: 'string' } },
      { type: 'array', contains: { const: 1 }, minContains: 2, maxContains: 3 }, { type: 'object', minProperties: 1, maxProperties: 2 },
      { type: 'object', patternProperties: { '^x_\\d+$': { type: 'number' } }, additionalProperties: false }, { type: 'object', propertyNames: { maxLength: 3 } },
      { type: 'object', dependentRequired: { a: ['b', 'c'] } }, { anyOf: [{ type: 'string' }, { type: 'number', minimum: 5 }] },
      { oneOf: [{ type: 'string' }, { type: 'string', minLength: 2 }] }, { not: { type: 'null' } }, { allOf: [{ minLength: 2 }, { maxLength: 4 }], type: 'string' },
      { if: { type: 'string' }, then: { minLength: 3 }, else: { type: 'number' } }, { type: 'string', pattern: '^[A-Z]{2}\\d+$' }, { type: 'string', format: 'email' },
      { $defs: { id: { type: 'string', pattern: '^p\\d+$' } }, type: 'object', properties: { id: { $ref: '#/$defs/id' } }, required: ['id'] },
      { type: 'object', properties: { items: { type: 'array', items: { type: 'object', properties: { q: { type: 'string', minLength: 20 } }, required: ['q'], additionalProperties: false } } } },
      { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { 'a/b~c': { type: 'boolean' } } }, true as unknown as Record<string, unknown>,
    ];
    const values: unknown[] = [null, true, false, 0, 1, 2.5, 7, -3, 1e21, 'a', 'abc', 'abcdef', 'AB12', 'p1', 'x', '', [], [1], [1, 1], ['a', 1], ['a', 1, 2], [1, 1, 1], ['a', 'a'],
      [{ a: 1 }, { a: 1 }], {}, { a: 1 }, { a: 1, b: 2 }, { a: 1, b: 2, c: 3 }, { answer: 'x', section_ids: [] }, { answer: 1, section_ids: ['a', 'b', 'c', 'd', 'e'], extra: true },
      { x_1: 1, x_a: 2, 'a/b~c': 'no' }, { id: 'q1' }, { items: [{ q: 'short' }, { q: 'long enough to pass the check', z: 1 }, 'x'] }, { longname: 1, ab: 2 }];
    const cases: [Record<string, unknown>, unknown][] = schemas.flatMap((s) => values.map((v): [Record<string, unknown>, unknown] => [s, v]));
    const engine = createSchemaValidator();
    const got = await python(cases.map((c) => ['validate', c]));
    const mismatches = cases.map(([s, v], i) => ({ s, v, want: engine.validate(s, v), got: got[i] })).filter((c) => JSON.stringify(c.want) !== JSON.stringify(c.got));
    expect(mismatches.slice(0, 5)).toEqual([]);
  }, 60_000);

  it('schema patterns and formats: the engine\'s linear-time matches and words, ReDoS patterns included', async () => {
    const patterns = ['\\s', '^.$', '^[^]$', '^[]$', '^\\S+$', '^[\\S]+$', '^\\d{3}-\\d{2}$', '\\uD83D\\uDE00', '^\\u{1F600}$', '^a|b$', '(?<y>\\d{4})', '[a-z-0]',
      '\\bfoo\\b', '\\Bo', '\\/x', '^\\x41\\t$', '^[\\w.-]+@x$', '^a$', '^(?:ab)*?c', '^\\cJ$', '[\\b]', '^\\0$', '^(a|b)*c{2,3}$', '^$', '(a*)*b', '^[^a-c\\d]+$', '^(a+)+$', '^(\\w+\\s?)*$'];
    const texts = ['', 'a', ' ', '\u00a0', '\n', '\u2028', 'x', '😀', 'ab', 'a b', '123-45', 'xb', '2024', '-', 'a foo b', 'afoo', '/x', 'A\t', 'a.b-c@x', 'a\n', 'ababc', '\b', '\0',
      'abacc', 'aab', 'é', `${'a'.repeat(10_000)}!`, `${'ab '.repeat(3000)}!`];
    const formats = ['date', 'time', 'date-time', 'email', 'uuid', 'ipv4', 'hostname', 'uri'];
    const formatTexts = ['2024-02-29', '2023-02-29', '2024-13-01', '10:00:00Z', '23:59:60+01:00', '24:00:00Z', '2024-05-01T10:00:00.5Z', '2024-05-01 10:00:00+25:00',
      'ada@example.org', 'a@b', 'not an email', `${'a'.repeat(250)}@x.io`, '123e4567-e89b-12d3-a456-426614174000', 'urn:uuid:123E4567-E89B-12D3-A456-426614174000',
      '192.168.0.1', '256.1.1.1', 'example.com.', '-bad.com', `${'a'.repeat(63)}.com`, 'http://x'];
    const cases: [Record<string, unknown>, unknown][] = [
      ...patterns.flatMap((pattern) => texts.map((t): [Record<string, unknown>, unknown] => [{ type: 'string', pattern }, t])),
      ...patterns.slice(0, 8).map((pattern): [Record<string, unknown>, unknown] => [{ type: 'object', patternProperties: { [pattern]: { type: 'number' } } }, Object.fromEntries(texts.map((t) => [t, 'x']))]),
      ...formats.flatMap((format) => formatTexts.map((t): [Record<string, unknown>, unknown] => [{ type: 'string', format }, t])),
      [{ type: 'array', uniqueItems: true }, [{ a: 1, b: [2] }, 3, { b: [2], a: 1 }, 3, 'x']], [{ $ref: '#/$defs/e', $defs: { e: { format: 'email' } } }, 'nope'],
      // Exponential re-checking: the same defined answer once the budget is spent.
      [{ $defs: { n: { anyOf: [{ required: ['x'], properties: { c: { $ref: '#/$defs/n' } } }, { required: ['y'], properties: { c: { $ref: '#/$defs/n' } } }] } }, $ref: '#/$defs/n' },
        Array.from({ length: 30 }).reduce<Record<string, unknown>>((v) => ({ c: v }), {})],
    ];
    const engine = createSchemaValidator();
    const got = await python(cases.map((c) => ['validate', c]));
    const mismatches = cases.map(([s, v], i) => ({ s, v, want: engine.validate(s, v), got: got[i] })).filter((c) => JSON.stringify(c.want) !== JSON.stringify(c.got));
    expect(mismatches.slice(0, 5)).toEqual([]);
  }, 60_000);

  it('BM25 retrieval: MiniSearch\'s scores and ranks, to the bit', async () => {
    const words = [...statute.split(/\s+/), ...contract.split(/\s+/)].filter((w) => w.length > 2);
    const extras = ['How', 'many', 'days', '?', 'appeal', 'Medicare', 'reconsideration', "member's", 'é', '😀', '—', '180-day', 'THE', 'shall'];
    const queries = Array.from({ length: 200 }, () => Array.from({ length: 1 + Math.floor(random() * 7) }, () => (random() < 0.2 ? pick(extras) : pick(words))).join(' '));
    const paragraphs = 'First paragraph about refunds and returns.\n\nSecond paragraph: shipping takes 5 days.\r\n\r\nThird one, in\u2028a strange\u00a0layout.';
    const cases: [string, string, number][] = queries.map((q, i) => [i % 3 === 0 ? contract : i % 3 === 1 ? statute : paragraphs, q, 1 + (i % 6)]);
    const got = await python(cases.map((c) => ['retrieve', c]));
    cases.forEach(([doc, q, k], i) => {
      const want = retrieveSections(doc, q, k);
      expect(got[i], q).toEqual(want);
    });
  }, 120_000);

  it('section splitting on the demo documents and on awkward layouts', async () => {
    const docs = [statute, contract, '# A\ntext\n## 2.1 B\nmore\n### C\r\nend', '# One\r\n## Two\r\nbody', 'para one\n\n\npara two\n \npara\u2028three', '1. Definitions\n1.1 X\n'.repeat(12),
      '##### (a) In general\n(1) first\n(A) sub\n(i) deeper\n(I) deepest\n(2) second\n##### (b) Other\n(1) again', 'no structure at all',
      handbook, '§ 1.1 One rule.\nSection 1.2. Two rules.\n2.1 Three 😀 rules.\n## Next\n2.2 Four.', paratek,
      // Weights in UTF-16 code units: the astral line outweighs the plain one only as the engine counts.
      '1.1 A.\n1.2 B.\n2.1 C.\n1.2 😀😀😀\n1.2 xxxxx\n1.3 D.', '## 1. A\n1.1 a\n1.2 b\n## 4. D\n4.1 d\n4.2 e\n3.1 back\n',
      // Statutes as plain text: subsections by letter order, (i)/(v)/(x) settled by the markers around them.
      statute.replace(/^#{1,6} /gm, ''), '(a) A\n(1) one\n(h) H\n(1) x\n(A) y\n(i) first\n(ii) second\n(i) Defs\n(1) z\n(v) V\n(1) w', 'Terms:\n(i) Price.\n(ii) Delivery.\n(iii) Returns.', '(a) First.\n(b) Second.\n(c) Third.', '1) Pay.\n2) File.\n3) Wait.', ...hostile.slice(0, 40)];
    const got = await python(docs.map((d) => ['sections', d]));
    docs.forEach((d, i) => {
      const want = splitSections(d).map((s) => ({ id: s.id, heading: s.heading, text: s.text }));
      expect(got[i]).toEqual(want);
    });
  }, 60_000);

  it('Math.log (fdlibm), bit for bit on 20000 inputs', async () => {
    const xs = Array.from({ length: 20000 }, (_, i) => (i < 10000 ? 1 + random() * 1000 : 10 ** (random() * 40 - 20)));
    const got = (await python(xs.map((x) => ['log', x]))) as number[];
    expect(xs.filter((x, i) => Math.log(x) !== got[i]).slice(0, 5)).toEqual([]);
  }, 60_000);

  it('the content hash over UTF-16 code units', async () => {
    const got = await python(hostile.map((s) => ['hash', s]));
    expect(got).toEqual(hostile.map(hashString));
  }, 60_000);

  it('gate checks: stated numbers, number consistency, quote containment', async () => {
    const texts = ['The 180-day period under § 1395ff(b)(1) and (2) applies; pay $1,000.50 within 60 days.', 'No numbers here.', '3.5.', '1,2,3', ...hostile.slice(0, 30)];
    const got = await python(texts.map((t) => ['numbers', t]));
    expect(got).toEqual(texts.map(statedNumbers));
    const ids = splitSections(statute).map((s) => s.id);
    const numberCases: [string, string[], string][] = Array.from({ length: 40 }, (_, i) => [`You have ${i * 30} days and 180 days (see ${pick(ids)}).`, [pick(ids), pick(ids), 'nope'], statute]);
    expect(await python(numberCases.map((c) => ['check_numbers', c]))).toEqual(numberCases.map(([a, c, s]) => checkNumbers(a, c, s)));
    const quoteValues = Array.from({ length: 40 }, () => {
      const section = pick(splitSections(statute));
      const at = Math.floor(random() * Math.max(1, section.text.length - 60));
      const quote = random() < 0.7 ? section.text.slice(at, at + 40 + Math.floor(random() * 80)) : pick(hostile);
      return { relevant_sections: [{ section_id: random() < 0.8 ? section.id : pick(ids), quote }, { section_id: 7, quote: null }] };
    });
    const quoteCases = quoteValues.map((v): [unknown, string, string, string | null] => [v, statute, 'relevant_sections[*].quote', random() < 0.5 ? 'section_id' : null]);
    expect(await python(quoteCases.map((c) => ['check_quotes', c]))).toEqual(quoteCases.map(([v, s, p, f]) => checkQuotes(v, s, p, f ?? undefined)));
  }, 60_000);

  it('the id-set check: counts first, ids quoted, the engine\'s words', async () => {
    const pool = ['1', '4.2', '(b)(1)', 7, 4.2, true, null, ...hostile.slice(0, 20)];
    const cases: [unknown[], unknown[]][] = Array.from({ length: 80 }, () => [
      Array.from({ length: Math.floor(random() * 6) }, () => pick(pool)),
      Array.from({ length: Math.floor(random() * 6) }, () => pick(pool)),
    ]);
    cases.push([['1', '2'], ['1', '2', '3']]);
    const want = cases.map(([r, e]) => checkIdSet(r, e));
    expect(want.some((p) => p[0]?.startsWith('expected ') && p.some((l) => /^missing ids: "/.test(l)))).toBe(true);
    expect(await python(cases.map((c) => ['check_id_set', c]))).toEqual(want);
  }, 60_000);

  it('JSON Logic rules, as json-logic-js evaluates them', async () => {
    const rules: [unknown, unknown][] = [
      [{ '==': [{ var: 'value.a' }, 1] }, { value: { a: '1' } }], [{ '===': [{ var: 'value.a' }, 1] }, { value: { a: '1' } }], [{ '!=': [null, 0] }, {}],
      [{ and: [{ '>': [{ var: 'n' }, 2] }, { '<': [{ var: 'n' }, 10] }] }, { n: 5 }], [{ or: [0, '', []] }, {}], [{ '!!': [[]] }, {}], [{ '!': [{ var: 'missing' }] }, {}],
      [{ in: ['ab', 'xaby'] }, {}], [{ in: [2, [1, 2, 3]] }, {}], [{ cat: ['a', null, 1, true] }, {}], [{ '+': ['1', 2, '3.5'] }, {}], [{ '*': [2, '3'] }, {}], [{ '-': [5] }, {}],
      [{ '/': [1, 0] }, {}], [{ '%': [7, 3] }, {}], [{ min: [3, 1, 2] }, {}], [{ max: [] }, {}], [{ merge: [[1], 2, [3, [4]]] }, {}], [{ if: [false, 1, true, 2, 3] }, {}],
      [{ some: [{ var: 'xs' }, { '>': [{ var: '' }, 2] }] }, { xs: [1, 2, 3] }], [{ all: [[], true] }, {}], [{ none: [{ var: 'xs' }, { '==': [{ var: '' }, 9] }] }, { xs: [1] }],
      [{ missing: ['a', 'b'] }, { a: 1 }], [{ missing_some: [1, ['a', 'b']] }, { b: '' }], [{ substr: ['abcdef', -3, -1] }, {}], [{ substr: ['abcdef', 1, 2] }, {}],
      [{ reduce: [{ var: 'xs' }, { '+': [{ var: 'current' }, { var: 'accumulator' }] }, 0] }, { xs: [1, 2, 3] }], [{ nope: [1] }, {}], [{ '<=': [1, 2, 2] }, {}],
      [{ '==': [[1, 2], '1,2'] }, {}], [{ '<': ['a', 'b'] }, {}], [{ '>': ['10', 9] }, {}], [{ var: ['value.items.length'] }, { value: { items: [1, 2] } }],
    ];
    expect(await python(rules.map(([r, d]) => ['rule', [r, d]]))).toEqual(rules.map(([r, d]) => checkRule(r, d as Record<string, unknown>, 'failed')));
  }, 60_000);

  it('prompt assembly: framing, placeholders, segments and strict-mode detection', async () => {
    const config = modelConfigSchema.parse({ prompt: 'p' });
    const cases: [string, string, Record<string, unknown> | null, Record<string, unknown>, string[], boolean][] = hostile.slice(0, 60).map((s, i) => [
      i % 3 === 0 ? `System {question} ${s}` : '', `Q: {question}\nV: {value.a} {value.b.0} {missing} ${s}`, i % 2 ? { type: 'object', properties: { a: { type: 'string' } } } : null,
      { question: s, value: { a: s.slice(0, 5), b: [i, { s }] } }, i % 4 ? ['question'] : ['value'], i % 5 === 0,
    ]);
    const got = await python(cases.map((c) => ['prompt', c]));
    cases.forEach(([system, prompt, schema, values, untrusted, inPrompt], i) => {
      const want = assemblePrompt({ ...config, system, prompt, outputSchema: schema }, values, new Set(untrusted), { schemaInPrompt: inPrompt });
      expect(got[i]).toEqual(JSON.parse(JSON.stringify(want)));
    });
    const schemas = [{ type: 'object', properties: { a: {} }, required: ['a'], additionalProperties: false }, { type: 'object', properties: {} }, { properties: { a: { type: 'object' } } },
      { items: [{ type: 'object', additionalProperties: false }] }, { type: 'string' }, {}];
    expect(await python(schemas.map((s) => ['strict', s]))).toEqual(schemas.map(isStrictCompatible));
  }, 60_000);
});
