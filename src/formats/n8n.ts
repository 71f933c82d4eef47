import type { ChainProblem } from '../chain/parse.ts';
import { setOwn } from '../chain/own.ts';
import { isRecord, propertyOf } from '../files/json-value.ts';
import { parseStrictJson } from '../files/strict-json.ts';
import { createFidelityReport } from './fidelity.ts';
import { bind, edgesByNode, foreignJson, identifierFrom, orderByEdges, placeAtCanvasDensity } from './flow-common.ts';
import { defineChainFormat, type ToChainResult } from './format.ts';
import { carryModelSettings, reportPrompt } from './model-settings.ts';
import { ifBranching, switchBranching } from './n8n-branches.ts';

/**
 * n8n workflows (the JSON n8n's "Download" writes) as chains: the AI nodes are the chain, the
 * rest of the workflow (triggers, app nodes, code) is named in the fidelity report.
 *
 * - Basic LLM Chain → a model step: its text the prompt, its system messages the system message,
 *   a Structured Output Parser wired to it the output schema;
 * - Information Extractor → a model step whose schema is its attributes (or its JSON schema);
 * - Text Classifier and Sentiment Analysis → a model step answering `{category}` from the node's
 *   categories, then a router taking each category's branch;
 * - an If node (one condition) and a Switch node (rules, each an equality on one value) → a router
 *   on the step field or chain input the condition reads; a condition written as code is never
 *   run: its value becomes a chain input the router reads (n8n-branches.ts);
 * - the chat model wired into a node → that step's settings (model-settings.ts);
 * - `{{ $json.x }}` and `{{ $('Node').item.json.x }}` → bindings: to the step that node became,
 *   or to a chain input `x` when the node is not part of the chain (a trigger, an app node).
 *   Any other expression is code: never run, its value becomes a chain input, and the report says so.
 * Agents (they call tools) and If nodes the chain cannot branch on are refused by name. Node code,
 * credentials and URLs are never read.
 */

interface N8nNode {
  /** The node's name: n8n connects nodes by name. */
  id: string;
  name: string;
  kind: string;
  type: string;
  parameters: Record<string, unknown>;
  position: { x: number; y: number };
  index: number;
}

interface N8nEdge {
  source: string;
  target: string;
  /** `main` (data) or an AI attachment (`ai_languageModel`, `ai_outputParser`, `ai_tool`, …). */
  kind: string;
  /** Which output of the source (an If's true/false, a classifier's category). */
  output: number;
}

const MAX_NODES = 2_000;
const STEP_KINDS = new Set(['chainLlm', 'informationExtractor', 'textClassifier', 'sentimentAnalysis']);
const BRANCHING = new Set(['textClassifier', 'sentimentAnalysis']);
const text = (value: unknown): string => (typeof value === 'string' ? value : '');
/** n8n marks an expression with a leading `=`; the rest of a parameter is literal text. */
const expressionBody = (value: string) => (value.startsWith('=') ? value.slice(1) : value);
const SIMPLE = /^\s*(?:\$json|\$input\.(?:item|first\(\)|last\(\))\.json|\$\(\s*'([^'\\]{1,200})'\s*\)\.(?:item|first\(\)|last\(\))\.json)((?:\.[A-Za-z_$][\w$]*)*)\s*$/;

/** Whether a parsed value is an n8n workflow: `nodes` with n8n node types and a `connections` table. */
export function isN8nWorkflow(value: unknown): boolean {
  return isRecord(value) && Array.isArray(value.nodes) && isRecord(value.connections)
    && value.nodes.some((n) => /^(@n8n\/)?n8n-nodes-/.test(text(propertyOf(n, 'type'))));
}

function readNodes(raw: unknown[], problems: ChainProblem[]): N8nNode[] {
  const nodes: N8nNode[] = [];
  raw.forEach((n, index) => {
    const name = text(propertyOf(n, 'name'));
    const type = text(propertyOf(n, 'type'));
    if (!name || !type) return void problems.push({ path: `$.nodes[${index}]`, message: 'a node without a name or a type' });
    const at = propertyOf(n, 'position');
    const position = Array.isArray(at) && Number.isFinite(at[0]) && Number.isFinite(at[1]) ? { x: Number(at[0]), y: Number(at[1]) } : { x: index * 300, y: 0 };
    const parameters = propertyOf(n, 'parameters');
    nodes.push({ id: name, name, type, kind: type.slice(type.lastIndexOf('.') + 1), parameters: isRecord(parameters) ? parameters : {}, position, index });
  });
  return nodes;
}

function readEdges(connections: Record<string, unknown>, known: Set<string>): N8nEdge[] {
  const edges: N8nEdge[] = [];
  for (const [source, byKind] of Object.entries(connections)) {
    if (!known.has(source) || !isRecord(byKind)) continue;
    for (const [kind, outputs] of Object.entries(byKind)) {
      if (!Array.isArray(outputs)) continue;
      outputs.forEach((targets, output) => {
        if (!Array.isArray(targets)) return;
        for (const t of targets) {
          const target = text(propertyOf(t, 'node'));
          if (known.has(target)) edges.push({ source, target, kind, output });
        }
      });
    }
  }
  return edges;
}

/** A schema from JSON text (a parser's or extractor's own), or a problem message. */
function schemaFromText(source: string): Record<string, unknown> | string {
  const read = parseStrictJson(source);
  if (!read.ok) return `its JSON schema is not JSON (${read.message})`;
  return isRecord(read.value) ? read.value : 'its JSON schema is not an object';
}

/** A schema from an example JSON value (n8n's "generate from JSON example"): each value's type. */
function schemaOfExample(value: unknown): Record<string, unknown> {
  if (Array.isArray(value)) return { type: 'array', items: value.length ? schemaOfExample(value[0]) : {} };
  if (isRecord(value)) {
    const properties: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) setOwn(properties, k, schemaOfExample(v));
    return { type: 'object', properties, required: Object.keys(value) };
  }
  return { type: value === null ? 'null' : typeof value === 'number' ? 'number' : typeof value === 'boolean' ? 'boolean' : 'string' };
}

export function chainFromN8n(flow: Record<string, unknown>, fileName?: string): ToChainResult {
  const raw = flow.nodes as unknown[];
  if (raw.length > MAX_NODES) return { ok: false, problems: [{ path: '$.nodes', message: `${raw.length} nodes, more than ${MAX_NODES}` }] };
  const report = createFidelityReport('n8n');
  const problems: ChainProblem[] = [];
  const nodes = readNodes(raw, problems);
  const byName = new Map(nodes.map((n) => [n.name, n]));
  const edges = readEdges(flow.connections as Record<string, unknown>, new Set(byName.keys()));
  const main = edges.filter((e) => e.kind === 'main');
  const byNode = edgesByNode(main);
  const attached = (node: N8nNode, kind: string) => edges.filter((e) => e.target === node.name && e.kind === kind).map((e) => byName.get(e.source) as N8nNode);
  const where = (node: N8nNode) => `$.nodes[${node.index}]`;

  const taken = new Set<string>();
  const inputs: Record<string, unknown>[] = [];
  const inputOf = new Map<string, string>();
  const steps: Record<string, unknown>[] = [];
  const stepOf = new Map<string, string>();
  const notes: string[] = [];

  /** A chain input for a value the chain does not make (a trigger's field, an app node's output). */
  const inputFor = (name: string, from: string): string => {
    const key = `${from}\u0000${name}`;
    const known = inputOf.get(key);
    if (known) return `inputs.${known}`;
    const id = identifierFrom(name, 'input', taken);
    inputOf.set(key, id);
    inputs.push({ name: id, description: `"${name}" from n8n's "${from}"`, schema: { type: 'string' }, trust: 'untrusted', required: true });
    return `inputs.${id}`;
  };
  /** The node whose item `$json` means in `node`: what feeds it, through nodes that pass items on (routers, sentiment). */
  const itemSource = (node: N8nNode): N8nNode | undefined => {
    let source = byName.get(byNode.to(node.name)[0]?.source ?? '');
    for (let hops = 0; source && ['if', 'switch', 'textClassifier', 'sentimentAnalysis'].includes(source.kind) && hops < 50; hops++) source = byName.get(byNode.to(source.name)[0]?.source ?? '');
    return source;
  };
  /** A reference for a path into a node's item: the step it became (its answer), or a chain input. */
  const refFor = (source: N8nNode | undefined, path: string[], fallback: string): string => {
    const step = source ? stepOf.get(source.name) : undefined;
    if (source && step) {
      // A Basic LLM Chain's item is {text} or, with a parser, {output: {...}}; a classifier's {category}.
      const rest = path[0] === 'text' || path[0] === 'output' || path[0] === 'sentimentAnalysis' ? path.slice(1) : path;
      return [`steps.${step}`, ...rest].join('.');
    }
    return inputFor(path[path.length - 1] ?? fallback, source?.name ?? 'the workflow\'s input');
  };
  /** An n8n parameter as a template: each `{{ … }}` a binding; code in one is never run. */
  const template = (node: N8nNode, stepId: string, value: string, bindings: Record<string, string>): string => {
    if (!value.startsWith('=')) return value;
    return expressionBody(value).replace(/\{\{([\s\S]*?)\}\}/g, (whole, expression: string) => {
      const simple = SIMPLE.exec(expression);
      const path = simple ? (simple[2] ?? '').split('.').filter(Boolean) : [];
      const named = simple?.[1];
      const source = named !== undefined ? byName.get(named) : itemSource(node);
      if (!simple) {
        const hint = /(?:\$|\.)json((?:\.[A-Za-z_$][\w$]*(?![\w$]*\())+)/.exec(expression)?.[1]?.split('.').filter(Boolean) ?? [];
        const from = /\$\(\s*'([^'\\]{1,200})'\s*\)/.exec(expression)?.[1];
        const ref = inputFor(hint[hint.length - 1] ?? 'value', from ?? itemSource(node)?.name ?? 'the workflow\'s input');
        report.changed.push({ where: `step ${stepId}: "${node.name}"`, what: `the expression ${whole.slice(0, 160)}`, why: `it is code, which an import never runs: its value is the chain input ${ref.slice(7)}` });
        return `{${bind(bindings, ref.slice(7), ref)}}`;
      }
      const ref = refFor(source, path, 'value');
      return `{${bind(bindings, (ref.split('.').pop() ?? 'value').replace(/\W/g, '_'), ref)}}`;
    });
  };
  const settings = (node: N8nNode, stepId: string, config: Record<string, unknown>) => {
    const model = attached(node, 'ai_languageModel')[0];
    const label = `step ${stepId}: "${node.name}"${model ? ` with its model "${model.name}"` : ''}`;
    if (!model) return void report.changed.push({ where: label, what: 'model settings', why: 'no chat model is wired to it; the step uses the profile\'s model, temperature 0 and 1024 max tokens' });
    const options = isRecord(model.parameters.options) ? model.parameters.options : {};
    const name = isRecord(model.parameters.model) ? model.parameters.model.value : model.parameters.model ?? model.parameters.modelName;
    // n8n writes only the options a person set: every one not carried is reported, not only the well-known ones.
    const { temperature, maxTokens, maxTokensToSample, numPredict, responseFormat, format, ...rest } = options;
    carryModelSettings(label, {
      model: name, temperature, maxTokens: maxTokens ?? maxTokensToSample ?? numPredict,
      jsonMode: responseFormat === 'json_object' || format === 'json', unheld: rest,
    }, config, report);
  };

  const order = orderByEdges(nodes, (name) => byNode.to(name).map((e) => byName.get(e.source) as N8nNode), (node) => {
    // n8n loops over items with a Loop Over Items (splitInBatches) node: name it, it is what the person drew.
    // The nodes of its loop: reachable from it and reaching back to it. A loop whose body is AI nodes alone
    // would be a map step; one that also runs app nodes per item (HTTP, files, databases) cannot be.
    const reach = (from: string, next: (n: string) => string[]) => {
      const seen = new Set<string>([from]);
      for (const queue = [from]; queue.length;) {
        for (const n of next(queue.pop() as string)) {
          if (seen.has(n)) continue;
          seen.add(n);
          queue.push(n);
        }
      }
      return seen;
    };
    const back = reach(node.name, (n) => byNode.to(n).map((e) => e.source));
    const body = [...reach(node.name, (n) => byNode.from(n).map((e) => e.target))].filter((n) => back.has(n)).map((n) => byName.get(n) as N8nNode);
    const loops = body.filter((n) => n.kind === 'splitInBatches').map((n) => `"${n.name}" (splitInBatches)`);
    const perItem = body.filter((n) => !STEP_KINDS.has(n.kind) && n.kind !== 'splitInBatches' && n.kind !== 'noOp').map((n) => `"${n.name}" (${n.kind})`);
    problems.push({ path: where(node), message: `"${node.name}" is in a loop of connections${loops.length ? ` through ${loops.join(', ')}` : ''}${perItem.length ? ` that also runs ${perItem.join(', ')} for each item` : ''}; a chain runs each step once, and a map step fans out model calls only (the loop's other nodes have no counterpart)` });
  });
  // Routers added after the step they read, with their branches resolved once every step exists.
  const pendingRoutes: { router: Record<string, unknown>; node: N8nNode; labels: { equals: unknown; output: number; label: string }[]; other: number | null }[] = [];

  for (const node of order) {
    const p = node.parameters;
    if (node.kind === 'stickyNote') {
      if (text(p.content).trim()) notes.push(text(p.content).trim());
      continue;
    }
    if (node.kind === 'agent' || /Agent$/.test(node.kind)) {
      problems.push({ path: where(node), message: `n8n node "${node.name}" (${node.kind}) is an agent that calls tools (${attached(node, 'ai_tool').map((t) => `"${t.name}"`).join(', ') || 'none wired'}); a chain here runs no tools` });
      continue;
    }
    if (node.kind === 'if' || node.kind === 'switch') {
      const branching = node.kind === 'if' ? ifBranching(p) : switchBranching(p);
      const leadsToSteps = byNode.from(node.name).some((e) => STEP_KINDS.has(byName.get(e.target)?.kind ?? ''));
      if (!leadsToSteps) {
        report.dropped.push({ where: `"${node.name}" (${node.kind})`, what: 'the node', why: 'nothing after it is part of the chain' });
        continue;
      }
      if ('problem' in branching) {
        problems.push({ path: where(node), message: `n8n ${node.kind === 'if' ? 'If' : 'Switch'} "${node.name}" cannot be one router: ${branching.problem}` });
        continue;
      }
      const { left, labels, other, kind } = branching;
      const simple = SIMPLE.exec(expressionBody(left).replace(/^\{\{([\s\S]*)\}\}$/, '$1'));
      const id = identifierFrom(node.name, 'route', taken);
      let value: string;
      let field = '';
      if (simple) {
        const source = simple[1] !== undefined ? byName.get(simple[1]) : itemSource(node);
        const path = (simple[2] ?? '').split('.').filter(Boolean);
        const step = source ? stepOf.get(source.name) : undefined;
        if (step) {
          value = `steps.${step}`;
          field = (path[0] === 'output' ? path.slice(1) : path).join('.');
        } else value = refFor(source, path, 'value');
      } else {
        // A condition written as code is never run: what it computes is a chain input the router reads.
        value = inputFor(`${node.name} condition`, node.name);
        const input = inputs[inputs.length - 1] as Record<string, unknown>;
        if (kind === 'boolean' && input.name === value.slice(7)) Object.assign(input, { schema: { type: 'boolean' }, example: true, description: `The value of "${node.name}"'s condition ${left.slice(0, 160)} (code in n8n, never run here)` });
        report.changed.push({ where: `"${node.name}" (${node.kind})`, what: `the condition ${left.slice(0, 160)}`, why: `it is code, which an import never runs: the router reads its value from the chain input ${value.slice(7)}` });
      }
      const router = { id, kind: 'router', name: node.name, position: node.position, config: { bindings: { value }, field, routes: [] as unknown[], defaultTo: null as string | null } };
      steps.push(router);
      stepOf.set(node.name, id);
      pendingRoutes.push({ router, node, labels, other });
      report.changed.push({ where: `"${node.name}" (${node.kind})`, what: `the ${node.kind === 'if' ? 'condition' : 'rules'} on ${left.slice(0, 120)}`, why: `a router on ${field || value} (${labels.map((l) => `${l.label} = ${JSON.stringify(l.equals)}`).join(', ')}); ${other === null ? 'a value no rule matches ends the run in an output of its own (n8n drops the item)' : 'the rest take the "otherwise" branch'}` });
      if (node.kind === 'switch' && propertyOf(p.options, 'allMatchingOutputs') === true) report.changed.push({ where: `"${node.name}" (switch)`, what: 'all matching outputs', why: 'a router takes one branch: the first rule that matches' });
      continue;
    }
    if (!STEP_KINDS.has(node.kind)) {
      if (!/^lm|^outputParser/.test(node.kind)) report.dropped.push({ where: `"${node.name}" (${node.kind})`, what: 'the node', why: /trigger/i.test(node.kind) ? 'a trigger: the values it brings in are the chain\'s inputs' : 'no chain step does what it does; values read from it are chain inputs' });
      continue;
    }
    const id = identifierFrom(node.name, 'step', taken);
    const bindings: Record<string, string> = {};
    const config: Record<string, unknown> = { bindings };
    const label = `step ${id}: "${node.name}"`;
    const input = text(p.text) || text(p.inputText) || text(p.prompt) || '={{ $json.chatInput }}';
    config.prompt = template(node, id, input, bindings);
    reportPrompt(label, 'prompt', expressionBody(input), String(config.prompt), report, 'n8n {{ expressions }} became bindings');
    if (node.kind === 'chainLlm') {
      const messages = propertyOf(p.messages, 'messageValues');
      const list = Array.isArray(messages) ? messages : [];
      const system = list.filter((m) => !text(propertyOf(m, 'type')) || text(propertyOf(m, 'type')) === 'SystemMessagePromptTemplate').map((m) => template(node, id, text(propertyOf(m, 'message')), bindings));
      config.system = system.join('\n\n');
      if (system.length) reportPrompt(label, 'system message', system.map((m) => expressionBody(m)).join('\n\n'), String(config.system), report, 'n8n {{ expressions }} became bindings');
      for (const m of list.filter((m) => text(propertyOf(m, 'type')) && text(propertyOf(m, 'type')) !== 'SystemMessagePromptTemplate')) {
        report.dropped.push({ where: label, what: `a ${text(propertyOf(m, 'type')).replace('MessagePromptTemplate', '').toLowerCase()} message`, why: 'a model step sends one system and one user message' });
      }
      const parser = attached(node, 'ai_outputParser')[0];
      if (parser) {
        const pp = parser.parameters;
        let schema: Record<string, unknown> | string = 'it has no schema';
        if (text(pp.inputSchema) || text(pp.jsonSchema)) schema = schemaFromText(text(pp.inputSchema) || text(pp.jsonSchema));
        else if (text(pp.jsonSchemaExample)) {
          const example = parseStrictJson(text(pp.jsonSchemaExample));
          schema = example.ok ? schemaOfExample(example.value) : `its JSON example is not JSON (${example.message})`;
          if (example.ok) report.changed.push({ where: label, what: `the output parser "${parser.name}"`, why: 'its JSON example became a schema of the example\'s types' });
        }
        if (typeof schema === 'string') problems.push({ path: where(parser), message: `n8n output parser "${parser.name}": ${schema}` });
        else {
          config.outputSchema = schema;
          report.kept.push({ where: label, what: `the output parser "${parser.name}" as the step's output schema` });
        }
      }
    } else if (node.kind === 'informationExtractor') {
      const attributes = propertyOf(p.attributes, 'attributes');
      if (Array.isArray(attributes) && attributes.length) {
        const properties: Record<string, unknown> = {};
        const required: string[] = [];
        for (const a of attributes) {
          const name = text(propertyOf(a, 'name'));
          if (!name) continue;
          setOwn(properties, name, { type: ['number', 'boolean', 'date'].includes(text(propertyOf(a, 'type'))) && text(propertyOf(a, 'type')) !== 'date' ? text(propertyOf(a, 'type')) : 'string', ...(text(propertyOf(a, 'description')) ? { description: text(propertyOf(a, 'description')) } : {}) });
          if (propertyOf(a, 'required') === true) required.push(name);
        }
        config.outputSchema = { type: 'object', properties, required, additionalProperties: false };
      } else {
        const schema = schemaFromText(text(p.inputSchema) || text(p.jsonSchemaExample));
        if (typeof schema === 'string') problems.push({ path: where(node), message: `n8n Information Extractor "${node.name}": ${schema}` });
        else config.outputSchema = text(p.inputSchema) ? schema : schemaOfExample(schema);
      }
      const own = text(propertyOf(p.options, 'systemPromptTemplate'));
      config.system = own || 'Extract the requested attributes from the text. Leave out an attribute the text does not state.';
      if (own) report.kept.push({ where: label, what: `system prompt template (${own.length} characters, byte for byte)` });
      else report.changed.push({ where: label, what: 'system message', why: 'n8n builds the extractor\'s instruction itself; the step says what it asks for' });
      report.kept.push({ where: label, what: `the ${text(p.schemaType) || 'attribute'} schema as the step's output schema` });
    } else {
      const rows = node.kind === 'textClassifier' ? propertyOf(p.categories, 'categories') : null;
      const categories = node.kind === 'textClassifier'
        ? (Array.isArray(rows) ? rows : []).map((r) => ({ name: text(propertyOf(r, 'category')), description: text(propertyOf(r, 'description')) })).filter((c) => c.name)
        : (text(propertyOf(p.options, 'categories')) || 'Positive, Neutral, Negative').split(',').map((c) => ({ name: c.trim(), description: '' })).filter((c) => c.name);
      if (categories.length === 0) {
        problems.push({ path: where(node), message: `n8n "${node.name}" names no categories` });
        continue;
      }
      const options = isRecord(p.options) ? p.options : {};
      // The classifier's "When no clear match: Other branch" is one more category, leaving by the output after the rest.
      if (node.kind === 'textClassifier' && options.fallback === 'other') categories.push({ name: 'other', description: 'none of the categories above fits' });
      const listed = categories.map((c) => `- ${c.name}${c.description ? `: ${c.description}` : ''}`).join('\n');
      const own = text(options.systemPromptTemplate);
      config.system = own ? own.replace('{categories}', `\n${listed}\n`) : `Classify the text into exactly one of these categories:\n${listed}`;
      config.outputSchema = { type: 'object', properties: { category: { type: 'string', enum: categories.map((c) => c.name) } }, required: ['category'], additionalProperties: false };
      if (own) report.changed.push({ where: label, what: 'system prompt template', why: `carried as the system message with {categories} filled in with the node's ${categories.length} categories (n8n's format instructions are the step's output schema)` });
      else report.changed.push({ where: label, what: 'system message', why: `n8n builds the ${node.kind === 'textClassifier' ? 'classifier' : 'sentiment'} instruction itself; the step lists the node's ${categories.length} categories and answers {category}` });
      if (node.kind === 'textClassifier') {
        report.changed.push({ where: label, what: `when no clear match: ${options.fallback === 'other' ? 'the Other branch' : 'discard the item'}`, why: options.fallback === 'other' ? 'the category "other", routed to the Other branch' : 'n8n drops an item no category fits; here the step must answer one of them' });
      }
      if (options.includeDetailedResults === true) report.dropped.push({ where: label, what: 'detailed results (strength and confidence)', why: 'the step answers {category} only' });
      if (options.enableAutoFixing === true) report.changed.push({ where: label, what: 'auto-fixing', why: 'an answer outside the schema is retried with the validation errors, as every model step is' });
      if (propertyOf(p.options, 'multiClass') === true) report.changed.push({ where: label, what: 'more than one category', why: 'the router takes one branch: the step answers one category' });
      steps.push({ id, kind: 'model', name: node.name, position: node.position, description: `Imported from n8n's ${node.kind}.`, config });
      settings(node, id, config);
      if (BRANCHING.has(node.kind) && byNode.from(node.name).length) {
        const routeId = identifierFrom(`${node.name} route`, 'route', taken);
        const router = { id: routeId, kind: 'router', name: `${node.name}: route`, position: { x: node.position.x + 200, y: node.position.y }, config: { bindings: { value: `steps.${id}` }, field: 'category', routes: [] as unknown[], defaultTo: null as string | null } };
        steps.push(router);
        pendingRoutes.push({ router, node, labels: categories.map((c, output) => ({ equals: c.name, output, label: c.name })), other: null });
        report.changed.push({ where: label, what: `its ${categories.length} outputs`, why: `a router on {category} taking each category's branch` });
      }
      stepOf.set(node.name, id);
      continue;
    }
    steps.push({ id, kind: 'model', name: node.name, position: node.position, description: `Imported from n8n's ${node.kind}.`, config });
    settings(node, id, config);
    stepOf.set(node.name, id);
  }

  // Each branch goes to the first step after it; a branch with none ends in an output of its own.
  // A branch into a classifier enters its model step (stepOf), whose own router follows it.
  const isStep = (name: string) => stepOf.has(name);
  for (const { router, node, labels, other } of pendingRoutes) {
    const config = router.config as { routes: unknown[]; defaultTo: string | null; bindings: Record<string, string> };
    const target = (output: number, label: string) => {
      const next = byNode.from(node.name).find((e) => e.output === output && isStep(e.target));
      if (next) return stepOf.get(next.target) as string;
      const id = identifierFrom(`${node.name} ${label}`, 'output', taken);
      steps.push({ id, kind: 'output', name: `${node.name}: ${label}`, position: { x: node.position.x + 400, y: node.position.y + 120 * (output + 1) }, config: { bindings: { value: config.bindings.value } } });
      return id;
    };
    config.routes = labels.map((l) => ({ equals: l.equals, to: target(l.output, l.label), label: l.label }));
    // n8n drops an item no branch takes: here the run ends in an output of its own, saying so by its name.
    config.defaultTo = other === null ? (node.kind === 'switch' ? target(-1, 'no rule matched') : null) : target(other, 'otherwise');
  }
  // The steps nothing in the chain follows are what it returns.
  for (const node of order) {
    const id = stepOf.get(node.name);
    if (!id || node.kind === 'if' || node.kind === 'switch' || BRANCHING.has(node.kind) && byNode.from(node.name).length) continue;
    if (byNode.from(node.name).some((e) => stepOf.has(e.target))) continue;
    const out = identifierFrom(`${node.name} output`, 'output', taken);
    steps.push({ id: out, kind: 'output', name: `${node.name}: output`, position: { x: node.position.x + 400, y: node.position.y }, config: { bindings: { value: `steps.${id}` } } });
  }
  // An AI node of the workflow is a step here; with none, nothing in it is a chain.
  if (!nodes.some((n) => STEP_KINDS.has(n.kind)) && problems.length === 0) {
    problems.push({ path: '$.nodes', message: 'the workflow has no Basic LLM Chain, Information Extractor, Text Classifier or Sentiment Analysis node: nothing in it is a chain here' });
  }
  if (problems.length > 0) return { ok: false, problems };
  placeAtCanvasDensity(steps, 0.5);
  if (notes.length) report.changed.push({ where: 'sticky notes', what: `${notes.length} note${notes.length === 1 ? '' : 's'}`, why: 'kept in the chain\'s description' });

  const base = (fileName ?? '').replace(/^.*[\\/]/, '').replace(/\.json$/i, '');
  const name = text(flow.name) || base.replace(/[-_]+/g, ' ').trim() || 'Imported n8n workflow';
  return {
    ok: true,
    report,
    chain: {
      format: 'seamscope.chain', version: 1, id: `n8n-${identifierFrom(base || name, 'workflow', new Set()).replace(/_/g, '-')}`, name: name.slice(0, 200),
      description: [`Imported from n8n${base ? ` (${base}.json)` : ''}.`, ...notes.map((n) => `Note in the workflow: ${n}`)].join('\n\n').slice(0, 8000),
      inputs, steps, meta: { importedFrom: { tool: 'n8n' } },
    },
  };
}

/** n8n workflow downloads, read as chains. */
export const n8nFormat = defineChainFormat<Record<string, unknown>>({
  id: 'n8n',
  title: 'n8n',
  extensions: ['.json'],
  sniff: (file) => {
    const value = foreignJson(file, /"connections"\s*:/);
    return value && isN8nWorkflow(value) ? { value } : null;
  },
  toChain: (flow, ctx) => chainFromN8n(flow, ctx.fileName),
});
