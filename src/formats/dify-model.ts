import { setOwn } from '../chain/own.ts';
import { isRecord } from '../files/json-value.ts';
import { parseStrictJson } from '../files/strict-json.ts';
import { text, type DifyNode } from './dify-graph.ts';
import type { FidelityReport } from './fidelity.ts';
import { carryModelSettings, reportPrompt } from './model-settings.ts';

/**
 * The model steps a Dify node becomes: an llm node's messages and settings, a question
 * classifier (its classes listed in the instruction, answered as an enum the router reads) and
 * a parameter extractor (its parameters as the output schema). Dify writes the classifier's and
 * the extractor's prompts itself; the step states what they ask, and the report says so.
 */

/** Turns a Dify prompt into a step template, binding what it reads; null when it was refused. */
export type Translate = (source: string, bindings: Record<string, string>) => string | null;

const schemaFromText = (source: string): Record<string, unknown> | null => {
  const parsed = parseStrictJson(source);
  if (!parsed.ok || !isRecord(parsed.value)) return null;
  // OpenAI's response_format form wraps the schema: {name, schema, strict}.
  const inner = isRecord(parsed.value.schema) && !parsed.value.type ? parsed.value.schema : parsed.value;
  return isRecord(inner) ? inner : null;
};

/**
 * The node's model and its settings onto `config`: model name, temperature, max tokens, the
 * response format (JSON mode or a JSON schema) and a structured output schema carried; stop
 * sequences, top-p and penalties dropped by name, each with its reason.
 */
export function carryDifyModel(where: string, data: Record<string, unknown>, config: Record<string, unknown>, report: FidelityReport): void {
  const model = isRecord(data.model) ? data.model : {};
  const params = isRecord(model.completion_params) ? model.completion_params : {};
  const { temperature, max_tokens: maxTokens, response_format: format, json_schema: jsonSchema, ...rest } = params;
  let jsonMode = false;
  const structured = data.structured_output_enabled === true && isRecord(data.structured_output) && isRecord(data.structured_output.schema) ? data.structured_output.schema : null;
  if (structured && !config.outputSchema) {
    config.outputSchema = structured;
    report.kept.push({ where, what: 'structured output schema (the step\'s output schema)' });
  }
  if (format === 'json_schema') {
    const schema = schemaFromText(text(jsonSchema));
    if (schema && !config.outputSchema) {
      config.outputSchema = schema;
      report.kept.push({ where, what: 'response format json_schema (the step\'s output schema)' });
    } else if (schema) report.changed.push({ where, what: 'response format json_schema', why: 'the node\'s own output (its classes or parameters) is the step\'s schema' });
    else {
      jsonMode = true;
      report.changed.push({ where, what: 'response format json_schema', why: 'its schema is not a JSON object: the answer is checked to be JSON only' });
    }
  } else if (typeof format === 'string' && /json/i.test(format)) jsonMode = true;
  else if (typeof format === 'string' && format && format !== 'text') report.dropped.push({ where, what: `response format ${format}`, why: 'no step answers in it' });
  else if (format === 'text') report.kept.push({ where, what: 'response format text' });
  carryModelSettings(where, { model: model.name, temperature, maxTokens, jsonMode, unheld: rest }, config, report);
  if (text(model.provider)) report.changed.push({ where, what: `provider ${text(model.provider).slice(0, 80)}`, why: 'the endpoint is the profile the chain runs on' });
  if (isRecord(data.memory)) report.dropped.push({ where, what: 'conversation memory', why: 'a chain run holds no conversation' });
  if (isRecord(data.vision) && data.vision.enabled === true) report.dropped.push({ where, what: 'vision (files sent with the prompt)', why: 'chain inputs are text' });
}

/** An llm node's messages as one system message and one prompt, or why they cannot be. */
export function llmConfig(n: DifyNode, where: string, translate: Translate, report: FidelityReport): Record<string, unknown> | { problem: string } | null {
  const template = n.data.prompt_template;
  // A completion-mode node has one prompt, not messages.
  const messages = isRecord(template) ? [{ role: 'user', text: template.text }] : Array.isArray(template) ? template.filter(isRecord) : [];
  const system = messages.filter((m) => m.role === 'system').map((m) => text(m.text));
  const user = messages.filter((m) => m.role === 'user').map((m) => text(m.text));
  if (messages.some((m) => m.edition_type === 'jinja2')) return { problem: 'has a prompt written in Jinja (edition type jinja2), which this import does not translate yet' };
  if (messages.some((m) => m.role === 'assistant') || user.length > 1 || system.length > 1 || user.length + system.length === 0) {
    return { problem: 'has assistant messages, several user or system messages, or none; a model step sends one system and one user message' };
  }
  const bindings: Record<string, string> = {};
  // A node with only a system message: that message is the whole instruction, sent as the step's prompt.
  const systemOnly = user.length === 0;
  const source = (systemOnly ? system[0] : user[0]) as string;
  const prompt = translate(source, bindings);
  const sys = !systemOnly && system[0] ? translate(system[0], bindings) : '';
  if (prompt === null || sys === null) return null;
  if (systemOnly) report.changed.push({ where, what: 'the system message', why: 'the node has no user message: its system message is the step\'s prompt' });
  reportPrompt(where, systemOnly ? 'system message, as the prompt' : 'user message', source, prompt, report, 'each {{#node.variable#}} became a {binding}');
  if (!systemOnly && system[0]) reportPrompt(where, 'system message', system[0], sys, report, 'each {{#node.variable#}} became a {binding}');
  const config: Record<string, unknown> = { bindings, prompt, ...(sys ? { system: sys } : {}) };
  carryDifyModel(where, n.data, config, report);
  return config;
}

/** The node's instruction (Dify's classifier and extractor take one), after the step's own words. */
function withInstruction(n: DifyNode, where: string, lead: string, translate: Translate, bindings: Record<string, string>, report: FidelityReport): string | null {
  const instruction = text(n.data.instruction) || text(n.data.instructions);
  if (!instruction.trim()) return lead;
  const carried = translate(instruction, bindings);
  if (carried === null) return null;
  reportPrompt(where, 'instruction', instruction, carried, report, 'each {{#node.variable#}} became a {binding}');
  return `${lead}\n\n${carried}`;
}

export interface Classifier { config: Record<string, unknown>; classes: { handle: string; name: string }[] }

/** A question classifier: a model step answering one of its classes as `category`. */
export function classifierConfig(n: DifyNode, where: string, queryRef: string, translate: Translate, report: FidelityReport): Classifier | { problem: string } | null {
  const rows = Array.isArray(n.data.classes) ? n.data.classes.filter(isRecord) : [];
  const classes = rows.map((c, i) => ({ handle: text(c.id), name: text(c.name).trim() || `class ${i + 1}` }));
  if (classes.length === 0) return { problem: 'has no classes' };
  const names = classes.map((c) => c.name);
  const twice = names.find((name, i) => names.indexOf(name) !== i);
  if (twice) return { problem: `names the class "${twice}" twice; the router would not know which branch it means` };
  rows.forEach((c, i) => {
    if (!text(c.name).trim()) report.changed.push({ where, what: `class ${i + 1}`, why: `it has no name: the step answers it as "class ${i + 1}"` });
  });
  const bindings: Record<string, string> = { query: queryRef };
  const lead = `Classify the text into exactly one of these categories:\n${names.map((c) => `- ${c}`).join('\n')}`;
  const system = withInstruction(n, where, lead, translate, bindings, report);
  if (system === null) return null;
  const config: Record<string, unknown> = {
    bindings, system, prompt: '{query}',
    outputSchema: { type: 'object', properties: { category: { type: 'string', enum: names } }, required: ['category'], additionalProperties: false },
  };
  report.changed.push({ where, what: 'the classifier\'s prompt', why: `Dify writes it itself; the step lists the ${names.length} classes, the node's instruction after them, and answers {"category": one of them}` });
  carryDifyModel(where, n.data, config, report);
  return { config, classes };
}

const PARAMETER_TYPES: Record<string, Record<string, unknown>> = {
  string: { type: 'string' }, number: { type: 'number' }, bool: { type: 'boolean' }, boolean: { type: 'boolean' },
  'array[string]': { type: 'array', items: { type: 'string' } }, 'array[number]': { type: 'array', items: { type: 'number' } },
  'array[bool]': { type: 'array', items: { type: 'boolean' } }, 'array[boolean]': { type: 'array', items: { type: 'boolean' } },
  'array[object]': { type: 'array', items: { type: 'object' } },
};

/** A parameter extractor: a model step whose output schema is the node's parameters. */
export function extractorConfig(n: DifyNode, where: string, queryRef: string, translate: Translate, report: FidelityReport): Record<string, unknown> | { problem: string } | null {
  const parameters = Array.isArray(n.data.parameters) ? n.data.parameters.filter(isRecord) : [];
  if (parameters.length === 0) return { problem: 'extracts no parameters' };
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const p of parameters) {
    const name = text(p.name);
    const type = text(p.type);
    const options = Array.isArray(p.options) ? p.options.map(text).filter(Boolean) : [];
    const schema = type === 'select' ? { type: 'string', ...(options.length ? { enum: options } : {}) } : PARAMETER_TYPES[type];
    if (!name || !schema) return { problem: `its parameter ${JSON.stringify(name || '(unnamed)')} has the type ${JSON.stringify(type)}, which it cannot name in a schema` };
    if (Object.hasOwn(properties, name)) return { problem: `names the parameter "${name}" twice` };
    setOwn(properties, name, { ...schema, ...(text(p.description) ? { description: text(p.description) } : {}) });
    if (p.required === true) required.push(name);
  }
  const bindings: Record<string, string> = { query: queryRef };
  const lead = 'Extract these parameters from the text. Leave out a parameter the text does not state.';
  const system = withInstruction(n, where, lead, translate, bindings, report);
  if (system === null) return null;
  const config: Record<string, unknown> = { bindings, system, prompt: '{query}', outputSchema: { type: 'object', properties, required, additionalProperties: false } };
  report.kept.push({ where, what: `${parameters.length} parameters as the output schema (types, descriptions, required, options as an enum)` });
  report.changed.push({ where, what: 'the extractor\'s prompt', why: 'Dify writes it itself; the step asks for the parameters, the node\'s instruction after that, and checks the answer against their schema' });
  if (text(n.data.reasoning_mode)) report.changed.push({ where, what: `reasoning mode ${text(n.data.reasoning_mode)}`, why: 'the step asks for JSON against the schema (as strict structured output where the endpoint has it)' });
  carryDifyModel(where, n.data, config, report);
  return config;
}
