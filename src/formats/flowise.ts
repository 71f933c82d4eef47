import type { ChainProblem } from '../chain/parse.ts';
import { setOwn } from '../chain/own.ts';
import { isRecord, propertyOf } from '../files/json-value.ts';
import { defineChainFormat } from './format.ts';
import { createFidelityReport, type FidelityReport } from './fidelity.ts';
import { carryModelSettings, reportPrompt } from './model-settings.ts';
import { bind, foreignJson, edgesByNode, identifierFrom, orderByEdges, placeAtCanvasDensity } from './flow-common.ts';
import { fewShotTemplate, schemaOfZod } from './flowise-prompts.ts';

/**
 * Flowise flows (a chatflow or an Agentflow v2 as Flowise exports them; its marketplace
 * templates are such files) as Seamscope chains. As with Langflow, what has a counterpart is
 * mapped and any other node is refused by name; no node's code or credential is read.
 *
 * Chatflows (LangChain nodes):
 * - an LLM Chain → a model step: its Prompt Template's text (or a Chat Prompt Template's system
 *   and human messages), each `{variable}` bound through the template's prompt values —
 *   `{{question}}` is the chat input, `{{node.data.instance}}` that node's output, anything else
 *   typed-in text; the chat model wired to it is a setting (temperature kept, model name noted);
 * - a Few Shot Prompt Template → one prompt: prefix, each example through its example prompt,
 *   suffix; a variable no prompt value sets is the chat input, as Flowise fills it;
 * - a Multi Prompt Chain → a model step choosing among its Prompt Retrievers, a router on that
 *   choice and a model step per retriever (plus the default), each ending in an output;
 * - the LLM Chain nothing reads is the output.
 * Agentflow v2:
 * - Start (chat input) → the chain input `question`;
 * - an LLM node → a model step: its system messages as the system message, its user messages
 *   as the prompt (their HTML made text), each `{{ question }}` or `{{ nodeId }}` mention a
 *   binding; its structured output keys → the output schema;
 * - the nodes nothing follows are the output (one output step reading the last).
 */

export type FlowiseImport = { ok: true; chain: Record<string, unknown>; report: FidelityReport } | { ok: false; problems: ChainProblem[] };

interface FlowiseNode {
  id: string;
  name: string;
  label: string;
  category: string;
  inputs: Record<string, unknown>;
  position: { x: number; y: number };
  index: number;
}

const MAX_NODES = 2_000;
/** Chat model settings a model step holds nothing like (each is reported as dropped when set). */
const UNHELD = ['topP', 'topK', 'frequencyPenalty', 'presencePenalty', 'stopSequence', 'stop', 'seed', 'timeout', 'basepath', 'baseOptions', 'extendedThinking', 'reasoningEffort', 'proxyUrl', 'strictToolCalling'];
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** Whether a parsed JSON value is a Flowise export: top-level `nodes` and `edges`, nodes carrying `data.name` and `data.inputs`. */
export function isFlowiseFlow(value: unknown): boolean {
  if (!isRecord(value) || !Array.isArray(value.nodes) || !Array.isArray(value.edges) || isRecord(value.data)) return false;
  return value.nodes.some((n) => isRecord(n) && isRecord(n.data) && typeof n.data.name === 'string' && isRecord(n.data.inputs));
}

const isChatModel = (node: FlowiseNode) => node.category === 'Chat Models' || node.category === 'LLMs';
const isPrompt = (node: FlowiseNode) => node.name === 'promptTemplate' || node.name === 'chatPromptTemplate' || node.name === 'fewShotPromptTemplate';
/** A Multi Prompt Chain's destinations: each a name, a description and a system message. */
const isPromptRetriever = (node: FlowiseNode) => node.name === 'promptRetriever';
const isOutputParser = (node: FlowiseNode) => node.category === 'Output Parsers';

/**
 * An LLM Chain's output parser as the step's output schema: the Structured Output Parser's
 * table as an object, the CSV and list parsers as a list of strings under `items` (a step's
 * answer is a JSON object). The Advanced Structured Output Parser's schema is zod code: read,
 * never run, when it is zod's declarative subset (flowise-prompts.ts), else a problem naming it.
 */
function schemaOfParser(parser: FlowiseNode): { schema: Record<string, unknown>; changed?: string } | { problem: string } {
  if (parser.name === 'csvOutputParser' || parser.name === 'listOutputParser') {
    return { schema: { type: 'object', properties: { items: { type: 'array', items: { type: 'string' } } }, required: ['items'], additionalProperties: false }, changed: 'the list comes back as {"items": [...]}: a step answers a JSON object' };
  }
  if (parser.name === 'structuredOutputParser') {
    let rows: unknown = parser.inputs.jsonStructure;
    if (typeof rows === 'string') {
      try {
        rows = JSON.parse(rows);
      } catch {
        return { problem: 'its field table is not JSON' };
      }
    }
    if (!Array.isArray(rows) || rows.length === 0) return { problem: 'its field table is empty' };
    const properties: Record<string, unknown> = {};
    for (const row of rows) {
      const name = text(propertyOf(row, 'property'));
      if (!/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(name)) return { problem: `the field "${name.slice(0, 60)}" is not an identifier` };
      const type = text(propertyOf(row, 'type'));
      setOwn(properties, name, { type: ['number', 'boolean'].includes(type) ? type : 'string', ...(text(propertyOf(row, 'description')) ? { description: text(propertyOf(row, 'description')) } : {}) });
    }
    return { schema: { type: 'object', properties, required: Object.keys(properties), additionalProperties: false } };
  }
  if (parser.name === 'advancedStructuredOutputParser') {
    const read = schemaOfZod(text(parser.inputs.exampleJson) || text(parser.inputs.jsonStructure));
    return 'problem' in read ? read : { schema: read.schema, changed: 'its zod schema was read (never run) as the JSON Schema it declares' };
  }
  return { problem: 'no Seamscope counterpart' };
}

/** `{{nodeId.data.instance}}` → nodeId; `{{question}}` → 'question'; else null. */
function referenceOf(value: string): string | null {
  const m = /^\{\{\s*([A-Za-z_$][\w$]*)(?:\.data\.instance)?\s*\}\}$/.exec(value.trim());
  return m ? (m[1] as string) : null;
}

/** Flowise's rich-text messages (TipTap HTML) as plain text: paragraphs and breaks as new lines, tags dropped, entities read. */
export function htmlToText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|li|h[1-6])>/gi, '\n')
    .replace(/<[^>]{0,2000}>/g, '')
    .replace(/&(nbsp|amp|lt|gt|quot|#39);/g, (_m, e: string) => ({ nbsp: ' ', amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e] ?? '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** An output schema from an Agentflow LLM node's structured output rows (key, type, enum values, JSON schema). */
function schemaOfRows(rows: unknown): Record<string, unknown> | null | 'bad' {
  if (!Array.isArray(rows) || rows.length === 0) return null;
  const properties: Record<string, unknown> = {};
  for (const row of rows) {
    if (!isRecord(row) || typeof row.key !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(row.key)) return 'bad';
    const description = text(row.description) ? { description: text(row.description) } : {};
    let schema: Record<string, unknown>;
    switch (row.type) {
      case 'number': schema = { type: 'number' }; break;
      case 'boolean': schema = { type: 'boolean' }; break;
      case 'stringArray': schema = { type: 'array', items: { type: 'string' } }; break;
      case 'enum': schema = { type: 'string', enum: text(row.enumValues).split(',').map((v) => v.trim()).filter(Boolean) }; break;
      case 'jsonArray': {
        let fields: unknown;
        try {
          fields = JSON.parse(text(row.jsonSchema));
        } catch {
          return 'bad';
        }
        if (!isRecord(fields)) return 'bad';
        schema = { type: 'array', items: { type: 'object', properties: fields, required: Object.keys(fields), additionalProperties: false } };
        break;
      }
      default: schema = { type: 'string' };
    }
    setOwn(properties, row.key, { ...schema, ...description });
  }
  return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
}

export function chainFromFlowise(flow: Record<string, unknown>, fileName?: string): FlowiseImport {
  const rawNodes = flow.nodes as unknown[];
  if (rawNodes.length > MAX_NODES) return { ok: false, problems: [{ path: '$.nodes', message: `${rawNodes.length} nodes, more than ${MAX_NODES}` }] };
  const report = createFidelityReport('Flowise');
  const problems: ChainProblem[] = [];
  const nodes: FlowiseNode[] = [];
  rawNodes.forEach((n, index) => {
    const data = propertyOf(n, 'data');
    const id = text(propertyOf(n, 'id')) || text(propertyOf(data, 'id'));
    if (!id || !isRecord(data)) return void problems.push({ path: `$.nodes[${index}]`, message: 'a node without an id or data' });
    const position = propertyOf(n, 'position');
    const x = Number(propertyOf(position, 'x'));
    const y = Number(propertyOf(position, 'y'));
    nodes.push({
      id, name: text(data.name), label: text(data.label) || text(data.name) || id, category: text(data.category),
      inputs: isRecord(data.inputs) ? data.inputs : {}, position: Number.isFinite(x) && Number.isFinite(y) ? { x, y } : { x: index * 300, y: 0 }, index,
    });
  });
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const edges = (flow.edges as unknown[]).flatMap((e) => {
    const source = text(propertyOf(e, 'source'));
    const target = text(propertyOf(e, 'target'));
    return byId.has(source) && byId.has(target) ? [{ source, target }] : [];
  });
  const where = (node: FlowiseNode) => `$.nodes[${node.index}]`;
  const agentflow = nodes.some((n) => n.name === 'startAgentflow');

  const taken = new Set<string>();
  const inputs: Record<string, unknown>[] = [];
  const steps: Record<string, unknown>[] = [];
  const stepOf = new Map<string, string>();
  let question: string | null = null;
  const questionRef = () => {
    if (!question) {
      question = identifierFrom('question', 'question', taken);
      inputs.push({ name: question, description: 'The chat input of the Flowise flow', schema: { type: 'string' }, trust: 'untrusted', required: true });
    }
    return `inputs.${question}`;
  };

  // Steps in an order where a step comes after what it reads; a cycle is a problem.
  const byNode = edgesByNode(edges);
  const order = orderByEdges(nodes, (id) => byNode.to(id).map((e) => byId.get(e.source) as FlowiseNode), (node) => {
    problems.push({ path: where(node), message: `"${node.label}" is in a loop of edges; a chain runs each step once` });
  });

  /** Binds a `{{…}}` reference: the chat input, or an earlier node's output; null when it names neither. */
  const refFor = (name: string): string | null => {
    if (name === 'question') return questionRef();
    const step = stepOf.get(name);
    return step ? `steps.${step}` : null;
  };
  /** A chat model node's (or an Agentflow LLM node's model config's) settings onto the step, each reported. */
  const settingsOf = (stepId: string, step: FlowiseNode, model: FlowiseNode | undefined, config: Record<string, unknown>) => {
    const where = `step ${stepId}: "${step.label}" (${step.name})${model && model !== step ? ` with its model "${model.label}" (${model.name})` : ''}`;
    if (!model) return void report.changed.push({ where, what: 'model settings', why: 'no chat model is wired to it; the step uses the profile\'s model, temperature 0 and 1024 max tokens' });
    const own = isRecord(model.inputs.llmModelConfig) ? model.inputs.llmModelConfig : model.inputs;
    const unheld = Object.fromEntries(UNHELD.map((key) => [key, own[key]]));
    // A thinking budget means something only with extended thinking on (then it is reported with it).
    if (own.extendedThinking === true) unheld.budgetTokens = own.budgetTokens;
    carryModelSettings(where, { model: own.modelName, temperature: own.temperature, maxTokens: [own.maxTokens, own.maxTokensToSample, own.maxOutputTokens].find((v) => v !== undefined && v !== ''), stream: own.streaming, unheld }, config, report);
  };

  let ownOutputs = 0;
  /**
   * A Multi Prompt Chain as a model step choosing a destination by its description, a router on
   * that choice, and one model step per Prompt Retriever (its system message, the chat input),
   * each ending in an output; LangChain's default chain for "none fits" is a plain model step.
   * The number of outputs made, or 0 with the problem said.
   */
  const multiPromptSteps = (node: FlowiseNode, id: string, config: Record<string, unknown>): number => {
    const refs = Array.isArray(node.inputs.promptRetriever) ? node.inputs.promptRetriever : [node.inputs.promptRetriever];
    const retrievers = refs.map((r) => byId.get(referenceOf(text(r)) ?? '')).filter((r): r is FlowiseNode => r !== undefined && isPromptRetriever(r));
    const model = byId.get(referenceOf(text(node.inputs.model)) ?? '');
    if (retrievers.length === 0) return void problems.push({ path: where(node), message: `"${node.label}" (multiPromptChain) has no Prompt Retriever wired to it` }), 0;
    const names = retrievers.map((r) => text(r.inputs.name).trim());
    const bad = names.find((n, i) => !n || n === 'DEFAULT' || names.indexOf(n) !== i);
    if (bad !== undefined) return void problems.push({ path: where(node), message: `"${node.label}" (multiPromptChain): its prompt names must be distinct and not DEFAULT (${JSON.stringify(bad)})` }), 0;
    const question = questionRef();
    const label = `step ${id}: "${node.label}" (multiPromptChain)`;
    Object.assign(config, {
      system: `Choose the prompt best suited to the input. The prompts, by name:\n${retrievers.map((r, i) => `- ${names[i]}: ${text(r.inputs.description)}`).join('\n')}\nAnswer DEFAULT when none of them fits.`,
      prompt: `{${bind(config.bindings as Record<string, string>, 'question', question)}}`,
      outputSchema: { type: 'object', properties: { destination: { type: 'string', enum: [...names, 'DEFAULT'] } }, required: ['destination'], additionalProperties: false },
    });
    report.changed.push({ where: label, what: 'the router prompt', why: `LangChain's own router prompt is not copied: the step lists the ${names.length} prompts by name and description and answers {destination}; the input goes on unchanged (LangChain's router may reword it)` });
    settingsOf(id, node, model, config);
    steps.push({ id, kind: 'model', name: `${node.label}: choose`, position: node.position, description: 'Imported from Flowise\'s multiPromptChain: the router\'s choice.', config });
    const routeId = identifierFrom(`${node.label} route`, 'route', taken);
    const routes: { equals: string; to: string; label: string }[] = [];
    const destination = (name: string, system: string, where: string, at: number) => {
      const stepId = identifierFrom(name, 'prompt', taken);
      const stepConfig: Record<string, unknown> = { bindings: {}, system, prompt: '' };
      stepConfig.prompt = `{${bind(stepConfig.bindings as Record<string, string>, 'question', question)}}`;
      settingsOf(stepId, node, model, stepConfig);
      const position = { x: node.position.x + 700, y: node.position.y + 260 * at };
      steps.push({ id: stepId, kind: 'model', name, position, description: `Imported from Flowise's ${where}.`, config: stepConfig });
      steps.push({ id: identifierFrom(`${name} output`, 'output', taken), kind: 'output', name: `${name}: output`, position: { x: position.x + 700, y: position.y }, config: { bindings: { value: `steps.${stepId}` } } });
      return stepId;
    };
    retrievers.forEach((r, i) => {
      const system = text(r.inputs.systemMessage);
      routes.push({ equals: names[i] as string, to: destination(names[i] as string, system, `promptRetriever "${r.label}"`, i), label: names[i] as string });
      reportPrompt(`prompt ${names[i]}: "${r.label}" (promptRetriever)`, 'system message', system, system, report, '');
    });
    const fallback = destination(`${node.label} default`, '', 'multiPromptChain (its default chain)', retrievers.length);
    report.changed.push({ where: label, what: 'the default chain', why: `LangChain answers DEFAULT with a conversation chain of its own wording; here the model step ${fallback} gets the input with no system message` });
    steps.push({ id: routeId, kind: 'router', name: `${node.label}: route`, position: { x: node.position.x + 350, y: node.position.y }, config: { bindings: { value: `steps.${id}` }, field: 'destination', routes, defaultTo: fallback } });
    return retrievers.length + 1;
  };

  for (const node of order) {
    if (isChatModel(node) || isPrompt(node) || isOutputParser(node) || isPromptRetriever(node) || node.name === 'startAgentflow') continue;
    const id = identifierFrom(node.label, 'step', taken);
    const bindings: Record<string, string> = {};
    const config: Record<string, unknown> = { bindings };
    if (node.name === 'llmChain') {
      const prompt = byId.get(referenceOf(text(node.inputs.prompt)) ?? '');
      const model = byId.get(referenceOf(text(node.inputs.model)) ?? '');
      if (!prompt || !isPrompt(prompt)) {
        problems.push({ path: where(node), message: `"${node.label}" has no Prompt Template wired to its prompt` });
        continue;
      }
      let values: unknown = prompt.inputs.promptValues;
      if (typeof values === 'string' && values.trim()) {
        try {
          values = JSON.parse(values);
        } catch {
          problems.push({ path: where(prompt), message: `"${prompt.label}": its prompt values are not JSON` });
          continue;
        }
      }
      // Each {variable}: bound to what its prompt value names, or the typed-in value inlined.
      const fill = (template: string) => template.replace(/(?<!\{)\{([A-Za-z_][A-Za-z0-9_]*)\}(?!\})/g, (whole, variable: string) => {
        const value = text(propertyOf(values, variable));
        const named = referenceOf(value);
        const ref = named ? refFor(named) : null;
        if (named && !ref) problems.push({ path: where(prompt), message: `"${prompt.label}": {${variable}} reads ${value}, which is no node of this flow that comes before it` });
        if (ref) return `{${bind(bindings, variable, ref)}}`;
        if (value) return value;
        // Flowise gives an LLM Chain's input (the chat message) to the variable no prompt value sets.
        chatFilled.push(variable);
        return `{${bind(bindings, variable, questionRef())}}`;
      });
      const chatFilled: string[] = [];
      let template = text(prompt.inputs.template);
      if (prompt.name === 'fewShotPromptTemplate') {
        const examplePrompt = byId.get(referenceOf(text(prompt.inputs.examplePrompt)) ?? '');
        const composed = fewShotTemplate(prompt.inputs, examplePrompt?.inputs);
        if ('problem' in composed) {
          problems.push({ path: where(prompt), message: `Few Shot Prompt Template "${prompt.label}": ${composed.problem}` });
          continue;
        }
        template = composed.template;
        report.changed.push({ where: `step ${id}: "${prompt.label}" (${prompt.name})`, what: `the prefix, ${composed.examples} examples and the suffix`, why: `one prompt, as LangChain formats it: each example through "${examplePrompt?.label ?? ''}" with its values written in, joined by the separator ${JSON.stringify(typeof prompt.inputs.exampleSeparator === 'string' ? prompt.inputs.exampleSeparator : '\n\n')}` });
      }
      if (prompt.name === 'chatPromptTemplate') {
        config.system = fill(text(prompt.inputs.systemMessagePrompt));
        config.prompt = fill(text(prompt.inputs.humanMessagePrompt)) || 'Go on.';
      } else config.prompt = fill(template);
      if (chatFilled.length) report.changed.push({ where: `step ${id}: "${prompt.label}" (${prompt.name})`, what: chatFilled.map((v) => `{${v}}`).join(', '), why: 'no prompt value sets it: the chat input, as Flowise gives an LLM Chain\'s input to it' });
      const promptWhere = `step ${id}: "${prompt.label}" (${prompt.name})`;
      const why = 'each {variable} reads what its prompt value names, and typed-in values are written in';
      if (prompt.name === 'chatPromptTemplate') {
        reportPrompt(promptWhere, 'system message', text(prompt.inputs.systemMessagePrompt), String(config.system), report, why);
        reportPrompt(promptWhere, 'human message', text(prompt.inputs.humanMessagePrompt), String(config.prompt), report, why);
      } else if (prompt.name === 'promptTemplate') reportPrompt(promptWhere, 'template as the user message', text(prompt.inputs.template), String(config.prompt), report, why);
      const parser = byId.get(referenceOf(text(node.inputs.outputParser)) ?? '');
      if (parser) {
        const read = schemaOfParser(parser);
        if ('problem' in read) problems.push({ path: where(parser), message: `Flowise output parser "${parser.label}" (${parser.name}): ${read.problem}` });
        else {
          config.outputSchema = read.schema;
          (read.changed ? report.changed : report.kept).push({ where: `step ${id}: "${parser.label}" (${parser.name})`, what: 'the output parser as the step\'s output schema', ...(read.changed ? { why: read.changed } : {}) });
          if (parser.inputs.autofixParser === true || parser.inputs.autoFix === true) report.changed.push({ where: `step ${id}: "${parser.label}" (${parser.name})`, what: 'autofix', why: 'an answer outside the schema is retried with the validation errors, as every model step is' });
        }
      }
      settingsOf(id, node, model, config);
    } else if (node.name === 'multiPromptChain') {
      ownOutputs += multiPromptSteps(node, id, config);
      continue;
    } else if (node.name === 'llmAgentflow') {
      // Mentions are {{ name }}: the chat input, or an earlier node's output.
      const fill = (html: string) => htmlToText(html).replace(/\{\{\s*([A-Za-z_$][\w$.]*)\s*\}\}/g, (whole, name: string) => {
        const ref = refFor(name);
        if (!ref) problems.push({ path: where(node), message: `"${node.label}": ${whole} names no input or earlier node (flow state and variables have no counterpart)` });
        return ref ? `{${bind(bindings, name.replace(/\W/g, '_'), ref)}}` : whole;
      });
      const messages = Array.isArray(node.inputs.llmMessages) ? node.inputs.llmMessages : [];
      const system = messages.filter((m) => propertyOf(m, 'role') === 'system').map((m) => fill(text(propertyOf(m, 'content'))));
      const user = [...messages.filter((m) => propertyOf(m, 'role') === 'user').map((m) => fill(text(propertyOf(m, 'content')))), fill(text(node.inputs.llmUserMessage))].filter(Boolean);
      config.system = system.join('\n\n');
      // With no user message, Flowise sends the chat input.
      config.prompt = user.length ? user.join('\n\n') : `{${bind(bindings, 'question', questionRef())}}`;
      const schema = schemaOfRows(node.inputs.llmStructuredOutput);
      if (schema === 'bad') problems.push({ path: where(node), message: `"${node.label}": a structured output key is not an identifier or its JSON schema is not JSON` });
      else if (schema) {
        config.outputSchema = schema;
        report.kept.push({ where: `step ${id}: "${node.label}" (${node.name})`, what: `structured output: ${Object.keys(schema.properties as object).join(', ')} (the step's output schema)` });
      }
      const why = 'Flowise keeps messages as rich text (HTML): paragraphs became lines, tags were dropped, {{ mentions }} became bindings';
      for (const m of messages) {
        const raw = text(propertyOf(m, 'content'));
        const plain = htmlToText(raw);
        // Byte for byte only when it was plain text with no mention to rewrite.
        reportPrompt(`step ${id}: "${node.label}" (${node.name})`, `${text(propertyOf(m, 'role')) || 'a'} message`, raw, /\{\{/.test(plain) ? '' : plain, report, why);
      }
      settingsOf(id, node, node, config);
    } else {
      problems.push({ path: where(node), message: `Flowise node "${node.label}" (${node.name || 'unnamed'}) has no Seamscope counterpart: a chain here is built from LLM chains, prompt templates, LLM nodes and the chat input, and runs no node code` });
      continue;
    }
    steps.push({ id, kind: 'model', name: node.label, position: node.position, description: `Imported from Flowise's ${node.name}.`, config });
    stepOf.set(node.id, id);
  }
  if (agentflow) questionRef();
  // The output: the last step that nothing reads (chatflow) or that nothing follows (agentflow).
  const ending = [...order].reverse().find((n) => stepOf.has(n.id) && !byNode.from(n.id).some((e) => stepOf.has(e.target)));
  if (!ending && ownOutputs === 0 && problems.length === 0) problems.push({ path: '$.nodes', message: 'the flow has no LLM chain or LLM node whose result it returns' });
  if (problems.length > 0) return { ok: false, problems };
  const last = steps[steps.length - 1] as { position: { x: number; y: number } };
  if (ending) steps.push({ id: identifierFrom('output', 'output', taken), kind: 'output', name: 'Output', position: { x: last.position.x + 700, y: last.position.y }, config: { bindings: { value: `steps.${stepOf.get(ending.id)}` } } });
  placeAtCanvasDensity(steps, 0.4);

  const base = (fileName ?? '').replace(/^.*[\\/]/, '').replace(/\.json$/i, '');
  const name = text(flow.name) || base.replace(/[-_]+/g, ' ').trim() || 'Imported Flowise flow';
  return {
    ok: true,
    report,
    chain: {
      format: 'seamscope.chain', version: 1, id: `flowise-${identifierFrom(base || name, 'flow', new Set()).replace(/_/g, '-')}`, name: name.slice(0, 200),
      description: [text(flow.description), `Imported from Flowise${base ? ` (${base}.json)` : ''}.`].filter(Boolean).join('\n\n').slice(0, 8000),
      inputs, steps, meta: { importedFrom: { tool: 'flowise', kind: agentflow ? 'agentflow' : 'chatflow' } },
    },
  };
}

/** Flowise flow exports, read as chains. */
export const flowiseFormat = defineChainFormat<Record<string, unknown>>({
  id: 'flowise',
  title: 'Flowise',
  extensions: ['.json'],
  sniff: (file) => {
    const value = foreignJson(file, /"edges"\s*:/);
    return value && isFlowiseFlow(value) ? { value } : null;
  },
  toChain: (flow, ctx) => chainFromFlowise(flow, ctx.fileName),
});
