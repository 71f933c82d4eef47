import type { ChainProblem } from '../chain/parse.ts';
import { setOwn } from '../chain/own.ts';
import { PLACEHOLDER_PATTERN } from '../chain/template.ts';
import { isRecord } from '../files/json-value.ts';
import { checkRelativePath } from '../files/relative-path.ts';
import { compilePattern } from '../schema/pattern.ts';
import { createFidelityReport, type FidelityReport } from './fidelity.ts';
import type { ChainFormatContext, ToChainResult, ToSuiteResult } from './format.ts';
import { identifierFrom } from './flow-common.ts';
import { carryModelSettings } from './model-settings.ts';
import { readPromptFile, readTestsFile, type PromptSource } from './promptfoo-files.ts';
import { RUBRIC_INPUT, RUBRIC_JUDGE_ID, rubricJudgeChain } from './promptfoo-rubric.ts';

/**
 * promptfoo configs (`promptfooconfig.yaml`), read as what they are: prompts tried against a
 * set of tests. Each prompt becomes a chain of one model step (its provider's settings carried
 * over and reported); the tests become a dataset (their vars the inputs), and each assertion a
 * scorer where one here measures the same thing (`llm-rubric` a judge chain, `is-json` the
 * step's output schema). An assertion that runs code (`javascript`, `python`) is never run: the
 * report lists it as not carried over, and the rest imports. Prompts and tests named with
 * `file://` are read from the config's own folder only (promptfoo-files.ts).
 */

/**
 * The scorers and dataset items an import makes, in the shapes of `src/eval` (scorer-spec.ts,
 * dataset.ts), written out here because formats sit below eval: the eval command checks them
 * with its own schemas when it reads an imported config.
 */
export type ScorerSpec = { type: 'contains' } | { type: 'exact' } | { type: 'regex'; pattern: string } | { type: 'judge'; chain: string };
export interface DatasetItem { id: string; inputs: Record<string, unknown>; expected: { output?: string } }

export interface PromptfooImport {
  /** One chain per prompt, each against the first provider. */
  chains: Record<string, unknown>[];
  /** The tests as dataset items; the scorers every item is scored by. */
  dataset: { name?: string; scorers: ScorerSpec[]; items: DatasetItem[] };
  /** The judge chains the dataset's `judge` scorers name (the llm-rubric judge), by their ids. */
  judges: Record<string, unknown>[];
  report: FidelityReport;
}

const text = (v: unknown) => (typeof v === 'string' ? v : '');
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);

/** `{{ name }}` only: the Nunjucks a Seamscope `{name}` placeholder says exactly. */
const SIMPLE_VAR = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/** A prompt as a Seamscope template and the vars it reads, or why it cannot be one. */
function translatePrompt(source: string): { template: string; vars: string[] } | { problem: string } {
  const rest = source.replace(SIMPLE_VAR, '');
  if (/\{\{|\{%|\{#/.test(rest)) return { problem: 'it uses Nunjucks beyond {{ var }} (filters, loops, conditions or comments)' };
  // Text that already reads as a Seamscope placeholder would be filled in, not sent as written.
  const literal = rest.match(PLACEHOLDER_PATTERN);
  if (literal) return { problem: `it has the text ${literal[0]}, which a Seamscope template would fill in` };
  const template = source.replace(SIMPLE_VAR, (_whole, name: string) => `{${name}}`);
  return { template, vars: [...new Set([...template.matchAll(PLACEHOLDER_PATTERN)].map((m) => (m[1] ?? '').split('.')[0] as string))] };
}

/** A provider as `{ id, config }`: promptfoo writes one as a string, or an object with `id`. */
function providerOf(value: unknown): { id: string; config: Record<string, unknown>; label: string } | null {
  if (typeof value === 'string') return { id: value, config: {}, label: value };
  if (!isRecord(value)) return null;
  const id = text(value.id);
  if (!id) return null;
  return { id, config: isRecord(value.config) ? value.config : {}, label: text(value.label) || id };
}

/** `openai:chat:gpt-4o` → gpt-4o: the model is the id's last part; the endpoint is the profile it runs on. */
const modelOf = (id: string) => id.split(':').pop() ?? id;

/** Each assertion's fate: a scorer and the item's expected value, or the reason it was not carried over. */
type Mapped = { scorer: ScorerSpec; expected?: string; note?: string } | { dropped: string } | { rubric: string } | { json: Record<string, unknown> };

function mapAssertion(a: Record<string, unknown>): Mapped {
  const type = text(a.type);
  const value = a.value;
  if (a.transform !== undefined) return { dropped: 'it transforms the output with code first, which an import never runs' };
  switch (type) {
    case 'contains':
      if (typeof value !== 'string') return { dropped: 'its value is not one text' };
      return { scorer: { type: 'contains' }, expected: value, note: 'compared ignoring case and spacing (promptfoo\'s contains is exact)' };
    case 'icontains':
      if (typeof value !== 'string') return { dropped: 'its value is not one text' };
      return { scorer: { type: 'contains' }, expected: value, note: 'compared ignoring case, as icontains does, and spacing' };
    case 'equals':
      if (typeof value !== 'string') return { dropped: 'its value is not one text' };
      return { scorer: { type: 'exact' }, expected: value, note: 'compared ignoring case and spacing' };
    case 'regex': {
      if (typeof value !== 'string') return { dropped: 'its value is not one pattern' };
      const compiled = compilePattern(value);
      if (!compiled.ok) return { dropped: `the pattern cannot run in linear time here (${compiled.problem})` };
      return { scorer: { type: 'regex', pattern: value } };
    }
    case 'javascript': case 'python':
      return { dropped: `it runs ${type === 'python' ? 'Python' : 'JavaScript'} code, which an import never runs` };
    case 'is-json':
      if (value !== undefined && !isRecord(value)) return { dropped: 'its schema is not a JSON Schema object' };
      return { json: isRecord(value) ? value : {} };
    case 'llm-rubric': {
      if (typeof value !== 'string' || !value.trim()) return { dropped: 'its rubric is not one text' };
      if (a.provider !== undefined) return { dropped: 'it names its own grading provider; the judge here runs on the eval\'s model' };
      const rest = value.replace(SIMPLE_VAR, '');
      if (/\{\{|\{%|\{#/.test(rest)) return { dropped: 'its rubric uses Nunjucks beyond {{ var }}' };
      return { rubric: value };
    }
    default:
      return { dropped: `no scorer here does what "${type || 'an untyped assertion'}" does` };
  }
}

const scorerKey = (s: ScorerSpec) => JSON.stringify(s);

/** One prompt as the config gives it, after `file://` prompts are read: where it came from, its label and its source. */
interface PromptEntry { where: string; label: string; source: PromptSource }

/** Every prompt the config names, files read from its own folder; problems for those that cannot be read. */
function promptEntries(config: Record<string, unknown>, ctx: Pick<ChainFormatContext, 'readSibling'>, problems: ChainProblem[], report: FidelityReport): PromptEntry[] {
  const entries: PromptEntry[] = [];
  for (const [i, entry] of list(config.prompts).entries()) {
    const raw = isRecord(entry) ? text(entry.raw) || text(entry.id) : text(entry);
    const label = isRecord(entry) ? text(entry.label) || raw : raw;
    const where = `prompts[${i}]`;
    if (!raw.startsWith('file://')) {
      entries.push({ where, label, source: { kind: 'text', text: raw } });
      continue;
    }
    const read = readPromptFile(raw, ctx);
    if (!read.ok) {
      problems.push({ path: `$.${where}`, message: `the prompt ${read.problem}` });
      continue;
    }
    for (const [j, source] of read.value.entries()) {
      const part = read.value.length > 1 ? ` part ${j + 1}` : '';
      entries.push({ where: `${where} (${read.file}${part})`, label: isRecord(entry) && text(entry.label) ? `${text(entry.label)}${part}` : `${read.file}${part}`, source });
    }
    report.kept.push({ where, what: `the prompt file ${read.file}${read.value.length > 1 ? ` (${read.value.length} prompts between --- lines)` : ''}, read from the config's own folder` });
  }
  return entries;
}

/**
 * A prompt as a model step's system and user templates: text is the user turn; chat messages
 * are a system turn (optional, first) and one user turn, which is what a model step sends.
 */
function stepPrompt(source: PromptSource): { system?: string; user: string } | { problem: string } {
  if (source.kind === 'text') return { user: source.text };
  const messages = Array.isArray(source.messages) ? source.messages : null;
  if (!messages || !messages.every((m) => isRecord(m) && typeof m.role === 'string' && typeof m.content === 'string')) return { problem: 'its chat messages are not a list of {role, content} with text content' };
  const turns = messages as { role: string; content: string }[];
  const [first, ...rest] = turns;
  const system = first?.role === 'system' ? first.content : undefined;
  const others = system === undefined ? turns : rest;
  if (others.length !== 1 || others[0]?.role !== 'user') return { problem: `it has the turns ${turns.map((m) => m.role).join(', ')}; a model step sends a system turn and one user turn` };
  return { ...(system !== undefined ? { system } : {}), user: others[0].content };
}

/** The tests the config names, `file://` ones read from its own folder. */
function testEntries(config: Record<string, unknown>, ctx: Pick<ChainFormatContext, 'readSibling'>, problems: ChainProblem[], report: FidelityReport): { where: string; test: unknown }[] {
  const out: { where: string; test: unknown }[] = [];
  for (const [i, entry] of list(config.tests).entries()) {
    const where = typeof config.tests === 'string' ? 'tests' : `tests[${i}]`;
    if (typeof entry !== 'string') {
      out.push({ where, test: entry });
      continue;
    }
    if (!entry.startsWith('file://')) {
      problems.push({ path: `$.${where}`, message: 'a test is a map with vars and assert, or a file:// of tests' });
      continue;
    }
    const read = readTestsFile(entry, ctx);
    if (!read.ok) {
      problems.push({ path: `$.${where}`, message: `the tests ${read.problem}` });
      continue;
    }
    report.kept.push({ where, what: `the tests file ${read.file} (${read.value.length} tests), read from the config's own folder` });
    for (const [j, test] of read.value.entries()) out.push({ where: `${where} (${read.file}[${j}])`, test });
  }
  return out;
}

/** A var's `file://` as the relative path an eval reads (contained there), or why it cannot be one. */
function varFile(ref: string): { path: string } | { problem: string } {
  const file = ref.slice('file://'.length);
  if (/\.(js|cjs|mjs|ts|py)(:.*)?$/i.test(file)) return { problem: `${ref} is code, which an import never runs` };
  if (/\.(png|jpe?g|gif|webp|pdf|mp3|wav)$/i.test(file)) return { problem: `${ref} is not text (images, audio and PDFs are not imported)` };
  const check = checkRelativePath(file);
  return check.ok ? { path: check.path } : { problem: `${ref} is refused: ${check.reason}; only files inside the config's own folder are read` };
}

/** `{{ var }}` in a rubric filled from the test's own vars, as promptfoo renders it before grading. */
const renderRubric = (rubric: string, vars: Record<string, unknown>) => rubric.replace(SIMPLE_VAR, (whole, name: string) => (Object.hasOwn(vars, name) && typeof vars[name] === 'string' ? vars[name] : whole));

/**
 * A promptfoo config read into chains, a dataset, the judge chains its rubrics need and the
 * report; or the problems, each with its path. Files it names (`file://`) are read through
 * `ctx.readSibling`, from the config's own folder only.
 */
export function importPromptfoo(config: unknown, fileName?: string, ctx: Pick<ChainFormatContext, 'readSibling'> = {}): { ok: true; value: PromptfooImport } | { ok: false; problems: ChainProblem[] } {
  if (!isRecord(config)) return { ok: false, problems: [{ path: '$', message: 'a promptfoo config is a map with prompts, providers and tests' }] };
  const report = createFidelityReport('promptfoo');
  const problems: ChainProblem[] = [];
  const base = (fileName ?? '').replace(/^.*[\\/]/, '').replace(/\.ya?ml$/i, '');
  const description = text(config.description);

  const providers = list(config.providers).map(providerOf);
  const provider = providers[0] ?? null;
  if (!provider) problems.push({ path: '$.providers', message: 'the config names no provider, so no prompt has a model' });
  for (const [i, other] of providers.slice(1).entries()) {
    report.changed.push({ where: `providers[${i + 1}]`, what: `the provider ${other?.label ?? '(unreadable)'}`, why: 'each chain runs on the first provider\'s settings; run the same chains on another profile to compare' });
  }

  const chains: Record<string, unknown>[] = [];
  const taken = new Set<string>();
  const prompts = promptEntries(config, ctx, problems, report);
  const chainVars = new Set<string>();
  for (const [i, { where, label, source }] of prompts.entries()) {
    const turns = stepPrompt(source);
    if ('problem' in turns) {
      problems.push({ path: `$.${where}`, message: `the prompt "${label.slice(0, 80)}" cannot be a model step: ${turns.problem}` });
      continue;
    }
    const user = translatePrompt(turns.user);
    const system = turns.system !== undefined ? translatePrompt(turns.system) : null;
    if ('problem' in user || (system && 'problem' in system)) {
      const problem = 'problem' in user ? user.problem : system && 'problem' in system ? system.problem : '';
      problems.push({ path: `$.${where}`, message: `the prompt "${label.slice(0, 80)}" cannot be a Seamscope template: ${problem}` });
      continue;
    }
    const vars = [...new Set([...(system ? system.vars : []), ...user.vars])];
    const bindings: Record<string, string> = {};
    for (const v of vars) {
      setOwn(bindings, v, `inputs.${v}`);
      chainVars.add(v);
    }
    const stepConfig: Record<string, unknown> = { bindings, ...(system ? { system: system.template } : {}), prompt: user.template };
    const stepLabel = `${where} "${label.slice(0, 60)}"`;
    for (const [turn, sourceText, carried] of [['system prompt', turns.system, system?.template], ['prompt', turns.user, user.template]] as const) {
      if (sourceText === undefined || carried === undefined) continue;
      if (carried === sourceText) report.kept.push({ where: stepLabel, what: `${turn} (${sourceText.length} characters, byte for byte)` });
      else report.changed.push({ where: stepLabel, what: turn, why: `each {{ var }} became {var}, read from the chain input of that name (${sourceText.length} characters otherwise byte for byte)` });
    }
    if (provider) {
      const c = provider.config;
      const { temperature, max_tokens: maxTokens, ...rest } = c;
      carryModelSettings(`${stepLabel} on ${provider.label}`, { model: modelOf(provider.id), temperature, maxTokens, unheld: rest }, stepConfig, report);
    }
    const id = identifierFrom(label || `prompt ${i + 1}`, 'prompt', taken).slice(0, 60);
    chains.push({
      format: 'seamscope.chain', version: 1,
      id: `promptfoo-${identifierFrom(base || 'config', 'config', new Set()).replace(/_/g, '-')}-${i + 1}`,
      name: `${description || base || 'promptfoo'}: prompt ${i + 1}`.slice(0, 200),
      description: `Imported from promptfoo${base ? ` (${base}.yaml)` : ''}: prompt ${i + 1} of ${prompts.length}.`,
      inputs: vars.map((name) => ({ name, schema: { type: 'string' }, trust: 'untrusted', required: true })),
      steps: [
        { id: 'model', kind: 'model', name: label.slice(0, 80) || id, position: { x: 0, y: 0 }, config: stepConfig },
        { id: 'output', kind: 'output', name: 'Output', position: { x: 320, y: 0 }, config: { bindings: { value: 'steps.model' } } },
      ],
      meta: { importedFrom: { tool: 'promptfoo', prompt: i } },
    });
  }
  if (list(config.prompts).length === 0) problems.push({ path: '$.prompts', message: 'the config has no prompts' });

  // Tests: the default test's vars under each test's own; each assertion a scorer where one fits.
  const defaults = isRecord(config.defaultTest) ? config.defaultTest : {};
  const defaultVars = isRecord(defaults.vars) ? defaults.vars : {};
  const scorers = new Map<string, ScorerSpec>();
  const items: DatasetItem[] = [];
  const regexIn = new Map<string, number>();
  const tests = testEntries(config, ctx, problems, report);
  // Assertions a dataset holds per item (a rubric) or a step holds for every item (JSON): which tests assert them.
  const rubricOf = new Map<number, { at: string; rubric: string }>();
  const jsonIn: { at: string; schema: Record<string, unknown> }[] = [];
  const jsonTests = new Set<number>();
  for (const [i, { where, test }] of tests.entries()) {
    if (!isRecord(test)) {
      problems.push({ path: `$.${where}`, message: 'a test is a map with vars and assert' });
      continue;
    }
    const vars = { ...defaultVars, ...(isRecord(test.vars) ? test.vars : {}) };
    const inputs: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(vars)) {
      const file = typeof v === 'string' && v.startsWith('file://') ? varFile(v) : null;
      if (file && 'problem' in file) problems.push({ path: `$.${where}.vars.${k}`, message: `the var ${k}: ${file.problem}` });
      else if (file) {
        // promptfoo reads the file's text into the var; the eval reads it too, from the config's own folder only.
        setOwn(inputs, k, { $file: file.path });
        report.kept.push({ where: `${where}.vars.${k}`, what: `the file ${file.path} as the var's text (read from the config's own folder when the eval runs)` });
      } else setOwn(inputs, k, typeof v === 'string' ? v : JSON.stringify(v));
    }
    let expected: string | undefined;
    for (const [j, a] of [...list(defaults.assert), ...list(test.assert)].entries()) {
      const at = `${where}.assert[${j}]`;
      if (!isRecord(a)) continue;
      const mapped = mapAssertion(a);
      if ('dropped' in mapped) {
        report.dropped.push({ where: at, what: `the assertion ${text(a.type) || '(untyped)'}`, why: mapped.dropped });
        continue;
      }
      if ('rubric' in mapped) {
        if (rubricOf.has(i)) report.dropped.push({ where: at, what: 'the assertion llm-rubric', why: 'an item here is judged against one rubric, and an earlier llm-rubric of this test set it' });
        else {
          const rubric = renderRubric(mapped.rubric, inputs);
          // A var the test does not give as text (absent, or a file read only when the eval runs) stays as written.
          const left = [...rubric.matchAll(SIMPLE_VAR)].map((m) => m[0]);
          if (left.length) report.changed.push({ where: at, what: `the rubric's ${left.join(', ')}`, why: 'left as written: the test gives no text for it at import (a missing var, or a file read when the eval runs)' });
          rubricOf.set(i, { at, rubric });
        }
        continue;
      }
      if ('json' in mapped) {
        jsonIn.push({ at, schema: mapped.json });
        jsonTests.add(i);
        continue;
      }
      if (mapped.expected !== undefined && expected !== undefined && expected !== mapped.expected) {
        report.dropped.push({ where: at, what: `the assertion ${text(a.type)}`, why: 'an item here holds one expected text, and an earlier assertion of this test set it' });
        continue;
      }
      if (mapped.expected !== undefined) expected = mapped.expected;
      if (mapped.scorer.type === 'regex') regexIn.set(mapped.scorer.pattern, (regexIn.get(mapped.scorer.pattern) ?? 0) + 1);
      scorers.set(scorerKey(mapped.scorer), mapped.scorer);
      report.changed.push({ where: at, what: `the assertion ${text(a.type)}`, why: `the scorer ${mapped.scorer.type}${mapped.note ? `, ${mapped.note}` : ''}` });
    }
    if (test.options !== undefined) report.dropped.push({ where: `${where}.options`, what: 'the test\'s options', why: 'options (transforms, providers per test) run code or change the run; none is carried' });
    items.push({ id: `test-${i + 1}`, inputs, expected: expected !== undefined ? { output: expected } : {} });
  }
  // A dataset's scorers score every item: a regex only some tests assert is not carried over.
  for (const [pattern, count] of regexIn) {
    if (count === tests.length) continue;
    scorers.delete(scorerKey({ type: 'regex', pattern }));
    report.dropped.push({ where: 'tests', what: `the regex assertion ${pattern.slice(0, 80)}`, why: `only ${count} of ${tests.length} tests assert it, and a dataset's scorers score every item` });
  }
  const judges = carryRubrics(rubricOf, items, chainVars, report);
  if (judges.length) scorers.set(scorerKey({ type: 'judge', chain: RUBRIC_JUDGE_ID }), { type: 'judge', chain: RUBRIC_JUDGE_ID });
  carryJson(jsonIn, jsonTests.size === tests.length && tests.length > 0, chains, report);
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, value: { chains, dataset: { ...(description ? { name: description.slice(0, 200) } : {}), scorers: [...scorers.values()], items }, judges, report } };
}

/**
 * Rubrics become one judge chain that every item runs: so every test must have one (an item
 * without a rubric would fail its judge), and its rubric rides in the item's inputs, which the
 * chains under test do not read.
 */
function carryRubrics(rubricOf: Map<number, { at: string; rubric: string }>, items: DatasetItem[], chainVars: Set<string>, report: FidelityReport): Record<string, unknown>[] {
  if (rubricOf.size === 0) return [];
  const drop = (why: string) => {
    for (const { at } of rubricOf.values()) report.dropped.push({ where: at, what: 'the assertion llm-rubric', why });
    return [];
  };
  if (rubricOf.size !== items.length) return drop(`only ${rubricOf.size} of ${items.length} tests have a rubric, and a dataset's judge scores every item`);
  if (chainVars.has(RUBRIC_INPUT) || items.some((item) => Object.hasOwn(item.inputs, RUBRIC_INPUT))) return drop(`a prompt or test already uses the var ${RUBRIC_INPUT}, where the judge reads the rubric`);
  for (const [i, { at, rubric }] of rubricOf) {
    setOwn((items[i] as DatasetItem).inputs, RUBRIC_INPUT, rubric);
    report.changed.push({ where: at, what: 'the assertion llm-rubric', why: `the judge chain ${RUBRIC_JUDGE_ID} (rubric byte for byte, as the item's input ${RUBRIC_INPUT}); it runs on the eval's model, where promptfoo grades with its own default grader, and passes on its {pass} verdict (promptfoo's score threshold is not carried)` });
  }
  return [rubricJudgeChain({})];
}

/**
 * `is-json` asked of every test becomes the step's output schema: the answer is requested and
 * parsed as JSON, and a run whose answer never parses fails, failing its item as the assertion
 * would. Asked of only some tests it is not carried (the step's schema holds for every item).
 */
function carryJson(jsonIn: { at: string; schema: Record<string, unknown> }[], everyTest: boolean, chains: Record<string, unknown>[], report: FidelityReport): void {
  if (jsonIn.length === 0) return;
  if (!everyTest) {
    for (const { at } of jsonIn) report.dropped.push({ where: at, what: 'the assertion is-json', why: 'only some tests assert it, and a step\'s output schema holds for every item' });
    return;
  }
  // Different schemas in different tests: the step asks for JSON only, each test's schema reported.
  const shapes = new Set(jsonIn.map((j) => JSON.stringify(j.schema)));
  const schema = shapes.size === 1 ? (jsonIn[0] as (typeof jsonIn)[number]).schema : {};
  for (const chain of chains) ((chain.steps as { config: Record<string, unknown> }[])[0] as { config: Record<string, unknown> }).config.outputSchema = schema;
  for (const { at, schema: own } of jsonIn) {
    const kept = shapes.size === 1 || Object.keys(own).length === 0;
    (kept ? report.changed : report.dropped).push({
      where: at, what: `the assertion is-json${Object.keys(own).length ? ' with its schema' : ''}`,
      why: kept ? 'became each step\'s output schema: a requirement, not only a measure (the model is asked for JSON, a reply that does not parse is retried with the error, then fails the run and the item)' : 'the tests give different schemas; each step asks only for JSON, and this schema is not checked',
    });
  }
}

/**
 * The registry's view: the first prompt's chain, with the dataset and the other prompts named
 * in the report (a chain import yields one chain).
 */
export function promptfooToChain(config: unknown, ctx: ChainFormatContext): ToChainResult {
  const read = importPromptfoo(config, ctx.fileName, ctx);
  if (!read.ok) return read;
  const { chains, dataset, report } = read.value;
  const first = chains[0];
  if (!first) return { ok: false, problems: [{ path: '$.prompts', message: 'the config has no prompt that imports' }] };
  for (const [i] of chains.slice(1).entries()) report.changed.push({ where: `prompts[${i + 1}]`, what: 'the prompt', why: 'an import opens one chain: this is the first prompt\'s; each other prompt is a chain of its own when the config is read for an eval' });
  if (dataset.items.length) report.changed.push({ where: 'tests', what: `${dataset.items.length} tests`, why: `a dataset of ${dataset.items.length} items scored by ${dataset.scorers.map((s) => s.type).join(', ') || 'no scorer'}; not part of the chain` });
  return { ok: true, chain: first, report };
}

/** The whole config for `seamscope eval`: every prompt's chain, the tests as the dataset and the judges its scorers name. */
export function promptfooToSuite(config: unknown, ctx: ChainFormatContext): ToSuiteResult {
  const read = importPromptfoo(config, ctx.fileName, ctx);
  if (!read.ok) return read;
  const { chains, dataset, judges, report } = read.value;
  return { ok: true, chains, dataset, judges, report };
}
