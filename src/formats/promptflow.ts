import { parse as parseJinja, tokenize as tokenizeJinja } from '@huggingface/jinja';
import type { ChainProblem } from '../chain/parse.ts';
import { setOwn } from '../chain/own.ts';
import { PLACEHOLDER_PATTERN } from '../chain/template.ts';
import { isRecord } from '../files/json-value.ts';
import { createFidelityReport } from './fidelity.ts';
import type { ChainFormatContext, ToChainResult } from './format.ts';
import { identifierFrom } from './flow-common.ts';
import { carryModelSettings } from './model-settings.ts';

/**
 * Prompt flow (`flow.dag.yaml`), read with its Jinja prompt files from the flow's own folder only
 * (through `ctx.readSibling`, which the CLI contains to that folder; the Library reads one file
 * and has none). Inputs become chain inputs, llm nodes model steps, prompt nodes template steps,
 * outputs output steps. A Jinja prompt is parsed by @huggingface/jinja (parsed only, never run);
 * one that uses only `{{ var }}` becomes a Seamscope `{var}` template, and richer Jinja (loops,
 * conditions, filters) is refused by node name, as are python nodes (code an import never runs)
 * and `activate` conditions (they test a value a python node makes, or need a router built from
 * the condition: not yet imported).
 */

const text = (v: unknown) => (typeof v === 'string' ? v : '');
const REF = /^\$\{([A-Za-z_][\w]*)\.(output|[A-Za-z_]\w*)\}$/;
const SIMPLE_VAR = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/** `# system:` / `# user:` sections of a Prompt flow chat prompt. */
function chatSections(source: string): { system: string; user: string } | { problem: string } {
  const parts = source.split(/^#\s*(system|user|assistant)\s*:\s*$/m);
  if (parts.length === 1) return { system: '', user: source.trim() };
  const roles: { role: string; body: string }[] = [];
  for (let i = 1; i < parts.length; i += 2) roles.push({ role: parts[i] as string, body: (parts[i + 1] ?? '').trim() });
  if (roles.some((r) => r.role === 'assistant') || roles.filter((r) => r.role === 'user').length !== 1 || roles.filter((r) => r.role === 'system').length > 1) {
    return { problem: 'it has assistant turns or several user or system sections; a model step sends one system and one user message' };
  }
  return { system: roles.find((r) => r.role === 'system')?.body ?? '', user: roles.find((r) => r.role === 'user')?.body ?? '' };
}

/** A Jinja template as a Seamscope template, or why it cannot be one (parsed, never rendered). */
export function jinjaToTemplate(source: string): { template: string; vars: string[] } | { problem: string } {
  try {
    parseJinja(tokenizeJinja(source));
  } catch (error) {
    return { problem: `it is not valid Jinja (${error instanceof Error ? error.message.slice(0, 160) : 'unreadable'})` };
  }
  const rest = source.replace(SIMPLE_VAR, '');
  if (/\{\{|\{%|\{#/.test(rest)) return { problem: 'it uses Jinja beyond {{ var }} (loops, conditions, filters or attribute access), which no step here renders' };
  const literal = rest.match(PLACEHOLDER_PATTERN);
  if (literal) return { problem: `it has the text ${literal[0]}, which a Seamscope template would fill in` };
  const template = source.replace(SIMPLE_VAR, (_whole, name: string) => `{${name}}`);
  return { template, vars: [...new Set([...template.matchAll(PLACEHOLDER_PATTERN)].map((m) => (m[1] ?? '').split('.')[0] as string))] };
}

export function promptflowToChain(flow: unknown, ctx: ChainFormatContext): ToChainResult {
  if (!isRecord(flow) || !Array.isArray(flow.nodes)) return { ok: false, problems: [{ path: '$.nodes', message: 'a Prompt flow has a list of nodes' }] };
  const report = createFidelityReport('Prompt flow');
  const problems: ChainProblem[] = [];
  const taken = new Set<string>();
  const inputs: Record<string, unknown>[] = [];
  const steps: Record<string, unknown>[] = [];
  const stepOf = new Map<string, string>();
  const inputsByName: Record<string, string> = {};

  for (const [name, spec] of Object.entries(isRecord(flow.inputs) ? flow.inputs : {})) {
    const id = identifierFrom(name, 'input', taken);
    const example = isRecord(spec) && typeof spec.default === 'string' ? spec.default : undefined;
    inputs.push({ name: id, schema: { type: 'string' }, trust: 'untrusted', required: true, ...(example !== undefined && example.length <= 100_000 ? { example } : {}) });
    setOwn(inputsByName, name, id);
  }

  const nodes = flow.nodes.filter(isRecord);
  for (const [i, node] of nodes.entries()) {
    const name = text(node.name) || `node ${i + 1}`;
    const type = text(node.type);
    const where = `$.nodes[${i}]`;
    if (type === 'python') {
      problems.push({ path: where, message: `"${name}" (python) runs Python code (${text(isRecord(node.source) ? node.source.path : '') || 'its source'}), which an import never runs` });
      continue;
    }
    if (node.use_variants === true) {
      problems.push({ path: where, message: `"${name}" has its prompt in node_variants (one per variant): variants are not imported yet` });
      continue;
    }
    if (type !== 'llm' && type !== 'prompt') {
      problems.push({ path: where, message: `"${name}" (${type || 'untyped'}) has no counterpart here` });
      continue;
    }
    if (node.activate !== undefined) problems.push({ path: `${where}.activate`, message: `"${name}" (${type}) runs only when a condition holds; activate conditions are not imported yet` });
    const file = text(isRecord(node.source) ? node.source.path : '');
    if (!file) {
      problems.push({ path: `${where}.source`, message: `"${name}" (${type}) names no prompt file` });
      continue;
    }
    const read = ctx.readSibling ? ctx.readSibling(file) : { error: 'this import reads one file and no files beside it' };
    if (typeof read !== 'string') {
      problems.push({ path: `${where}.source.path`, message: `"${name}" (${type}): its prompt file ${file} is not read: ${read.error}` });
      continue;
    }
    const translated = jinjaToTemplate(read);
    if ('problem' in translated) {
      problems.push({ path: `${where}.source.path`, message: `"${name}" (${type}): its prompt ${file} cannot be a Seamscope template: ${translated.problem}` });
      continue;
    }
    const id = identifierFrom(name, 'step', taken);
    stepOf.set(name, id);
    const bindings: Record<string, string> = {};
    const nodeInputs = isRecord(node.inputs) ? node.inputs : {};
    for (const v of translated.vars) {
      const value = nodeInputs[v];
      const ref = typeof value === 'string' ? REF.exec(value) : null;
      if (ref && ref[1] === 'inputs' && Object.hasOwn(inputsByName, ref[2] as string)) setOwn(bindings, v, `inputs.${inputsByName[ref[2] as string]}`);
      else if (ref && ref[2] === 'output' && stepOf.has(ref[1] as string)) setOwn(bindings, v, `steps.${stepOf.get(ref[1] as string)}`);
      else problems.push({ path: `${where}.inputs.${v}`, message: `"${name}" (${type}): the prompt reads ${v}, which is ${value === undefined ? 'not among the node\'s inputs' : `${JSON.stringify(value).slice(0, 80)}, not a flow input or an earlier llm or prompt node's output`}` });
    }
    const label = `"${name}" (${type}, ${file})`;
    if (type === 'prompt') {
      steps.push({ id, kind: 'template', name, position: { x: 320 * i, y: 0 }, config: { bindings, text: translated.template } });
      report.changed.push({ where: label, what: 'the Jinja prompt', why: 'each {{ var }} became {var} of a template step' });
      continue;
    }
    const sections = chatSections(translated.template);
    if ('problem' in sections) {
      problems.push({ path: `${where}.source.path`, message: `"${name}" (llm): ${sections.problem}` });
      continue;
    }
    const config: Record<string, unknown> = { bindings, prompt: sections.user, ...(sections.system ? { system: sections.system } : {}) };
    report.changed.push({ where: label, what: 'the Jinja prompt', why: 'its # system: and # user: sections became the step\'s system message and prompt, each {{ var }} a {var}' });
    const { deployment_name: deployment, model, temperature, max_tokens: maxTokens, stop, top_p: topP, presence_penalty: presence, frequency_penalty: frequency, response_format: format } = nodeInputs;
    carryModelSettings(label, { model: model ?? deployment, temperature, maxTokens, jsonMode: isRecord(format) && format.type === 'json_object', unheld: { stop, top_p: topP, presence_penalty: presence, frequency_penalty: frequency } }, config, report);
    if (node.connection !== undefined) report.dropped.push({ where: label, what: `the connection ${text(node.connection)}`, why: 'the endpoint and key are the profile you run the chain on' });
    steps.push({ id, kind: 'model', name, position: { x: 320 * i, y: 0 }, config });
  }

  for (const [name, spec] of Object.entries(isRecord(flow.outputs) ? flow.outputs : {})) {
    const ref = isRecord(spec) ? REF.exec(text(spec.reference)) : null;
    const step = ref && ref[2] === 'output' ? stepOf.get(ref[1] as string) : undefined;
    if (!step) {
      if (problems.length === 0) problems.push({ path: `$.outputs.${name}`, message: `the output "${name}" reads ${isRecord(spec) ? text(spec.reference) : 'nothing'}, which is not an llm or prompt node's output` });
      continue;
    }
    steps.push({ id: identifierFrom(`${name} output`, 'output', taken), kind: 'output', name, position: { x: 320 * nodes.length, y: 0 }, config: { bindings: { value: `steps.${step}` } } });
  }
  if (problems.length > 0) return { ok: false, problems };
  const base = (ctx.fileName ?? '').replace(/[\\/]?flow\.dag\.ya?ml$/i, '').replace(/^.*[\\/]/, '');
  return {
    ok: true, report,
    chain: {
      format: 'seamscope.chain', version: 1, id: `promptflow-${identifierFrom(base || 'flow', 'flow', new Set()).replace(/_/g, '-')}`,
      name: (base || 'Prompt flow').slice(0, 200), description: `Imported from Prompt flow${base ? ` (${base}/flow.dag.yaml)` : ''}.`,
      inputs, steps, meta: { importedFrom: { tool: 'Prompt flow' } },
    },
  };
}
