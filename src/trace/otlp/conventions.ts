import type { ChatMessage, FinishReason, TokenUsage } from '../../providers/types.ts';
import { isRecord, propertyOf, prototypeFreeRecord } from '../../files/json-value.ts';
import { parseJsonValue } from './guard.ts';
import { chatMessagesFrom, finishFromRecorded, messagesFromRoleText, outputFrom, systemMessageFrom, type GenAiMessage, type GenAiPart } from './messages.ts';

/**
 * The attribute mapper: one LLM call out of a span's attributes, whichever generation of
 * conventions recorded it. Works on a plain key → value record, so the paired attribute
 * maps in the corpus test it directly. Each read notes which convention the key belongs to,
 * so the import can say what it found.
 */
export type Convention = 'otel-genai' | 'otel-genai-deprecated' | 'openlit' | 'openllmetry' | 'openinference' | 'vercel-ai-sdk';

export interface LlmCall {
  conventions: Convention[];
  provider?: string;
  model?: string;
  responseModel?: string;
  messages: ChatMessage[];
  text?: string;
  /** Parsed JSON when the call asked for JSON, else the text. */
  output?: unknown;
  structured: boolean;
  finishReason?: FinishReason;
  rawFinishReason?: string;
  usage?: TokenUsage;
  maxTokens?: number;
  temperature?: number;
  stream: boolean;
  outputSchema?: Record<string, unknown>;
  /** What could not be kept exactly (tool calls rendered as text, extra choices dropped). */
  notes: string[];
}

export interface SpanEventLike {
  name: string;
  attrs: Record<string, unknown>;
}

const DEPRECATED = new Set(['gen_ai.system', 'gen_ai.usage.prompt_tokens', 'gen_ai.usage.completion_tokens', 'gen_ai.prompt', 'gen_ai.completion', 'gen_ai.openai.request.response_format']);
const OPENINFERENCE = /^(openinference\.|input\.|output\.|llm\.(input_messages|output_messages|token_count|model_name|invocation_parameters|provider|system)\b)/;
const NON_LLM_OPERATIONS = new Set(['embeddings', 'retrieval', 'execute_tool', 'create_agent', 'invoke_agent', 'invoke_workflow']);
const LLM_OPERATIONS = new Set(['chat', 'text_completion', 'generate_content']);

function conventionOf(key: string): Convention {
  if (key.startsWith('ai.')) return 'vercel-ai-sdk';
  if (OPENINFERENCE.test(key)) return 'openinference';
  if (key.startsWith('llm.')) return 'openllmetry';
  if (DEPRECATED.has(key) || /^gen_ai\.(prompt|completion)\.\d/.test(key)) return 'otel-genai-deprecated';
  return 'otel-genai';
}

/** `prefix.N.rest` keys grouped by N in index order: one record of `rest` keys per N. */
export function indexed(attrs: Record<string, unknown>, prefix: string): Record<string, unknown>[] {
  const groups = new Map<number, Record<string, unknown>>();
  for (const [key, value] of Object.entries(attrs)) {
    if (!key.startsWith(prefix)) continue;
    const match = /^(\d{1,6})\.(.+)$/.exec(key.slice(prefix.length));
    if (!match) continue;
    const n = Number(match[1]);
    const group = groups.get(n) ?? prototypeFreeRecord();
    group[match[2] as string] = value;
    groups.set(n, group);
  }
  return [...groups.entries()].sort((a, b) => a[0] - b[0]).map(([, g]) => g);
}

/** OpenInference `message.*` keys (contents, tool calls, tool results) → a GenAI-shaped message. */
function openInferenceMessage(f: Record<string, unknown>): GenAiMessage {
  const parts: GenAiPart[] = [];
  for (const c of indexed(f, 'message.contents.')) {
    const type = c['message_content.type'] ?? 'text';
    if (type === 'text') parts.push({ type: 'text', content: String(c['message_content.text'] ?? '') });
    else parts.push({ type: String(type), uri: c['message_content.image.image.url'] });
  }
  const content = f['message.content'];
  const callId = f['message.tool_call_id'];
  if (typeof content === 'string' && callId !== undefined) parts.push({ type: 'tool_call_response', id: callId, response: content });
  else if (typeof content === 'string') parts.unshift({ type: 'text', content });
  for (const t of indexed(f, 'message.tool_calls.')) {
    parts.push({ type: 'tool_call', id: t['tool_call.id'], name: t['tool_call.function.name'], arguments: t['tool_call.function.arguments'] });
  }
  return { role: String(f['message.role'] ?? 'user'), parts };
}

/** OpenLLMetry `gen_ai.prompt.N.*` / `gen_ai.completion.N.*` → GenAI-shaped messages. */
function indexedGenAiMessage(f: Record<string, unknown>): GenAiMessage {
  const parts: GenAiPart[] = typeof f.content === 'string' ? [{ type: 'text', content: f.content }] : [];
  for (const t of indexed(f, 'tool_calls.')) parts.push({ type: 'tool_call', id: t.id, name: t.name, arguments: t.arguments });
  return { role: String(f.role ?? 'user'), parts, ...(typeof f.finish_reason === 'string' ? { finish_reason: f.finish_reason } : {}) };
}

/** `{"text": …, "finish_reason": …}` (OpenInference output.value), a message list, or plain text. */
function completionValue(value: string, notes: Set<string>): { text: string; finish?: string } {
  const parsed = parseJsonValue(value);
  if (Array.isArray(parsed)) return outputFrom(parsed, notes) ?? { text: value };
  if (isRecord(parsed) && typeof parsed.text === 'string'
    && Object.keys(parsed).every((k) => ['text', 'finish_reason', 'role'].includes(k))) {
    const finish = parsed.finish_reason;
    return { text: parsed.text, ...(typeof finish === 'string' ? { finish } : {}) };
  }
  return { text: value };
}

/** A prompt given as JSON (messages, or a request body with `messages`) or as plain text. */
function promptValue(value: string, notes: Set<string>): ChatMessage[] {
  const parsed = parseJsonValue(value);
  const list = isRecord(parsed) ? parsed.messages : parsed;
  return chatMessagesFrom(list, notes) ?? [{ role: 'user', content: value }];
}

/**
 * Maps one span's attributes (and its events) to an LLM call, or null when the span is not
 * an LLM call: wrappers such as Vercel's `ai.generateText`, OpenInference CHAIN/TOOL spans,
 * embeddings, tools, agents and workflows. `wrapper` holds the attributes of the span around
 * it (Vercel keeps the output schema there).
 */
export function mapLlmAttributes(spanAttrs: Record<string, unknown>, events: readonly SpanEventLike[] = [], wrapper: Record<string, unknown> = {}): LlmCall | null {
  // The current convention may carry the content in an event instead of span attributes.
  const details = events.find((e) => e.name === 'gen_ai.client.inference.operation.details')?.attrs ?? {};
  const attrs: Record<string, unknown> = Object.assign(prototypeFreeRecord(), details, spanAttrs);
  const vercelOp = attrs['ai.operationId'];
  const oiKind = attrs['openinference.span.kind'];
  const operation = attrs['gen_ai.operation.name'];
  if (typeof vercelOp === 'string' && !/\.do(Generate|Stream)$/.test(vercelOp)) return null;
  if (typeof oiKind === 'string' && oiKind.toUpperCase() !== 'LLM') return null;
  if (typeof operation === 'string' && NON_LLM_OPERATIONS.has(operation)) return null;
  if (attrs['llm.request.type'] === 'embedding') return null;

  const used = new Set<Convention>();
  const notes = new Set<string>();
  if (typeof oiKind === 'string') used.add('openinference');
  if (typeof vercelOp === 'string') used.add('vercel-ai-sdk');
  if (typeof attrs['llm.request.type'] === 'string') used.add('openllmetry');
  const get = (...keys: string[]): unknown => {
    for (const key of keys) {
      const v = attrs[key];
      if (v === undefined || v === null || v === '') continue;
      used.add(conventionOf(key));
      return v;
    }
    return undefined;
  };
  const str = (...keys: string[]) => { const v = get(...keys); return typeof v === 'string' ? v : undefined; };
  const num = (...keys: string[]) => {
    const v = get(...keys);
    const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() ? Number(v) : NaN;
    return Number.isFinite(n) ? n : undefined;
  };
  const json = (...keys: string[]) => { const v = get(...keys); return typeof v === 'string' ? parseJsonValue(v) : v; };
  const eventAttr = (event: string, key: string): string | undefined => {
    const v = events.find((e) => e.name === event)?.attrs[key];
    if (typeof v === 'string') used.add('openlit');
    return typeof v === 'string' ? v : undefined;
  };
  const params = json('llm.invocation_parameters');
  const invocation = isRecord(params) ? params : {};

  // Input messages, newest convention first.
  let messages: ChatMessage[] | null = chatMessagesFrom(json('gen_ai.input.messages'), notes);
  if (messages) {
    const system = systemMessageFrom(json('gen_ai.system_instructions'), notes);
    if (system) messages.unshift(system);
  }
  const oiInput = indexed(attrs, 'llm.input_messages.');
  if (!messages && oiInput.length > 0) { used.add('openinference'); messages = chatMessagesFrom(oiInput.map(openInferenceMessage), notes); }
  const promptN = indexed(attrs, 'gen_ai.prompt.');
  if (!messages && promptN.length > 0) { used.add('otel-genai-deprecated'); messages = chatMessagesFrom(promptN.map(indexedGenAiMessage), notes); }
  messages ??= chatMessagesFrom(json('ai.prompt.messages'), notes);
  if (!messages) { const v = str('gen_ai.prompt'); if (v) messages = promptValue(v, notes); }
  if (!messages) { const v = eventAttr('gen_ai.content.prompt', 'gen_ai.prompt'); if (v) messages = parseJsonValue(v) ? promptValue(v, notes) : messagesFromRoleText(v); }
  if (!messages) { const v = str('input.value'); if (v) messages = promptValue(v, notes); }

  // Output: the first choice's text and finish word.
  let out: { text: string; finish?: string } | null = outputFrom(json('gen_ai.output.messages'), notes);
  const oiOutput = indexed(attrs, 'llm.output_messages.');
  if (!out && oiOutput.length > 0) { used.add('openinference'); out = outputFrom(oiOutput.map(openInferenceMessage), notes); }
  const completionN = indexed(attrs, 'gen_ai.completion.');
  if (!out && completionN.length > 0) { used.add('otel-genai-deprecated'); out = outputFrom(completionN.map(indexedGenAiMessage), notes); }
  const vercelObject = str('ai.response.object');
  if (!out) { const v = vercelObject ?? str('ai.response.text'); if (v !== undefined) out = { text: v }; }
  if (!out) { const v = str('gen_ai.completion'); if (v !== undefined) out = completionValue(v, notes); }
  if (!out) { const v = eventAttr('gen_ai.content.completion', 'gen_ai.completion'); if (v !== undefined) out = completionValue(v, notes); }
  if (!out) { const v = str('output.value'); if (v !== undefined) out = completionValue(v, notes); }

  const explicit = LLM_OPERATIONS.has(String(operation)) || typeof oiKind === 'string' || typeof vercelOp === 'string' || typeof attrs['llm.request.type'] === 'string';
  if (!messages && !out && !explicit) return null;

  const finishList = get('gen_ai.response.finish_reasons');
  const oiFinish = propertyOf(parseJsonValue(attrs['output.value']), 'finish_reason');
  const rawFinish = out?.finish ?? (Array.isArray(finishList) && typeof finishList[0] === 'string' ? finishList[0] : undefined)
    ?? str('ai.response.finishReason') ?? (typeof oiFinish === 'string' ? oiFinish : undefined);
  const inputTokens = num('gen_ai.usage.input_tokens', 'gen_ai.usage.prompt_tokens', 'llm.usage.prompt_tokens', 'llm.token_count.prompt', 'ai.usage.inputTokens', 'ai.usage.promptTokens');
  const outputTokens = num('gen_ai.usage.output_tokens', 'gen_ai.usage.completion_tokens', 'llm.usage.completion_tokens', 'llm.token_count.completion', 'ai.usage.outputTokens', 'ai.usage.completionTokens');
  // OpenLit records max_tokens = -1 for "not set": only a positive integer is a real cap.
  const invoked = (key: string) => (typeof invocation[key] === 'number' ? invocation[key] : undefined);
  const maxTokens = num('gen_ai.request.max_tokens', 'llm.request.max_tokens', 'ai.settings.maxOutputTokens') ?? invoked('max_tokens') ?? invoked('max_completion_tokens') ?? NaN;
  const temperature = num('gen_ai.request.temperature', 'llm.request.temperature', 'ai.settings.temperature') ?? invoked('temperature') ?? NaN;
  const format = str('gen_ai.output.type', 'gen_ai.openai.request.response_format');
  const structured = vercelObject !== undefined || wrapper['ai.settings.output'] === 'object' || format === 'json' || format === 'json_object' || format === 'json_schema';
  const schema = parseJsonValue(wrapper['ai.schema']);
  const text = out?.text;
  const parsedOutput = structured && text !== undefined ? parseJsonValue(text) : undefined;
  if (structured && text !== undefined && parsedOutput === undefined) notes.add('a JSON call returned text that is not JSON; it was kept as text');

  const provider = str('gen_ai.provider.name', 'gen_ai.system', 'llm.provider', 'llm.system', 'ai.model.provider');
  const model = str('gen_ai.request.model', 'ai.model.id') ?? (typeof invocation.model === 'string' ? invocation.model : undefined) ?? str('llm.model_name', 'gen_ai.response.model');
  const responseModel = str('gen_ai.response.model', 'ai.response.model', 'llm.model_name');
  const stream = get('gen_ai.request.stream', 'gen_ai.request.is_stream', 'llm.is_streaming') === true || /doStream$/.test(String(vercelOp));
  return {
    // Computed last: every read above has recorded its convention by now.
    conventions: [...used].sort(),
    ...(provider !== undefined ? { provider } : {}),
    ...(model !== undefined ? { model } : {}),
    ...(responseModel !== undefined ? { responseModel } : {}),
    messages: messages ?? [],
    ...(text !== undefined ? { text, output: parsedOutput ?? text } : {}),
    structured,
    ...(rawFinish !== undefined ? { finishReason: finishFromRecorded(rawFinish), rawFinishReason: rawFinish } : {}),
    ...(inputTokens !== undefined || outputTokens !== undefined ? { usage: { inputTokens: inputTokens ?? 0, outputTokens: outputTokens ?? 0 } } : {}),
    ...(Number.isInteger(maxTokens) && maxTokens > 0 ? { maxTokens } : {}),
    ...(Number.isFinite(temperature) ? { temperature } : {}),
    stream,
    ...(isRecord(schema) ? { outputSchema: schema } : {}),
    notes: [...notes],
  };
}
