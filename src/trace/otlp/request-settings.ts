import { isRecord, prototypeFreeRecord } from '../../files/json-value.ts';
import { isSet } from '../recorded-request.ts';
import { parseJsonValue } from './guard.ts';
import { indexed } from './indexed.ts';

/**
 * The request settings a trace recorded for one LLM call besides its messages: sampling
 * (top_p, seed, stop, penalties…), the output format, the tools offered and the tool choice,
 * streaming. A rerun sends again what it can of these and names the rest (src/trace/recorded-request.ts),
 * so it must know what the call set, whichever convention recorded it. Keys are the request
 * body's own (`top_p`, `response_format`, `tool_choice`) where the trace kept the body
 * (OpenInference `llm.invocation_parameters` and `input.value`, Langfuse `modelParameters`), and
 * the OpenAI chat-completions name where a convention recorded one setting per attribute.
 * Values are as recorded; unset values (null, "", OpenLit's -1 cap) are left out.
 */

/** One setting per attribute: the attribute and the request body key it records. */
const ATTRIBUTE_KEYS: readonly [string, string][] = [
  ['gen_ai.request.top_p', 'top_p'], ['llm.top_p', 'top_p'], ['ai.settings.topP', 'top_p'],
  ['gen_ai.request.top_k', 'top_k'], ['llm.top_k', 'top_k'], ['ai.settings.topK', 'top_k'],
  ['gen_ai.request.seed', 'seed'], ['gen_ai.openai.request.seed', 'seed'], ['ai.settings.seed', 'seed'],
  ['gen_ai.request.stop_sequences', 'stop'], ['llm.chat.stop_sequences', 'stop'], ['ai.settings.stopSequences', 'stop'],
  ['gen_ai.request.frequency_penalty', 'frequency_penalty'], ['llm.frequency_penalty', 'frequency_penalty'], ['ai.settings.frequencyPenalty', 'frequency_penalty'],
  ['gen_ai.request.presence_penalty', 'presence_penalty'], ['llm.presence_penalty', 'presence_penalty'], ['ai.settings.presencePenalty', 'presence_penalty'],
  ['llm.request.repetition_penalty', 'repetition_penalty'],
  ['gen_ai.request.choice.count', 'n'],
  ['gen_ai.openai.request.service_tier', 'service_tier'], ['gen_ai.request.service_tier', 'service_tier'],
  ['gen_ai.request.user', 'user'], ['llm.user', 'user'],
  ['gen_ai.request.reasoning_effort', 'reasoning_effort'], ['gen_ai.openai.request.reasoning_effort', 'reasoning_effort'],
];

/** Client settings that can carry a credential (http_options holds headers): never kept, whatever the recorder wrote. */
const CREDENTIALS = new Set(['api_key', 'apiKey', 'authorization', 'headers', 'extra_headers', 'default_headers', 'http_options', 'httpOptions']);

const parsed = (value: unknown): unknown => (typeof value === 'string' ? parseJsonValue(value) ?? value : value);

/** A request body the trace kept whole: the object `input.value` holds when it has `messages`. */
function recordedBody(attrs: Record<string, unknown>): Record<string, unknown> | undefined {
  const input = typeof attrs['input.value'] === 'string' ? parseJsonValue(attrs['input.value']) : undefined;
  return isRecord(input) && Array.isArray(input.messages) ? input : undefined;
}

/** Tool definitions, each as the trace wrote it (a JSON value or its text). */
function recordedTools(attrs: Record<string, unknown>): unknown[] | undefined {
  const definitions = parsed(attrs['gen_ai.tool.definitions']);
  if (Array.isArray(definitions) && definitions.length) return definitions;
  const openInference = indexed(attrs, 'llm.tools.').map((t) => parsed(t['tool.json_schema'])).filter((t) => t !== undefined);
  if (openInference.length) return openInference;
  // OpenLLMetry: llm.request.functions.N.{name,description,parameters}.
  const functions = indexed(attrs, 'llm.request.functions.').filter((f) => typeof f.name === 'string')
    .map((f) => ({ type: 'function', function: { name: f.name, ...(typeof f.description === 'string' ? { description: f.description } : {}), ...(f.parameters !== undefined ? { parameters: parsed(f.parameters) } : {}) } }));
  if (functions.length) return functions;
  // Vercel AI SDK: ai.prompt.tools is a list of JSON texts.
  const vercel = attrs['ai.prompt.tools'];
  if (Array.isArray(vercel) && vercel.length) return vercel.map(parsed);
  return undefined;
}

/** The output format: a body's own `response_format`, a Vercel wrapper's schema, or just the format's name. */
function recordedFormat(attrs: Record<string, unknown>, wrapper: Record<string, unknown>): unknown {
  const schema = parsed(wrapper['ai.schema']);
  if (isRecord(schema)) {
    const name = wrapper['ai.schema.name'];
    return { type: 'json_schema', json_schema: { ...(typeof name === 'string' && name ? { name } : {}), schema } };
  }
  const structured = parsed(attrs['gen_ai.request.structured_output_schema']);
  if (isRecord(structured)) return { type: 'json_schema', json_schema: isRecord(structured.schema) ? structured : { schema: structured } };
  const format = attrs['gen_ai.openai.request.response_format'] ?? attrs['gen_ai.output.type'];
  // `text` is the default: it asks for nothing.
  return typeof format === 'string' && format !== 'text' ? format : undefined;
}

/**
 * The settings recorded for one call, or undefined when the trace recorded none.
 *
 * @example
 * requestSettingsOf({ 'gen_ai.request.top_p': 0.9, 'gen_ai.request.seed': 7 }); // { top_p: 0.9, seed: 7 }
 */
export function requestSettingsOf(attrs: Record<string, unknown>, wrapper: Record<string, unknown> = {}): Record<string, unknown> | undefined {
  const out = prototypeFreeRecord();
  const put = (key: string, value: unknown) => { if (isSet(value) && !(key in out) && !CREDENTIALS.has(key)) out[key] = value; };
  // The body as recorded first: its keys are the request's own.
  const body = recordedBody(attrs);
  for (const [key, value] of Object.entries(body ?? {})) if (key !== 'messages') put(key, value);
  const invocation = parsed(attrs['llm.invocation_parameters']);
  if (isRecord(invocation)) for (const [key, value] of Object.entries(invocation)) put(key, value);
  for (const [attr, key] of ATTRIBUTE_KEYS) put(key, attrs[attr]);
  put('tools', recordedTools(attrs));
  put('tool_choice', parsed(attrs['ai.prompt.toolChoice']));
  put('response_format', recordedFormat(attrs, wrapper));
  return Object.keys(out).length ? out : undefined;
}

/** Langfuse `modelParameters`: the body's keys as the SDK recorded them, JSON texts read. */
export function langfuseSettingsOf(params: Record<string, unknown>): Record<string, unknown> | undefined {
  const out = prototypeFreeRecord();
  for (const [key, value] of Object.entries(params)) {
    const v = parsed(value);
    if (isSet(v) && !CREDENTIALS.has(key)) out[key] = v;
  }
  return Object.keys(out).length ? out : undefined;
}

/** Body keys that carry the conversation itself: the GenAI messages and system instructions carry it in an export. */
const CONVERSATION_KEYS = new Set(['messages', 'system', 'system_instruction', 'instructions', 'input', 'prompt', 'contents']);

/**
 * The settings of one call as Seamscope exports them (`seamscope.request.settings`): the body it
 * sent without the conversation (the GenAI messages carry that), else what an importer kept. Read
 * back with `keptSettings`, so a rerun of the re-imported call sends them again or names them.
 */
export function settingsForExport(record: { requestBody?: unknown; recordedRequest?: Record<string, unknown> }): Record<string, unknown> | undefined {
  return keptSettings(isRecord(record.requestBody) ? record.requestBody : record.recordedRequest, CONVERSATION_KEYS);
}

/** Recorded settings from an untrusted file, as kept: no credential-bearing keys (nor `leaveOut`), no unset values, no prototype. */
export function keptSettings(value: unknown, leaveOut: ReadonlySet<string> = new Set()): Record<string, unknown> | undefined {
  if (!isRecord(value)) return undefined;
  const out = prototypeFreeRecord();
  for (const [key, v] of Object.entries(value)) if (!leaveOut.has(key) && isSet(v) && !CREDENTIALS.has(key)) out[key] = v;
  return Object.keys(out).length ? out : undefined;
}

/**
 * The GenAI attribute for each body key (the import's table read the other way, its
 * `gen_ai.request.*` names), for one setting per attribute beside the whole settings.
 */
export const GENAI_SETTING_ATTRIBUTES: readonly [string, string][] = ATTRIBUTE_KEYS.filter(([attr]) => attr.startsWith('gen_ai.request.')).map(([attr, key]) => [key, attr]);
