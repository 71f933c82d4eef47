import { isRecord } from '../files/json-value.ts';
import type { OutputContract, Sampling, ToolChoice, ToolSpec } from '../providers/types.ts';
import type { AttemptRecord, RerunFidelity } from './events.ts';
import { parseJsonValue } from './otlp/guard.ts';

/**
 * What a rerun of a recorded call sends besides its messages, worked out from what the trace
 * recorded for it, and what of the recorded request it cannot send. A rerun that quietly drops
 * the recorded output format, tools or sampling settings answers differently for reasons that
 * are not the person's edit; so each recorded setting is either sent again or named.
 *
 * Reads the exact body when the call has one (a rerun of a rerun: Seamscope's own call), else
 * the settings an importer kept (`recordedRequest`, src/trace/otlp/request-settings.ts), in
 * the shapes tools record: OpenAI chat-completions and Responses, Anthropic Messages, the
 * Vercel AI SDK, GenAI tool definitions.
 */
export interface RerunRequest {
  maxTokens: number;
  temperature?: number;
  contract?: OutputContract;
  tools?: ToolSpec[];
  toolChoice?: ToolChoice;
  sampling?: Sampling;
  /** JSON without a schema (a recorded `json_object`). */
  jsonMode?: boolean;
  stream: boolean;
  fidelity: RerunFidelity;
  /** How to find each `sent` setting in the body the provider built (see confirmSent). */
  checks: ReadonlyMap<string, (body: Record<string, unknown>) => boolean>;
}

/** A value that sets something: not null, not an empty string, list or object. */
export function isSet(value: unknown): boolean {
  if (value === null || value === undefined || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (isRecord(value)) return Object.keys(value).length > 0;
  return true;
}

/** What of the chosen endpoint profile shapes the request. */
export interface RerunEndpoint {
  maxOutputTokens: number;
  /** False when the profile turns structured output off: the provider then drops the JSON Schema. */
  structuredOutput: boolean;
}

const CAP_KEYS = ['max_tokens', 'max_completion_tokens', 'max_output_tokens', 'maxTokens', 'maxOutputTokens'];

/** Keys the rerun sends from elsewhere (messages, model, cap, temperature) or that set nothing on the endpoint. */
const HANDLED = new Set([
  'model', 'messages', 'input', 'system', 'instructions', 'system_instruction', 'prompt',
  ...CAP_KEYS, 'temperature',
  // Client settings and response fields some recorders keep beside the request (Langfuse, the Agents SDK).
  'maxRetries', 'max_retries', 'timeout', 'http_options', 'headers', 'extra_headers', 'api_base', 'api_key', 'apiKey',
  'id', 'object', 'created_at', 'status', 'output', 'usage', 'error', 'incomplete_details', 'billing', 'finishReason', 'maxSteps',
]);
const STREAM_KEYS = new Set(['stream', 'stream_options']);
const FORMAT_KEYS = ['response_format', 'responseFormat', 'output_config', 'text', 'output_format'];
const TOOL_CHOICE_KEYS = ['tool_choice', 'toolChoice'];

/**
 * Sampling settings a rerun sends again: the recorded keys (chat-completions, Anthropic and the
 * Vercel AI SDK names), the setting, the type its value must have, and the body keys the
 * providers write it under (confirmSent looks there).
 */
const SAMPLING: readonly { keys: readonly string[]; field: keyof Sampling; kind: 'number' | 'integer' | 'stops'; bodyKeys: readonly string[] }[] = [
  { keys: ['top_p', 'topP'], field: 'topP', kind: 'number', bodyKeys: ['top_p'] },
  { keys: ['top_k', 'topK'], field: 'topK', kind: 'integer', bodyKeys: ['top_k'] },
  { keys: ['seed'], field: 'seed', kind: 'integer', bodyKeys: ['seed'] },
  { keys: ['stop', 'stop_sequences', 'stopSequences'], field: 'stop', kind: 'stops', bodyKeys: ['stop', 'stop_sequences'] },
  { keys: ['frequency_penalty', 'frequencyPenalty'], field: 'frequencyPenalty', kind: 'number', bodyKeys: ['frequency_penalty'] },
  { keys: ['presence_penalty', 'presencePenalty'], field: 'presencePenalty', kind: 'number', bodyKeys: ['presence_penalty'] },
];
const SAMPLING_KEYS = SAMPLING.flatMap((s) => s.keys);

/** A recorded sampling value in the type its setting takes, or undefined (then it is named, not sent). */
function samplingValue(kind: 'number' | 'integer' | 'stops', raw: unknown): number | string[] | undefined {
  // A number some tools record as text ("0.5") is read as the number; blank text is no number.
  const value = typeof raw === 'string' && kind !== 'stops' && raw.trim() !== '' ? Number(raw) : raw;
  if (kind === 'stops') {
    const list = typeof value === 'string' ? [value] : value;
    return Array.isArray(list) && list.length > 0 && list.every((v) => typeof v === 'string') ? list as string[] : undefined;
  }
  if (typeof value !== 'number' || !Number.isFinite(value)) return undefined;
  return kind === 'integer' && !Number.isInteger(value) ? undefined : value;
}

const clip = (text: string, max = 60) => {
  const line = text.replace(/\s+/g, ' ');
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};
const shown = (value: unknown) => clip(typeof value === 'string' ? value : JSON.stringify(value) ?? String(value));
const setting = (key: string, value: unknown) => `${key} ${shown(value)}`;

/** The request as recorded: the exact body, else the importer's settings, else nothing. */
function recordedBody(record: AttemptRecord): Record<string, unknown> | undefined {
  if (isRecord(record.requestBody)) return record.requestBody;
  return record.recordedRequest;
}

/** A JSON Schema output format in any recorded shape, or why it cannot be sent. */
function contractOf(key: string, value: unknown): { contract: OutputContract; label: string } | { jsonMode: true; label: string } | { notSent: string } | null {
  // Responses API: text: { format: {...} }; Anthropic: output_config: { format: {...} }.
  const format = isRecord(value) && isRecord(value.format) && (key === 'text' || key === 'output_config') ? value.format : value;
  // Plain text is the default: it asks for nothing the rerun does not do.
  if (format === 'text' || (isRecord(format) && format.type === 'text')) return null;
  if (isRecord(format) && format.type === 'json_schema') {
    const inner = isRecord(format.json_schema) ? format.json_schema : format;
    const schema = inner.schema;
    if (isRecord(schema)) {
      const name = typeof inner.name === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(inner.name) ? inner.name : 'output';
      const strict = inner.strict === true;
      return { contract: { name, schema, strict }, label: `${key} json_schema "${name}"${strict ? ' (strict)' : ''}` };
    }
    return { notSent: `${key} json_schema (the trace did not record its schema)` };
  }
  if (key === 'text' && !(isRecord(value) && isRecord(value.format))) return { notSent: setting(key, value) };
  const type = isRecord(format) ? format.type : format;
  if (type === 'json_object') return { jsonMode: true, label: `${key} json_object` };
  if (type === 'json') return { notSent: `${key} json (JSON output without a schema, in a shape the rerun cannot send)` };
  if (type === 'json_schema') return { notSent: `${key} json_schema (the trace did not record its schema)` };
  return { notSent: setting(key, value) };
}

/** One recorded tool as a function tool, or null when it is another kind (web search, code interpreter…). */
function toolOf(raw: unknown): { tool: ToolSpec; note?: string } | null {
  const t = typeof raw === 'string' ? parseJsonValue(raw) : raw;
  if (!isRecord(t)) return null;
  // OpenAI chat: {type:'function', function:{…}}; Anthropic: {name, input_schema}; GenAI/Vercel/Responses: {type:'function', name, parameters|inputSchema}.
  const fn = isRecord(t.function) ? t.function : t;
  if (t.type !== undefined && t.type !== 'function' && t.type !== 'custom' && !('input_schema' in t)) return null;
  if (typeof fn.name !== 'string' || fn.name === '') return null;
  const parameters = [fn.parameters, fn.input_schema, fn.inputSchema].find(isRecord);
  const tool: ToolSpec = {
    name: fn.name, parameters: parameters ?? { type: 'object', properties: {} },
    ...(typeof fn.description === 'string' && fn.description ? { description: fn.description } : {}),
    ...(typeof fn.strict === 'boolean' ? { strict: fn.strict } : {}),
  };
  return parameters ? { tool } : { tool, note: `${fn.name}'s parameters were not recorded: sent with none` };
}

/** A recorded tool choice, in OpenAI, Anthropic or Vercel shape. */
function toolChoiceOf(raw: unknown): { choice: ToolChoice; label: string; extra?: string } | { notSent: string } {
  const value = typeof raw === 'string' && raw.startsWith('{') ? parseJsonValue(raw) ?? raw : raw;
  const type = isRecord(value) ? value.type : value;
  const name = isRecord(value) ? (isRecord(value.function) ? value.function.name : value.name ?? value.toolName) : undefined;
  // Anthropic's parallel switch rides on the choice; the providers have no place for it.
  const extra = isRecord(value) && value.disable_parallel_tool_use !== undefined ? setting('disable_parallel_tool_use', value.disable_parallel_tool_use) : undefined;
  const withExtra = <T extends object>(r: T) => (extra ? { ...r, extra } : r);
  if (type === 'auto') return withExtra({ choice: 'auto' as const, label: 'tool_choice auto' });
  if (type === 'required' || type === 'any') return withExtra({ choice: 'required' as const, label: `tool_choice ${String(type)}` });
  if ((type === 'function' || type === 'tool') && typeof name === 'string' && name) return withExtra({ choice: { name }, label: `tool_choice ${name}` });
  if (type === 'none') return withExtra({ choice: 'none' as const, label: 'tool_choice none' });
  return { notSent: setting('tool_choice', value) };
}

/**
 * What to send again for one recorded call, and what of it cannot be.
 *
 * @example
 * const r = rerunRequestOf(record, { maxOutputTokens: 512, structuredOutput: true });
 * r.contract;          // { name: 'answer', schema: {...}, strict: true } from response_format
 * r.fidelity.notSent;  // ['top_p 0.9', 'seed 7']
 */
export function rerunRequestOf(record: AttemptRecord, endpoint: RerunEndpoint): RerunRequest {
  const recorded = record.params;
  const body = recordedBody(record);
  const sent: string[] = [];
  const notSent: string[] = [];
  const added: string[] = [];
  const checks = new Map<string, (body: Record<string, unknown>) => boolean>();
  const send = (label: string, present: (body: Record<string, unknown>) => boolean) => {
    sent.push(label);
    checks.set(label, present);
  };
  // The cap and temperature from the record's params, else from the recorded body (a trace may keep them only there).
  const numberIn = (keys: readonly string[]) => keys.map((k) => body?.[k]).find((v): v is number => typeof v === 'number' && Number.isFinite(v));
  const recordedCap = recorded.maxTokens > 0 ? recorded.maxTokens : numberIn(CAP_KEYS);
  const cap = recordedCap !== undefined && Number.isInteger(recordedCap) && recordedCap > 0 ? recordedCap : undefined;
  const temperature = recorded.temperature ?? numberIn(['temperature']);
  if (cap !== undefined) send(`max_tokens ${cap}`, (b) => CAP_KEYS.some((k) => b[k] === cap));
  else added.push(`max_tokens ${endpoint.maxOutputTokens} (the endpoint profile's: the trace recorded none)`);
  if (temperature !== undefined) send(`temperature ${temperature}`, (b) => b.temperature === temperature);
  const out: Omit<RerunRequest, 'fidelity' | 'checks'> = { maxTokens: cap ?? endpoint.maxOutputTokens, ...(temperature !== undefined ? { temperature } : {}), stream: false };

  const entries = Object.entries(body ?? {}).filter(([, v]) => isSet(v));
  const get = (keys: readonly string[]) => entries.find(([k]) => keys.includes(k));

  // Output format.
  const format = get(FORMAT_KEYS);
  const formatResult = format ? contractOf(format[0], format[1]) : null;
  if (formatResult && !('notSent' in formatResult) && !endpoint.structuredOutput) notSent.push(`${formatResult.label} (the endpoint profile has structured output off)`);
  else if (formatResult && 'contract' in formatResult) {
    out.contract = formatResult.contract;
    send(formatResult.label, (b) => isRecord(b.response_format) || isRecord(b.output_config));
  } else if (formatResult && 'jsonMode' in formatResult) {
    // JSON mode without a schema: Chat Completions has it; a provider without it leaves it out.
    out.jsonMode = true;
    send(formatResult.label, (b) => isRecord(b.response_format) && b.response_format.type === 'json_object');
  } else if (formatResult) notSent.push(formatResult.notSent);
  // Settings that ride inside the format's object (the Responses API's text.verbosity) are named too.
  if (format && isRecord(format[1]) && (format[0] === 'text' || format[0] === 'output_config')) {
    for (const [k, v] of Object.entries(format[1])) if (k !== 'format' && isSet(v)) notSent.push(setting(`${format[0]}.${k}`, v));
  }
  if (!format && recorded.structured) notSent.push('JSON output (the trace did not record its schema, and the rerun can only send a JSON Schema)');

  // Tools and the tool choice.
  const toolsEntry = get(['tools']);
  const rawTools = toolsEntry ? (typeof toolsEntry[1] === 'string' ? parseJsonValue(toolsEntry[1]) : toolsEntry[1]) : undefined;
  const tools: ToolSpec[] = [];
  if (toolsEntry) {
    // Gemini groups its functions: { function_declarations: [...] }.
    const list = (Array.isArray(rawTools) ? rawTools : [rawTools]).flatMap((t) => (isRecord(t) && Array.isArray(t.function_declarations) ? t.function_declarations as unknown[] : [t]));
    for (const raw of list) {
      const mapped = toolOf(raw);
      if (!mapped) notSent.push(`tool ${shown(raw)} (not a function tool)`);
      else {
        tools.push(mapped.tool);
        if (mapped.note) notSent.push(mapped.note);
      }
    }
  }
  if (tools.length) {
    out.tools = tools;
    send(`tools: ${tools.map((t) => t.name).join(', ')}`, (b) => Array.isArray(b.tools) && b.tools.length === tools.length);
  }
  const choiceEntry = get(TOOL_CHOICE_KEYS);
  if (choiceEntry) {
    const choice = toolChoiceOf(choiceEntry[1]);
    if (!tools.length) notSent.push(`${setting(choiceEntry[0], choiceEntry[1])} (${toolsEntry ? 'no tool could be sent' : 'the trace did not record the tools it chose among'})`);
    else if ('choice' in choice) {
      out.toolChoice = choice.choice;
      // auto is what an endpoint does with tools and no choice (the providers leave it out); without the tools no choice was made.
      send(choice.label, (b) => Array.isArray(b.tools) && b.tools.length > 0 && (choice.choice === 'auto' || isSet(b.tool_choice)));
      if (choice.extra) notSent.push(choice.extra);
    } else notSent.push(choice.notSent);
  }

  // Sampling beyond the temperature, each where its recorded value has the setting's type.
  const sampling: Sampling = {};
  for (const s of SAMPLING) {
    const all = entries.filter(([k]) => s.keys.includes(k));
    const entry = all[0];
    if (!entry) continue;
    // Recorded under two names (stop and stop_sequences): the first is sent, the other named.
    for (const other of all.slice(1)) notSent.push(`${setting(other[0], other[1])} (${entry[0]} was sent for the same setting)`);
    const value = samplingValue(s.kind, entry[1]);
    if (value === undefined) {
      notSent.push(`${setting(entry[0], entry[1])} (not a value the rerun can send as ${s.field})`);
      continue;
    }
    (sampling as Record<string, unknown>)[s.field] = value;
    send(setting(entry[0], entry[1]), (b) => s.bodyKeys.some((k) => JSON.stringify(b[k]) === JSON.stringify(value)));
  }
  if (Object.keys(sampling).length) out.sampling = sampling;

  // Streaming: the body's flag, else the trace's.
  const streamEntry = get(['stream']);
  out.stream = streamEntry ? streamEntry[1] === true || streamEntry[1] === 'true' : recorded.stream;
  if (out.stream) send('stream', (b) => b.stream === true);

  // Everything else the recorded request set is named.
  const known = new Set([...HANDLED, ...STREAM_KEYS, ...FORMAT_KEYS, ...TOOL_CHOICE_KEYS, ...SAMPLING_KEYS, 'tools']);
  for (const [key, value] of entries) if (!known.has(key)) notSent.push(setting(key, value));
  return { ...out, fidelity: { sent, notSent, added, settingsRecorded: body !== undefined }, checks };
}

/**
 * The fidelity as checked against the body the provider actually built: a setting the rerun
 * asked for but the provider left out (the offline demo model sends no tools) is moved to
 * `notSent`, so the fork never claims what did not happen. Unchecked when there is no body.
 */
export function confirmSent(request: RerunRequest, requestBody: unknown): RerunFidelity {
  const f = request.fidelity;
  if (!isRecord(requestBody)) return f;
  const body = requestBody;
  const missing = f.sent.filter((label) => !(request.checks.get(label)?.(body) ?? true));
  return { ...f, sent: f.sent.filter((l) => !missing.includes(l)), notSent: [...missing.map((l) => `${l} (the endpoint's provider left it out)`), ...f.notSent] };
}
