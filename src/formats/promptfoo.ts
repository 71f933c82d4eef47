import type { ChainProblem } from '../chain/parse.ts';
import { setOwn } from '../chain/own.ts';
import { PLACEHOLDER_PATTERN } from '../chain/template.ts';
import { isRecord } from '../files/json-value.ts';
import { compilePattern } from '../schema/pattern.ts';
import { createFidelityReport, type FidelityReport } from './fidelity.ts';
import type { ChainFormatContext, ToChainResult, ToSuiteResult } from './format.ts';
import { identifierFrom } from './flow-common.ts';
import { carryModelSettings } from './model-settings.ts';

/**
 * promptfoo configs (`promptfooconfig.yaml`), read as what they are: prompts tried against a
 * set of tests. Each prompt becomes a chain of one model step (its provider's settings carried
 * over and reported); the tests become a dataset (their vars the inputs), and each assertion a
 * scorer where one here measures the same thing. An assertion that runs code (`javascript`,
 * `python`) is never run: the report lists it as not carried over, and the rest imports.
 */

/**
 * The scorers and dataset items an import makes, in the shapes of `src/eval` (scorer-spec.ts,
 * dataset.ts), written out here because formats sit below eval: the eval command checks them
 * with its own schemas when it reads an imported config.
 */
export type ScorerSpec = { type: 'contains' } | { type: 'exact' } | { type: 'regex'; pattern: string };
export interface DatasetItem { id: string; inputs: Record<string, unknown>; expected: { output?: string } }

export interface PromptfooImport {
  /** One chain per prompt, each against the first provider. */
  chains: Record<string, unknown>[];
  /** The tests as dataset items; the scorers every item is scored by. */
  dataset: { name?: string; scorers: ScorerSpec[]; items: DatasetItem[] };
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
type Mapped = { scorer: ScorerSpec; expected?: string; note?: string } | { dropped: string };

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
      return { dropped: 'no scorer here checks that an answer parses as JSON (an output schema on the step would make it a requirement, not a measure)' };
    case 'llm-rubric':
      return { dropped: 'a rubric is judged by a model: this import makes no judge chain yet' };
    default:
      return { dropped: `no scorer here does what "${type || 'an untyped assertion'}" does` };
  }
}

const scorerKey = (s: ScorerSpec) => JSON.stringify(s);

/**
 * A promptfoo config read into chains, a dataset and the report; or the problems, each with its
 * path. Reads only the config's own value: a prompt or test named by `file://` is refused by
 * name (files beside the config are not read by this import).
 */
export function importPromptfoo(config: unknown, fileName?: string): { ok: true; value: PromptfooImport } | { ok: false; problems: ChainProblem[] } {
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
  for (const [i, entry] of list(config.prompts).entries()) {
    const raw = isRecord(entry) ? text(entry.raw) || text(entry.id) : text(entry);
    const label = isRecord(entry) ? text(entry.label) || raw : raw;
    const where = `prompts[${i}]`;
    if (raw.startsWith('file://')) {
      problems.push({ path: `$.${where}`, message: `the prompt ${raw.slice(0, 200)} is a file beside the config: this import reads only the config itself` });
      continue;
    }
    const translated = translatePrompt(raw);
    if ('problem' in translated) {
      problems.push({ path: `$.${where}`, message: `the prompt "${label.slice(0, 80)}" cannot be a Seamscope template: ${translated.problem}` });
      continue;
    }
    const bindings: Record<string, string> = {};
    for (const v of translated.vars) setOwn(bindings, v, `inputs.${v}`);
    const stepConfig: Record<string, unknown> = { bindings, prompt: translated.template };
    const stepLabel = `${where} "${label.slice(0, 60)}"`;
    if (translated.template === raw) report.kept.push({ where: stepLabel, what: `prompt (${raw.length} characters, byte for byte)` });
    else report.changed.push({ where: stepLabel, what: 'prompt', why: `each {{ var }} became {var}, read from the chain input of that name (${raw.length} characters otherwise byte for byte)` });
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
      description: `Imported from promptfoo${base ? ` (${base}.yaml)` : ''}: prompt ${i + 1} of ${list(config.prompts).length}.`,
      inputs: translated.vars.map((name) => ({ name, schema: { type: 'string' }, trust: 'untrusted', required: true })),
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
  if (typeof config.tests === 'string') problems.push({ path: '$.tests', message: `the tests ${config.tests.slice(0, 200)} are a file beside the config: this import reads only the config itself` });
  const tests = list(config.tests === undefined || typeof config.tests === 'string' ? [] : config.tests);
  for (const [i, test] of tests.entries()) {
    const where = `tests[${i}]`;
    if (!isRecord(test)) {
      problems.push({ path: `$.${where}`, message: 'a test is a map with vars and assert' });
      continue;
    }
    const inputs: Record<string, unknown> = {};
    for (const [k, v] of Object.entries({ ...defaultVars, ...(isRecord(test.vars) ? test.vars : {}) })) setOwn(inputs, k, typeof v === 'string' ? v : JSON.stringify(v));
    let expected: string | undefined;
    for (const [j, a] of [...list(defaults.assert), ...list(test.assert)].entries()) {
      const at = `${where}.assert[${j}]`;
      if (!isRecord(a)) continue;
      const mapped = mapAssertion(a);
      if ('dropped' in mapped) {
        report.dropped.push({ where: at, what: `the assertion ${text(a.type) || '(untyped)'}`, why: mapped.dropped });
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
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, value: { chains, dataset: { ...(description ? { name: description.slice(0, 200) } : {}), scorers: [...scorers.values()], items }, report } };
}

/**
 * The registry's view: the first prompt's chain, with the dataset and the other prompts named
 * in the report (a chain import yields one chain).
 */
export function promptfooToChain(config: unknown, ctx: ChainFormatContext): ToChainResult {
  const read = importPromptfoo(config, ctx.fileName);
  if (!read.ok) return read;
  const { chains, dataset, report } = read.value;
  const first = chains[0];
  if (!first) return { ok: false, problems: [{ path: '$.prompts', message: 'the config has no prompt that imports' }] };
  for (const [i] of chains.slice(1).entries()) report.changed.push({ where: `prompts[${i + 1}]`, what: 'the prompt', why: 'an import opens one chain: this is the first prompt\'s; each other prompt is a chain of its own when the config is read for an eval' });
  if (dataset.items.length) report.changed.push({ where: 'tests', what: `${dataset.items.length} tests`, why: `a dataset of ${dataset.items.length} items scored by ${dataset.scorers.map((s) => s.type).join(', ') || 'no scorer'}; not part of the chain` });
  return { ok: true, chain: first, report };
}

/** The whole config for `seamscope eval`: every prompt's chain and the tests as the dataset. */
export function promptfooToSuite(config: unknown, ctx: ChainFormatContext): ToSuiteResult {
  const read = importPromptfoo(config, ctx.fileName);
  if (!read.ok) return read;
  const { chains, dataset, report } = read.value;
  return { ok: true, chains, dataset, report };
}
