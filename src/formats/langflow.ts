import type { ChainProblem } from '../chain/parse.ts';
import { setOwn } from '../chain/own.ts';
import { isRecord, propertyOf } from '../files/json-value.ts';
import { defineChainFormat } from './format.ts';
import { createFidelityReport, type FidelityReport } from './fidelity.ts';
import { carryModelSettings, numberOf, reportPrompt } from './model-settings.ts';
import { bind, foreignJson, edgesByNode, identifierFrom, orderByEdges, placeAtCanvasDensity } from './flow-common.ts';

/**
 * Langflow flows (the JSON Langflow's "Export" writes; its starter projects are such files) as
 * Seamscope chains, so a pipeline built there can be replayed boundary by boundary here. The
 * components that have a Seamscope counterpart are mapped; a flow with any other component in
 * it is refused with each such component named, never imported with a silent gap.
 *
 * - Chat Input / Text Input → a chain input (its text, when the flow has one, the example);
 * - a language model component (OpenAI, Anthropic, … any `*Model` with `input_value`) → a
 *   model step: its system message and input, each either a Prompt component's template (its
 *   `{variables}` become the step's bindings) or the text of whatever feeds it;
 * - Structured Output → a model step whose output schema is the component's field table, on
 *   the model component wired to its `llm` handle (that component is a setting, not a step);
 * - Parser / Parse Data → a template step (`{field}` reads the field of the data it parses);
 * - a Prompt component feeding a model is folded into that model step (the author's words, not
 *   data); one read by anything else (an output, a parser) is also a template step;
 * - Chat Output / Text Output → the output step;
 * - notes → the chain's description.
 * Component code embedded in the flow is never read or run; API keys in it are not copied. The
 * model settings a step holds are carried over and the rest reported (model-settings.ts); every
 * import's fidelity report says what was kept, changed and dropped.
 */

interface FlowNode {
  id: string;
  type: string;
  name: string;
  template: Record<string, unknown>;
  position: { x: number; y: number };
  index: number;
}

interface FlowEdge {
  source: string;
  target: string;
  field: string;
}

export type LangflowImport = { ok: true; chain: Record<string, unknown>; report: FidelityReport } | { ok: false; problems: ChainProblem[] };

const INPUT_TYPES = new Set(['ChatInput', 'TextInput']);
/** Message History and the older memories: the conversation so far, which a chain is given as an input. */
const MEMORY_TYPES = new Set(['Memory', 'MemoryComponent', 'MessageHistory', 'ConversationBufferMemory', 'ConversationBufferWindowMemory']);
const OUTPUT_TYPES = new Set(['ChatOutput', 'TextOutput']);
const PROMPT_TYPES = new Set(['Prompt', 'PromptTemplate', 'ChatPromptTemplate']);
const STRUCTURED_TYPES = new Set(['StructuredOutput', 'StructuredOutputComponent']);
const PARSER_TYPES = new Set(['parser', 'ParseData', 'ParserComponent', 'ParseDataFrame']);
/** The older export's chain (Langflow before 1.0, LangChain's classes): a prompt, a model and a memory wired into it. */
const CHAIN_TYPES = new Set(['LLMChain']);
/** The older export's model classes: settings of the chain they are wired into. */
const LEGACY_MODEL_TYPES = new Set(['ChatOpenAI', 'OpenAI', 'AzureChatOpenAI', 'AzureOpenAI', 'ChatAnthropic', 'Anthropic', 'ChatOllama', 'Ollama', 'ChatVertexAI', 'VertexAI']);
const MAX_NODES = 2_000;
const MODEL_TEXT_FIELDS = new Set(['system_message', 'system_prompt', 'input_value']);
/** Model component settings a model step holds nothing like (each is reported as dropped when set). */
const UNHELD = ['seed', 'top_p', 'top_k', 'stop', 'stop_sequences', 'presence_penalty', 'frequency_penalty', 'model_kwargs', 'openai_api_base', 'base_url', 'max_retries', 'timeout',
  // The older export's LangChain fields.
  'prefill', 'n', 'best_of', 'logit_bias', 'request_timeout', 'openai_organization', 'openai_proxy', 'tiktoken_model_name', 'batch_size'];

/** Whether a parsed JSON value is a Langflow flow export: `{data: {nodes: [...], edges: [...]}}` with typed component nodes. */
export function isLangflowFlow(value: unknown): boolean {
  if (!isRecord(value) || !isRecord(value.data)) return false;
  const { nodes, edges } = value.data;
  if (!Array.isArray(nodes) || !Array.isArray(edges)) return false;
  return nodes.some((n) => isRecord(n) && isRecord(n.data) && typeof n.data.type === 'string' && isRecord(n.data.node));
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
/** A field's value in a component's template: `template[field].value`. */
const fieldValue = (node: FlowNode, field: string): unknown => propertyOf(propertyOf(node.template, field), 'value');
const isModel = (node: FlowNode) => /Model(Component)?$/.test(node.type) && !/Embedding/.test(node.type);
const isNote = (node: FlowNode) => node.type === 'note' || node.type === '' || node.type === 'noteNode';

/** Langflow's prompt templates are f-string-like: `{{` and `}}` are literal braces. */
const literalBraces = (template: string) => template.replace(/\{\{/g, '{').replace(/\}\}/g, '}');

function readNodes(raw: unknown[], problems: ChainProblem[]): FlowNode[] {
  const nodes: FlowNode[] = [];
  raw.forEach((n, index) => {
    if (!isRecord(n) || typeof n.id !== 'string') return void problems.push({ path: `$.data.nodes[${index}]`, message: 'a node without an id' });
    const data = isRecord(n.data) ? n.data : {};
    const node = isRecord(data.node) ? data.node : {};
    const position = isRecord(n.position) && Number.isFinite(n.position.x) && Number.isFinite(n.position.y) ? { x: Number(n.position.x), y: Number(n.position.y) } : { x: index * 280, y: 0 };
    const type = n.type === 'noteNode' ? 'note' : text(data.type);
    nodes.push({ id: n.id, type, name: text(node.display_name) || type || n.id, template: isRecord(node.template) ? node.template : {}, position, index });
  });
  return nodes;
}

function readEdges(raw: unknown[]): FlowEdge[] {
  const edges: FlowEdge[] = [];
  for (const e of raw) {
    if (!isRecord(e) || typeof e.source !== 'string' || typeof e.target !== 'string') continue;
    const handle = isRecord(e.data) && isRecord(e.data.targetHandle) ? e.data.targetHandle : null;
    // The older export names the field in a string handle: "BaseLanguageModel|llm|LLMChain-5879c".
    const legacy = typeof e.targetHandle === 'string' ? /^[^|{]*\|([^|]+)\|/.exec(e.targetHandle)?.[1] : undefined;
    edges.push({ source: e.source, target: e.target, field: text(handle?.fieldName) || (legacy ?? '') });
  }
  return edges;
}

/** A JSON Schema for a Structured Output component's field table (name, type, description, multiple). */
function schemaOfTable(table: unknown): Record<string, unknown> | null {
  if (!Array.isArray(table) || table.length === 0) return null;
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const row of table) {
    if (!isRecord(row) || typeof row.name !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(row.name)) return null;
    const kind = text(row.type).toLowerCase();
    const type = kind === 'int' || kind === 'integer' ? 'integer' : kind === 'float' || kind === 'number' ? 'number' : kind === 'bool' || kind === 'boolean' ? 'boolean' : kind === 'dict' ? 'object' : 'string';
    const item: Record<string, unknown> = { type, ...(text(row.description) ? { description: text(row.description) } : {}) };
    const multiple = row.multiple === true || /^true$/i.test(text(row.multiple));
    setOwn(properties, row.name, multiple ? { type: 'array', items: item } : item);
    required.push(row.name);
  }
  return { type: 'object', properties, required, additionalProperties: false };
}

/**
 * Converts a parsed Langflow flow into a chain object (still to be checked by parseChain, as any
 * chain file is). Problems name the node by its place in the file.
 */
export function chainFromLangflow(flow: Record<string, unknown>, fileName?: string): LangflowImport {
  const data = flow.data as { nodes: unknown[]; edges: unknown[] };
  const report = createFidelityReport('Langflow');
  const problems: ChainProblem[] = [];
  if (data.nodes.length > MAX_NODES) return { ok: false, problems: [{ path: '$.data.nodes', message: `${data.nodes.length} nodes, more than ${MAX_NODES}` }] };
  const nodes = readNodes(data.nodes, problems);
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const edges = readEdges(data.edges).filter((e) => byId.has(e.source) && byId.has(e.target));
  const byNode = edgesByNode(edges);
  const into = (target: string, field: string) => byNode.to(target).find((e) => e.field === field);
  const where = (node: FlowNode) => `$.data.nodes[${node.index}]`;

  // Model components wired into a Structured Output's `llm` handle are its settings, not steps.
  const settingsOnly = new Set(edges.filter((e) => e.field === 'llm' && (STRUCTURED_TYPES.has(byId.get(e.target)?.type ?? '') || CHAIN_TYPES.has(byId.get(e.target)?.type ?? ''))).map((e) => e.source));
  // A Prompt read only as a model's system message or input is folded into that model step.
  // A Prompt that feeds a model is its author's instruction: folded into each model step it
  // feeds (only the values wired into its variables are data). It is a step of its own only
  // where something else reads it too.
  const intoModel = (e: FlowEdge) => {
    const target = byId.get(e.target);
    return target !== undefined && (((isModel(target) || STRUCTURED_TYPES.has(target.type)) && MODEL_TEXT_FIELDS.has(e.field)) || (CHAIN_TYPES.has(target.type) && e.field === 'prompt'));
  };
  const foldedPrompt = (node: FlowNode) => PROMPT_TYPES.has(node.type) && byNode.from(node.id).length > 0 && byNode.from(node.id).every(intoModel);

  const taken = new Set<string>();
  const inputs: Record<string, unknown>[] = [];
  const steps: Record<string, unknown>[] = [];
  const refOf = new Map<string, string>();
  const notes: string[] = [];
  for (const node of nodes) {
    if (isNote(node)) {
      const note = text(fieldValue(node, 'text')) || text(propertyOf(propertyOf(propertyOf(data.nodes[node.index], 'data'), 'node'), 'description'));
      if (note.trim()) notes.push(note.trim());
    } else if (INPUT_TYPES.has(node.type)) {
      const name = identifierFrom(node.name, 'input', taken);
      refOf.set(node.id, `inputs.${name}`);
      const example = text(fieldValue(node, 'input_value'));
      inputs.push({ name, description: `${node.name} in the Langflow flow`, schema: { type: 'string' }, trust: 'untrusted', required: true, ...(example ? { example } : {}) });
    } else if (MEMORY_TYPES.has(node.type)) {
      // A chain keeps no store between runs: the conversation comes in with each run.
      const name = identifierFrom('history', 'history', taken);
      refOf.set(node.id, `inputs.${name}`);
      // Not required: the first turn of a conversation has none.
      inputs.push({ name, description: `The conversation so far (Langflow's "${node.name}" reads it from its message store)`, schema: { type: 'string' }, trust: 'untrusted', required: false, example: '' });
      report.changed.push({ where: `"${node.name}" (${node.type})`, what: 'the conversation memory', why: `a chain keeps no message store: the conversation is the chain input ${name}, given with each run` });
    }
  }

  /** The text a field of `node` carries: the template of a folded Prompt (its variables bound), a binding to what feeds it, or its own value. */
  const fieldText = (node: FlowNode, stepId: string, field: string, bindings: Record<string, string>, bindingName: string): string => {
    const edge = into(node.id, field);
    const source = edge ? byId.get(edge.source) : undefined;
    const role = field === 'input_value' ? 'user message' : 'system message';
    if (source && PROMPT_TYPES.has(source.type)) {
      const raw = text(fieldValue(source, 'template'));
      const carried = promptTemplate(source, bindings);
      reportPrompt(`step ${stepId}: "${source.name}" (Prompt)`, `template as the ${role}`, raw, carried, report,
        literalBraces(raw) !== raw ? 'Langflow\'s {{ }} escapes are written as single braces (the chain\'s templates have no escape; the text sent is the same)' : 'a variable was renamed to stay unique in the step, or its typed-in value was written in');
      return carried;
    }
    if (source) {
      const ref = refOf.get(source.id);
      if (!ref) return '';
      const name = bind(bindings, bindingName, ref);
      return `{${name}}`;
    }
    const own = text(fieldValue(node, field));
    reportPrompt(`step ${stepId}: "${node.name}" (${node.type})`, role, own, literalBraces(own), report, 'Langflow\'s {{ }} escapes are written as single braces (the text sent is the same)');
    return literalBraces(own);
  };
  /** A Prompt component's template with its `{variables}` bound to what feeds each (or its own text, inlined). */
  const promptTemplate = (prompt: FlowNode, bindings: Record<string, string>, unwired?: (variable: string) => string | undefined): string => {
    const template = text(fieldValue(prompt, 'template'));
    return literalBraces(template.replace(/(?<!\{)\{([A-Za-z_][A-Za-z0-9_]*)\}(?!\})/g, (whole, variable: string) => {
      const edge = into(prompt.id, variable);
      const ref = (edge ? refOf.get(edge.source) : undefined) ?? (text(fieldValue(prompt, variable)) ? undefined : unwired?.(variable));
      if (ref) {
        const name = bind(bindings, variable, ref);
        return name === variable ? whole : `{${name}}`;
      }
      // Typed-in text is inlined. A `{name}` inside it reads as a placeholder (the chain's
      // templates have no escape), and the chain check then names it.
      const own = text(fieldValue(prompt, variable));
      return own || whole;
    }));
  };

  /**
   * The older export's LLMChain as a model step: its PromptTemplate is the author's instruction
   * (the user message, folded in), the model wired to `llm` its settings, the memory wired to
   * `memory` the conversation (the variable named by its memory_key); every other variable is
   * what the chat sends in, a chain input. Null (with the problem said) when it cannot be one.
   */
  const legacyChainStep = (node: FlowNode, id: string, bindings: Record<string, string>): Record<string, unknown> | null => {
    const prompt = byId.get(into(node.id, 'prompt')?.source ?? '');
    const model = byId.get(into(node.id, 'llm')?.source ?? '');
    const memory = byId.get(into(node.id, 'memory')?.source ?? '');
    if (!prompt || !PROMPT_TYPES.has(prompt.type)) return void problems.push({ path: where(node), message: `"${node.name}" (${node.type}) has no PromptTemplate wired into its prompt` }), null;
    if (!model || !LEGACY_MODEL_TYPES.has(model.type)) return void problems.push({ path: where(node), message: `"${node.name}" (${node.type}) has ${model ? `"${model.name}" (${model.type}), which is not a model here,` : 'no model'} wired into its llm` }), null;
    if (prompt.type === 'ChatPromptTemplate') return void problems.push({ path: where(node), message: `"${node.name}" (${node.type}): its ChatPromptTemplate holds message templates of their own; only a PromptTemplate is folded into a step` }), null;
    const memoryKey = memory ? text(fieldValue(memory, 'memory_key')) || 'history' : '';
    const memoryRef = memory ? refOf.get(memory.id) : undefined;
    const chatInputs: string[] = [];
    const template = promptTemplate(prompt, bindings, (variable) => {
      if (memory && variable === memoryKey) return memoryRef;
      // What the chat sends in fills each remaining variable: a chain input of that name.
      const key = `chat\u0000${variable}`;
      const known = refOf.get(key);
      if (known) return known;
      const name = identifierFrom(variable, 'input', taken);
      inputs.push({ name, description: `The chat message, as "${node.name}" receives it in {${variable}}`, schema: { type: 'string' }, trust: 'untrusted', required: true });
      refOf.set(key, `inputs.${name}`);
      chatInputs.push(name);
      return `inputs.${name}`;
    });
    const raw = text(fieldValue(prompt, 'template'));
    reportPrompt(`step ${id}: "${prompt.name}" (${prompt.type})`, 'template as the user message', raw, template, report,
      literalBraces(raw) !== raw ? 'Langflow\'s {{ }} escapes are written as single braces (the text sent is the same)' : 'a variable was renamed to stay unique in the step, or its typed-in value was written in');
    if (chatInputs.length) report.changed.push({ where: `step ${id}: "${node.name}" (${node.type})`, what: 'the chat message', why: `the chain input${chatInputs.length > 1 ? 's' : ''} ${chatInputs.join(', ')}, framed as data in the prompt` });
    if (memory && !template.includes(`{${memoryKey}}`) && !Object.values(bindings).includes(memoryRef ?? '')) {
      report.dropped.push({ where: `"${memory.name}" (${memory.type})`, what: `the memory (key ${memoryKey})`, why: 'the prompt has no variable of that name, so LangChain would not show the conversation either' });
    }
    if (memory) {
      const k = numberOf(fieldValue(memory, 'k'));
      if (k !== null) report.changed.push({ where: `"${memory.name}" (${memory.type})`, what: `a window of the last ${k} turns`, why: 'the chain input holds the conversation its caller gives; keep it to those turns' });
      if (fieldValue(memory, 'return_messages') === true) report.changed.push({ where: `"${memory.name}" (${memory.type})`, what: 'return messages', why: 'the conversation is one text in the prompt, not separate chat turns' });
    }
    const outputKey = text(fieldValue(node, 'output_key'));
    if (outputKey && outputKey !== 'text') report.changed.push({ where: `step ${id}: "${node.name}" (${node.type})`, what: `output key ${outputKey}`, why: 'the step\'s answer is its output; no key wraps it' });
    const config: Record<string, unknown> = { bindings, system: '', prompt: template };
    const label = `step ${id}: "${node.name}" (${node.type}) with its model "${model.name}" (${model.type})`;
    const unheld = Object.fromEntries(UNHELD.map((key) => [key, fieldValue(model, key)]));
    carryModelSettings(label, { model: text(fieldValue(model, 'model_name')) || fieldValue(model, 'model'), temperature: fieldValue(model, 'temperature'), maxTokens: fieldValue(model, 'max_tokens'), stream: fieldValue(model, 'streaming') ?? fieldValue(model, 'stream'), unheld }, config, report);
    if (/^(OpenAI|AzureOpenAI|Anthropic|Ollama|VertexAI)$/.test(model.type)) report.changed.push({ where: label, what: 'a completion model', why: 'sent as one user message to a chat endpoint (the profile you run it on)' });
    return config;
  };

  // Steps in an order where what a step reads is made first; a cycle is a problem.
  const order = orderByEdges(nodes, (id) => byNode.to(id).map((e) => byId.get(e.source) as FlowNode), (node) => {
    problems.push({ path: where(node), message: `"${node.name}" is in a loop of edges; a chain runs each step once` });
  });

  const left: string[] = [];
  let hasOutput = false;
  for (const node of order) {
    if (isNote(node) || INPUT_TYPES.has(node.type) || MEMORY_TYPES.has(node.type) || settingsOnly.has(node.id) || foldedPrompt(node)) continue;
    // A component wired to nothing is not part of the flow (starter projects keep spares about).
    if (byNode.from(node.id).length === 0 && byNode.to(node.id).length === 0) {
      left.push(`"${node.name}" (${node.type || 'untyped'})`);
      report.dropped.push({ where: `"${node.name}" (${node.type || 'untyped'})`, what: 'the component', why: 'wired to nothing in the flow; named in the description' });
      continue;
    }
    const id = identifierFrom(node.name, 'step', taken);
    const base = { id, name: node.name, position: node.position };
    const bindings: Record<string, string> = {};
    if (CHAIN_TYPES.has(node.type)) {
      const made = legacyChainStep(node, id, bindings);
      if (!made) continue;
      steps.push({ ...base, kind: 'model', description: `Imported from Langflow's ${node.type} (the older export).`, config: made });
    } else if (isModel(node) || STRUCTURED_TYPES.has(node.type)) {
      const structured = STRUCTURED_TYPES.has(node.type);
      const settings = structured ? byId.get(into(node.id, 'llm')?.source ?? '') : node;
      const system = fieldText(node, id, structured ? 'system_prompt' : 'system_message', bindings, 'system');
      const prompt = fieldText(node, id, 'input_value', bindings, 'input');
      if (!prompt.trim() && !system.trim()) problems.push({ path: where(node), message: `"${node.name}" has neither an input nor a system message` });
      const outputSchema = structured ? schemaOfTable(fieldValue(node, 'output_schema')) : null;
      const multiple = structured && outputSchema !== null && (fieldValue(node, 'multiple') === true || /^true$/i.test(text(fieldValue(node, 'multiple'))));
      if (structured && !outputSchema) problems.push({ path: where(node), message: `"${node.name}": its output schema table is empty or names a field that is not an identifier` });
      const source = settings ?? node;
      const config: Record<string, unknown> = {
        bindings, system, prompt: prompt.trim() ? prompt : 'Go on.', outputSchema,
        ...(structured && /^[A-Za-z0-9_-]{1,64}$/.test(text(fieldValue(node, 'schema_name'))) ? { schemaName: text(fieldValue(node, 'schema_name')) } : {}),
      };
      const label = `step ${id}: "${node.name}" (${node.type})${source === node ? '' : ` with its model "${source.name}" (${source.type})`}`;
      if (!prompt.trim()) report.changed.push({ where: label, what: 'user message', why: 'the component has none; a model step needs one, so it says "Go on."' });
      const unheld = Object.fromEntries(UNHELD.map((key) => [key, fieldValue(source, key)]));
      carryModelSettings(label, { model: text(fieldValue(source, 'model_name')) || fieldValue(source, 'model'), temperature: fieldValue(source, 'temperature'), maxTokens: fieldValue(source, 'max_tokens'), stream: fieldValue(source, 'stream'), jsonMode: fieldValue(source, 'json_mode'), unheld }, config, report);
      if (structured && outputSchema) report.kept.push({ where: label, what: `output schema: ${Object.keys(outputSchema.properties as object).join(', ')}` });
      // What reads it (a parser's {field}) reads one object, as Langflow hands on the one it gets back.
      if (multiple) report.changed.push({ where: label, what: 'generate multiple', why: 'Langflow asks for a list of such objects and hands on the object when one comes back; the step answers one object' });
      steps.push({
        ...base, kind: 'model',
        description: `Imported from Langflow's ${source.type}${structured ? ', a Structured Output component' : ''}.`,
        config,
      });
    } else if (PARSER_TYPES.has(node.type) || PROMPT_TYPES.has(node.type)) {
      let template: string;
      if (PROMPT_TYPES.has(node.type)) template = promptTemplate(node, bindings);
      else {
        const edge = into(node.id, 'input_data') ?? into(node.id, 'data') ?? byNode.to(node.id)[0];
        const ref = edge ? refOf.get(edge.source) : undefined;
        if (ref) setOwn(bindings, 'data', ref);
        const source = edge ? byId.get(edge.source) : undefined;
        const freeText = source !== undefined && (isModel(source) || INPUT_TYPES.has(source.type) || MEMORY_TYPES.has(source.type));
        // A parser's {field} reads that field of the data; {text} of a message is the message itself.
        template = literalBraces((text(fieldValue(node, 'pattern')) || text(fieldValue(node, 'template')) || '{text}').replace(/(?<!\{)\{([A-Za-z_][A-Za-z0-9_]*)\}(?!\})/g, (_w, field: string) => (freeText && field === 'text' ? '{data}' : `{data.${field}}`)));
      }
      steps.push({ ...base, kind: 'template', description: `Imported from Langflow's ${node.type} component.`, config: { bindings, text: template } });
    } else if (OUTPUT_TYPES.has(node.type)) {
      const edge = into(node.id, 'input_value');
      const ref = edge ? refOf.get(edge.source) : undefined;
      // Wired to a component that was refused: that problem is already said.
      if (!edge) problems.push({ path: where(node), message: `"${node.name}" has nothing wired into its input` });
      hasOutput = true;
      steps.push({ ...base, kind: 'output', config: { bindings: ref ? { value: ref } : {} } });
    } else {
      problems.push({ path: where(node), message: `Langflow component "${node.name}" (${node.type || 'untyped'}) has no Seamscope counterpart: a chain here is built from model steps, prompts, parsers, inputs and outputs, and runs no component code` });
      continue;
    }
    refOf.set(node.id, `steps.${id}`);
  }
  // The older export has no output component: the chat shows the answer of each chain nothing else reads.
  let answers = 0;
  for (const node of nodes) {
    if (hasOutput || !CHAIN_TYPES.has(node.type) || !refOf.has(node.id) || byNode.from(node.id).length > 0) continue;
    answers++;
    const id = identifierFrom(`${node.name} answer`, 'output', taken);
    steps.push({ id, kind: 'output', name: `${node.name}: answer`, position: { x: node.position.x + 500, y: node.position.y }, config: { bindings: { value: refOf.get(node.id) } } });
    report.changed.push({ where: `"${node.name}" (${node.type})`, what: 'the chat\'s answer', why: `the output step ${id} (the older export has no output component)` });
  }
  if (!hasOutput && answers === 0) problems.push({ path: '$.data.nodes', message: 'the flow has no Chat Output or Text Output component: a chain needs the output it returns' });
  if (problems.length > 0) return { ok: false, problems };

  // Langflow's cards are about 320 px wide and sit some 700 px apart; Seamscope's are half as wide.
  placeAtCanvasDensity(steps, 0.4);

  const name = text(flow.name) || (fileName ?? '').replace(/^.*[\\/]/, '').replace(/\.json$/i, '') || 'Imported Langflow flow';
  const description = [text(flow.description), `Imported from Langflow${fileName ? ` (${fileName.replace(/^.*[\\/]/, '')})` : ''}.`, ...notes.map((n) => `Note in the flow: ${n}`), ...(left.length ? [`Left out, wired to nothing: ${left.join(', ')}.`] : [])].filter(Boolean).join('\n\n').slice(0, 8000);
  const id = `langflow-${typeof flow.id === 'string' && /^[A-Za-z0-9-]{1,80}$/.test(flow.id) ? flow.id : identifierFrom(name, 'flow', new Set())}`;
  return {
    ok: true,
    report,
    chain: { format: 'seamscope.chain', version: 1, id, name: name.slice(0, 200), description, inputs, steps, meta: { importedFrom: { tool: 'langflow', ...(text(flow.last_tested_version) ? { version: text(flow.last_tested_version) } : {}) } } },
  };
}

/** Langflow flow exports, read as chains. */
export const langflowFormat = defineChainFormat<Record<string, unknown>>({
  id: 'langflow',
  title: 'Langflow',
  extensions: ['.json'],
  sniff: (file) => {
    const value = foreignJson(file, /"edges"\s*:/);
    return value && isLangflowFlow(value) ? { value } : null;
  },
  toChain: (flow, ctx) => chainFromLangflow(flow, ctx.fileName),
});
