import type { ChainProblem } from '../chain/parse.ts';
import { setOwn } from '../chain/own.ts';
import { isRecord } from '../files/json-value.ts';
import { createFidelityReport, type FidelityReport } from './fidelity.ts';
import type { ChainFormatContext, ToChainResult } from './format.ts';
import { identifierFrom } from './flow-common.ts';
import { carryModelSettings } from './model-settings.ts';
import { buildRouters, conditionsOf } from './promptflow-activate.ts';
import { chatMessages, jinjaPrompt } from './promptflow-jinja.ts';
import { chainRef, type PromptflowContext as Context } from './promptflow-context.ts';
import { flowRef, LLM_SETTINGS, readNodes, text, type FlowNode } from './promptflow-nodes.ts';

export { jinjaToTemplate } from './promptflow-jinja.ts';

/**
 * Prompt flow (`flow.dag.yaml`), read with its Jinja prompt files from the flow's own folder only
 * (through `ctx.readSibling`: the CLI contains it to that folder, the Library to the folder a
 * person picked). Inputs become chain inputs, llm nodes model steps, prompt nodes template steps,
 * `activate` conditions routers, outputs output steps; a node with variants is its default
 * variant. Jinja is rendered at import by @huggingface/jinja (an interpreter, never code) over the
 * node's literal inputs; values known only at run time become placeholders (promptflow-jinja.ts).
 * Python nodes run code an import never runs: they are refused by name, and what reads them is
 * not refused again.
 */

const INPUT_TYPES: Record<string, Record<string, unknown>> = {
  string: { type: 'string' }, int: { type: 'integer' }, double: { type: 'number' }, bool: { type: 'boolean' }, list: { type: 'array' }, object: { type: 'object' },
};

function buildNode(c: Context, node: FlowNode, taken: Set<string>, position: { x: number; y: number }): Record<string, unknown> | null {
  const where = `$.nodes[${node.index}]`;
  const label = `"${node.name}" (${node.type}${node.source ? `, ${node.source}` : ''})`;
  if (!node.source) {
    c.problems.push({ path: `${where}.source`, message: `"${node.name}" (${node.type}) names no prompt file` });
    return null;
  }
  const read = c.ctx.readSibling ? c.ctx.readSibling(node.source) : { error: 'this import was given the flow file alone, without its folder (import the folder)' };
  if (typeof read !== 'string') {
    c.problems.push({ path: `${where}.source.path`, message: `"${node.name}" (${node.type}): its prompt file ${node.source} is not read: ${read.error}` });
    return null;
  }
  const constants: Record<string, unknown> = {};
  const refs = new Map<string, string>();
  const runtime = new Set<string>();
  const before = c.problems.length;
  for (const [key, value] of Object.entries(node.inputs)) {
    if (node.type === 'llm' && LLM_SETTINGS.has(key)) continue;
    const ref = chainRef(c, value, `${where}.inputs.${key}`, `"${node.name}" (${node.type}): its input ${key}`);
    if (ref === undefined) setOwn(constants, key, value);
    else runtime.add(key);
    if (typeof ref === 'string') refs.set(key, ref);
  }
  // A value from a refused node is still a runtime value: the prompt is judged on its own.
  const unresolved = refs.size < runtime.size;
  const prompt = jinjaPrompt(read, constants, runtime);
  if ('problem' in prompt) {
    c.problems.push({ path: `${where}.source.path`, message: `"${node.name}" (${node.type}): its prompt ${node.source} cannot be a Seamscope template: ${prompt.problem}` });
    return null;
  }
  if (unresolved) {
    // It reads a refused node (named already) and is not imported; what reads it is not refused again.
    if (c.problems.length === before) c.refused.add(node.name);
    return null;
  }
  for (const loop of prompt.loops) {
    c.report.changed.push({ where: label, what: `the loop ${loop.loop}`, why: `became {${loop.over}}: a step's template has no loop, so ${loop.over} reaches the model whole, as JSON, not one block per item` });
  }
  const bindings: Record<string, string> = {};
  for (const v of prompt.vars) setOwn(bindings, v, refs.get(v) as string);
  const literal = Object.keys(constants);
  if (prompt.rendered) {
    c.report.changed.push({ where: label, what: 'the Jinja prompt', why: `rendered at import by @huggingface/jinja (never run as code)${literal.length ? ` with the node's literal inputs ${literal.join(', ')}` : ''}; each value known only at run time is a {placeholder}` });
  } else if (prompt.vars.length) c.report.changed.push({ where: label, what: 'the Jinja prompt', why: 'each {{ var }} became {var}' });
  else c.report.kept.push({ where: label, what: `the prompt (${read.length} characters, byte for byte)` });
  const id = identifierFrom(node.name, 'step', taken);
  if (node.type === 'prompt') return { id, kind: 'template', name: node.name, position, config: { bindings, text: prompt.template } };

  const config: Record<string, unknown> = { bindings };
  if (node.api === 'completion') {
    config.prompt = prompt.template.trim();
    c.report.changed.push({ where: label, what: 'the completion API', why: 'a model step calls a chat endpoint: the prompt is sent as one user message' });
  } else {
    const messages = chatMessages(prompt.template);
    if ('problem' in messages) {
      c.problems.push({ path: `${where}.source.path`, message: `"${node.name}" (llm): its prompt ${node.source}: ${messages.problem}` });
      return null;
    }
    const shape = messages.map((m) => m.role).join(',');
    if (shape !== 'user' && shape !== 'system,user') {
      c.problems.push({ path: `${where}.source.path`, message: `"${node.name}" (llm): its prompt ${node.source} has the messages ${shape.replace(/,/g, ', ')}; a model step sends one system message and one user message` });
      return null;
    }
    const system = messages.length === 2 ? (messages[0]?.content ?? '') : '';
    config.prompt = messages[messages.length - 1]?.content ?? '';
    if (system) config.system = system;
    if (system && read.includes(system)) c.report.kept.push({ where: label, what: `the system message (${system.length} characters, byte for byte)` });
    c.report.changed.push({ where: label, what: 'the chat roles', why: system ? 'its system: and user: lines became the step\'s system message and prompt' : 'its one user message became the step\'s prompt' });
  }
  carryLlmSettings(label, node, config, c.report);
  return { id, kind: 'model', name: node.name, position, config };
}

function carryLlmSettings(label: string, node: FlowNode, config: Record<string, unknown>, report: FidelityReport): void {
  const { deployment_name: deployment, model, temperature, max_tokens: maxTokens, stream, stop, response_format: format, ...rest } = node.inputs;
  const unheld = Object.fromEntries(Object.entries(rest).filter(([k]) => LLM_SETTINGS.has(k)));
  const named = text(model) || text(deployment);
  if (text(model) && text(deployment) && model !== deployment) report.dropped.push({ where: label, what: `deployment_name ${text(deployment)}`, why: `the step names the model ${text(model)}; an Azure deployment is the profile you run it on` });
  // Prompt flow's llm tool sends temperature 1.0 when the node sets none, not the provider's default.
  const unset = temperature === undefined || temperature === null || temperature === '';
  const jsonMode = isRecord(format) && format.type === 'json_object';
  if (isRecord(format) && format.type !== 'json_object' && format.type !== 'text') unheld.response_format = format;
  carryModelSettings(label, { model: named, temperature: unset ? 1 : temperature, maxTokens, stream, jsonMode, unheld: { ...unheld, stop } }, config, report);
  if (unset) report.changed.push({ where: label, what: 'temperature', why: 'the node sets none; Prompt flow\'s llm tool then sends 1.0, so the step has 1' });
  if (node.connection) report.dropped.push({ where: label, what: `the connection ${node.connection}`, why: 'the endpoint and key are the profile you run the chain on' });
}

/** Nodes in an order where each comes after the nodes it reads (references and activate conditions). */
function inDependencyOrder(nodes: readonly FlowNode[], problems: ChainProblem[]): FlowNode[] {
  const byName = new Map(nodes.map((n) => [n.name, n]));
  const reads = (n: FlowNode) => [...Object.values(n.inputs), n.activate?.when].flatMap((v) => {
    const ref = flowRef(v);
    const dep = ref && 'kind' in ref && ref.kind === 'node' ? byName.get(ref.node) : undefined;
    return dep ? [dep] : [];
  });
  const order: FlowNode[] = [];
  const state = new Map<FlowNode, 'open' | 'done'>();
  const visit = (root: FlowNode) => {
    const stack: { node: FlowNode; deps: FlowNode[] }[] = [{ node: root, deps: reads(root) }];
    state.set(root, 'open');
    while (stack.length) {
      const top = stack[stack.length - 1] as (typeof stack)[number];
      const next = top.deps.shift();
      if (!next) {
        stack.pop();
        state.set(top.node, 'done');
        order.push(top.node);
      } else if (state.get(next) === 'open') problems.push({ path: `$.nodes[${top.node.index}]`, message: `"${top.node.name}" is on a cycle of references through "${next.name}"` });
      else if (!state.has(next)) {
        state.set(next, 'open');
        stack.push({ node: next, deps: reads(next) });
      }
    }
  };
  for (const n of nodes) if (!state.has(n)) visit(n);
  return order;
}

export function promptflowToChain(flow: unknown, ctx: ChainFormatContext): ToChainResult {
  if (!isRecord(flow) || !Array.isArray(flow.nodes)) return { ok: false, problems: [{ path: '$.nodes', message: 'a Prompt flow has a list of nodes' }] };
  const report = createFidelityReport('Prompt flow');
  const read = readNodes(flow, report);
  const c: Context = { ctx, report, problems: [...read.problems], inputIds: new Map(), built: new Map(), refused: new Set(), known: new Set(read.nodes.map((n) => n.name)), steps: [] };
  const taken = new Set<string>();
  const inputs: Record<string, unknown>[] = [];
  for (const [name, spec] of Object.entries(isRecord(flow.inputs) ? flow.inputs : {})) {
    const id = identifierFrom(name, 'input', taken);
    const type = isRecord(spec) ? text(spec.type) : '';
    const example = isRecord(spec) ? spec.default : undefined;
    const fits = example !== undefined && example !== null && JSON.stringify(example).length <= 100_000;
    inputs.push({ name: id, schema: INPUT_TYPES[type] ?? { type: 'string' }, trust: 'untrusted', required: true, ...(fits ? { example } : {}) });
    c.inputIds.set(name, id);
    if (id !== name) report.changed.push({ where: `input ${name}`, what: 'its name', why: `became ${id}, an identifier a template can read` });
  }

  const order = inDependencyOrder(read.nodes, c.problems);
  const { steps } = c;
  const level = new Map<string, number>();
  for (const node of order) {
    const where = `$.nodes[${node.index}]`;
    if (node.type === 'python') {
      c.refused.add(node.name);
      c.problems.push({ path: where, message: `"${node.name}" (python) runs Python code (${node.source || 'its source'}), which an import never runs` });
      continue;
    }
    if (node.type !== 'llm' && node.type !== 'prompt') {
      c.refused.add(node.name);
      c.problems.push({ path: where, message: `"${node.name}" (${node.type || 'untyped'}) has no counterpart here` });
      continue;
    }
    if (node.aggregation) {
      c.refused.add(node.name);
      c.problems.push({ path: where, message: `"${node.name}" (${node.type}) is an aggregation node, run once over every line of a batch: a chain runs one line` });
      continue;
    }
    const deps = [...c.built.values()].filter((b) => Object.values(node.inputs).some((v) => { const r = flowRef(v); return r !== null && 'kind' in r && r.kind === 'node' && r.node === b.node.name; }));
    // A node under an activate condition sits a column further right: its router goes before it.
    const depth = Math.max(0, ...deps.map((d) => (level.get(d.step) ?? 0) + 1)) + (node.activate ? 1 : 0);
    const column = [...level.values()].filter((l) => l === depth).length;
    const step = buildNode(c, node, taken, { x: 320 * depth, y: 180 * column });
    if (!step) continue;
    level.set(step.id as string, depth);
    c.built.set(node.name, { node, step: step.id as string });
    steps.push(step);
  }

  const conditions = conditionsOf(order, c);
  buildRouters(order, conditions, c, inputs, taken);

  for (const [name, spec] of Object.entries(isRecord(flow.outputs) ? flow.outputs : {})) {
    const reference = isRecord(spec) ? spec.reference : undefined;
    const ref = chainRef(c, reference, `$.outputs.${name}.reference`, `the output ${name}`);
    if (ref === null) continue;
    if (ref === undefined) {
      c.problems.push({ path: `$.outputs.${name}`, message: `the output ${name} reads ${JSON.stringify(reference)?.slice(0, 80) ?? 'nothing'}, not a node's output or a flow input` });
      continue;
    }
    const from = flowRef(reference);
    if (from && 'kind' in from && from.kind === 'node' && conditions.get(from.node)) {
      report.changed.push({ where: `output ${name}`, what: `reads "${from.node}", which runs only under an activate condition`, why: 'when it does not run, the output is left out of the run\'s result, where Prompt flow returns None' });
    }
    const x = 320 * (Math.max(0, ...level.values()) + 1);
    steps.push({ id: identifierFrom(`${name} output`, 'output', taken), kind: 'output', name, position: { x, y: 180 * (steps.length % 4) }, config: { bindings: { value: ref } } });
  }
  if (c.problems.length > 0) return { ok: false, problems: c.problems };
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
