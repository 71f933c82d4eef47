import type { ChainProblem } from '../chain/parse.ts';
import { setOwn } from '../chain/own.ts';
import { PLACEHOLDER_PATTERN } from '../chain/template.ts';
import { isRecord } from '../files/json-value.ts';
import { createFidelityReport } from './fidelity.ts';
import type { ChainFormatContext, ToChainResult } from './format.ts';
import { edgesByNode, identifierFrom, orderByEdges, placeAtCanvasDensity } from './flow-common.ts';
import { carryModelSettings } from './model-settings.ts';
import { jinjaToTemplate } from './promptflow.ts';

/**
 * Dify DSL (an app exported as YAML), its workflow graph read node by node: the start node's
 * variables become chain inputs, llm nodes model steps (system and user prompt messages, model
 * settings carried and reported), template-transform nodes template steps (Jinja parsed, never
 * run; only `{{ var }}` translates), end and answer nodes outputs. Nodes that run code or reach
 * out (code, tool, http-request, knowledge-retrieval) are refused by name, and so, for now, are
 * branches and loops (if-else, question-classifier, variable-aggregator, parameter-extractor,
 * iteration): each is named, and nothing is stored.
 */

const text = (v: unknown) => (typeof v === 'string' ? v : '');
/** `{{#1721117927142.source_text#}}`: a node's variable, as Dify writes one in a prompt. */
const DIFY_REF = /\{\{#([\w-]+)\.([\w]+)#\}\}/g;

interface DifyNode { id: string; type: string; title: string; data: Record<string, unknown>; position: { x: number; y: number }; index: number }

const REACHES_OUT: Record<string, string> = {
  code: 'runs code, which an import never runs',
  tool: 'calls a tool',
  'http-request': 'sends an HTTP request',
  'knowledge-retrieval': 'searches a Dify knowledge base, which is not in the file',
};

export function difyToChain(app: unknown, ctx: ChainFormatContext): ToChainResult {
  const graph = isRecord(app) && isRecord(app.workflow) && isRecord(app.workflow.graph) ? app.workflow.graph : null;
  if (!graph || !Array.isArray(graph.nodes)) return { ok: false, problems: [{ path: '$.workflow.graph', message: 'this Dify app has no workflow graph (a chat or completion app without a workflow is not imported)' }] };
  const report = createFidelityReport('Dify');
  const problems: ChainProblem[] = [];
  const nodes: DifyNode[] = graph.nodes.filter(isRecord).map((n, index) => {
    const data = isRecord(n.data) ? n.data : {};
    const p = isRecord(n.position) ? n.position : {};
    return { id: text(n.id), type: text(data.type), title: text(data.title) || text(n.id), data, position: { x: Number(p.x) || 0, y: Number(p.y) || 0 }, index };
  }).filter((n) => n.type !== 'custom-note' && n.type !== '');
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const edges = (Array.isArray(graph.edges) ? graph.edges : []).filter(isRecord).map((e) => ({ source: text(e.source), target: text(e.target) })).filter((e) => byId.has(e.source) && byId.has(e.target));
  const byNode = edgesByNode(edges);
  const order = orderByEdges(nodes, (id) => byNode.to(id).map((e) => byId.get(e.source) as DifyNode), (n) => problems.push({ path: `$.workflow.graph.nodes[${n.index}]`, message: `"${n.title}" (${n.type}) is in a loop of edges` }));

  const taken = new Set<string>();
  const inputs: Record<string, unknown>[] = [];
  const steps: Record<string, unknown>[] = [];
  const refOf = new Map<string, string>();
  const where = (n: DifyNode) => `$.workflow.graph.nodes[${n.index}]`;
  /** Nodes already refused: what reads them is not refused again (the cause is named once). */
  const refused = new Set<string>();
  const refuse = (n: DifyNode, message: string) => {
    refused.add(n.id);
    problems.push({ path: where(n), message });
  };
  /** A reference that no imported node makes: refused, unless its node was refused already. */
  const unresolved = (n: DifyNode, node: string, message: string) => {
    if (refused.has(node) || (byId.get(node)?.type === 'iteration-start')) refused.add(n.id);
    else refuse(n, message);
  };
  const named = (n: DifyNode) => `"${n.title}" (${n.type})`;

  /** A prompt with `{{#node.var#}}` references as a Seamscope template and its bindings, or a problem. */
  const translate = (n: DifyNode, source: string, bindings: Record<string, string>): string | null => {
    let missing: { whole: string; node: string } | null = null;
    const out = source.replace(DIFY_REF, (whole, node: string, variable: string) => {
      const ref = refOf.get(`${node}.${variable}`);
      if (!ref) {
        missing ??= { whole, node };
        return whole;
      }
      const name = identifierFrom(variable, 'value', new Set(Object.keys(bindings).filter((k) => bindings[k] !== ref)));
      setOwn(bindings, name, ref);
      return `{${name}}`;
    });
    if (missing) {
      const { whole, node } = missing;
      unresolved(n, node, `${named(n)} reads ${whole}, which is not a start variable or an earlier llm or template node's output`);
      return null;
    }
    // Text in the prompt that reads as a Seamscope placeholder (and is not one of its references) would be filled in.
    const literal = [...out.matchAll(PLACEHOLDER_PATTERN)].find((m) => !Object.hasOwn(bindings, (m[1] ?? '').split('.')[0] as string));
    if (literal) {
      refuse(n, `${named(n)}: its prompt has the text ${literal[0]}, which a Seamscope template would fill in`);
      return null;
    }
    return out;
  };

  for (const n of order) {
    const label = named(n);
    if (REACHES_OUT[n.type]) {
      refuse(n, `${label} ${REACHES_OUT[n.type]}`);
      continue;
    }
    if (n.type === 'start') {
      for (const v of Array.isArray(n.data.variables) ? n.data.variables.filter(isRecord) : []) {
        const name = identifierFrom(text(v.variable), 'input', taken);
        inputs.push({ name, ...(text(v.label) && text(v.label) !== text(v.variable) ? { description: text(v.label).slice(0, 500) } : {}), schema: { type: 'string' }, trust: 'untrusted', required: v.required !== false });
        refOf.set(`${n.id}.${text(v.variable)}`, `inputs.${name}`);
      }
      continue;
    }
    if (n.type === 'llm') {
      const id = identifierFrom(n.title, 'step', taken);
      const bindings: Record<string, string> = {};
      const messages = Array.isArray(n.data.prompt_template) ? n.data.prompt_template.filter(isRecord) : [];
      const system = messages.filter((m) => m.role === 'system').map((m) => text(m.text));
      const user = messages.filter((m) => m.role === 'user').map((m) => text(m.text));
      if (messages.some((m) => m.role === 'assistant') || user.length > 1 || system.length > 1 || user.length + system.length === 0) {
        refuse(n, `${label} has assistant messages, several user or system messages, or none; a model step sends one system and one user message`);
        continue;
      }
      // A node with only a system message: that message is the whole instruction, sent as the step's prompt.
      const systemOnly = user.length === 0;
      if (systemOnly) report.changed.push({ where: label, what: 'the system message', why: 'the node has no user message: its system message is the step\'s prompt' });
      const prompt = translate(n, (systemOnly ? system[0] : user[0]) as string, bindings);
      const sys = !systemOnly && system[0] ? translate(n, system[0], bindings) : '';
      if (prompt === null || sys === null) continue;
      const config: Record<string, unknown> = { bindings, prompt, ...(sys ? { system: sys } : {}) };
      report.changed.push({ where: label, what: 'prompt messages', why: 'each {{#node.variable#}} became a {binding}' });
      const model = isRecord(n.data.model) ? n.data.model : {};
      const params = isRecord(model.completion_params) ? model.completion_params : {};
      const { temperature, max_tokens: maxTokens, ...rest } = params;
      carryModelSettings(label, { model: model.name, temperature, maxTokens, unheld: rest }, config, report);
      if (isRecord(n.data.memory)) report.dropped.push({ where: label, what: 'conversation memory', why: 'a chain run holds no conversation' });
      steps.push({ id, kind: 'model', name: n.title, position: n.position, config });
      refOf.set(`${n.id}.text`, `steps.${id}`);
      continue;
    }
    if (n.type === 'template-transform') {
      const id = identifierFrom(n.title, 'step', taken);
      const bindings: Record<string, string> = {};
      for (const v of Array.isArray(n.data.variables) ? n.data.variables.filter(isRecord) : []) {
        const selector = Array.isArray(v.value_selector) ? v.value_selector.map(text) : [];
        const ref = refOf.get(selector.join('.'));
        if (ref) setOwn(bindings, text(v.variable), ref);
        else unresolved(n, selector[0] ?? '', `${label} reads ${selector.join('.')}, which is not a start variable or an earlier llm or template node's output`);
      }
      const checked = jinjaToTemplate(text(n.data.template));
      if ('problem' in checked) {
        refuse(n, `${label}: its template cannot be a Seamscope template: ${checked.problem}`);
        continue;
      }
      steps.push({ id, kind: 'template', name: n.title, position: n.position, config: { bindings, text: checked.template } });
      report.changed.push({ where: label, what: 'the Jinja template', why: 'each {{ var }} became {var} of a template step' });
      refOf.set(`${n.id}.output`, `steps.${id}`);
      continue;
    }
    if (n.type === 'end') {
      for (const o of Array.isArray(n.data.outputs) ? n.data.outputs.filter(isRecord) : []) {
        const selector = Array.isArray(o.value_selector) ? o.value_selector.map(text) : [];
        const ref = refOf.get(selector.join('.'));
        if (!ref) {
          unresolved(n, selector[0] ?? '', `${label}: the output ${text(o.variable)} reads ${selector.join('.')}, which no imported node makes`);
          continue;
        }
        steps.push({ id: identifierFrom(`${text(o.variable) || 'output'}`, 'output', taken), kind: 'output', name: text(o.variable) || n.title, position: n.position, config: { bindings: { value: ref } } });
      }
      continue;
    }
    if (n.type === 'answer') {
      const bindings: Record<string, string> = {};
      const answer = translate(n, text(n.data.answer), bindings);
      if (answer === null) continue;
      const single = /^\{(\w+)\}$/.exec(answer.trim());
      if (single) steps.push({ id: identifierFrom(n.title, 'output', taken), kind: 'output', name: n.title, position: n.position, config: { bindings: { value: bindings[single[1] as string] as string } } });
      else {
        const id = identifierFrom(`${n.title} text`, 'step', taken);
        steps.push({ id, kind: 'template', name: n.title, position: n.position, config: { bindings, text: answer } });
        steps.push({ id: identifierFrom(n.title, 'output', taken), kind: 'output', name: n.title, position: { x: n.position.x + 300, y: n.position.y }, config: { bindings: { value: `steps.${id}` } } });
      }
      continue;
    }
    if (n.type === 'iteration-start') continue;
    refuse(n, `${label} is not imported yet (branches, classifiers, aggregators, extractors and iterations have counterparts here that this import does not build yet)`);
  }
  if (problems.length > 0) return { ok: false, problems };
  placeAtCanvasDensity(steps, 0.6);
  const appInfo = isRecord(app) && isRecord(app.app) ? app.app : {};
  const base = (ctx.fileName ?? '').replace(/^.*[\\/]/, '').replace(/\.ya?ml$/i, '');
  const name = text(appInfo.name) || base || 'Dify workflow';
  return {
    ok: true, report,
    chain: {
      format: 'seamscope.chain', version: 1, id: `dify-${identifierFrom(base || name, 'app', new Set()).replace(/_/g, '-')}`, name: name.slice(0, 200),
      description: [`Imported from Dify${base ? ` (${base}.yml)` : ''}.`, text(appInfo.description)].filter(Boolean).join('\n\n').slice(0, 8000),
      inputs, steps, meta: { importedFrom: { tool: 'Dify' } },
    },
  };
}
