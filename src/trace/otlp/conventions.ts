import type { ChatMessage, FinishReason, TokenUsage, ToolCall } from '../../providers/types.ts';
import { isRecord, propertyOf, prototypeFreeRecord } from '../../files/json-value.ts';
import { parseJsonValue } from './guard.ts';
import { indexed } from './indexed.ts';
import { requestSettingsOf } from './request-settings.ts';
import { eventChoices, eventMessages } from './genai-events.ts';
import { chatMessagesFrom, toolCallFrom, toolCallOutput, finishFromRecorded, hasContent, messagesFromRoleText, outputFrom, outputMessage, systemMessageFrom, type GenAiMessage, type GenAiPart, type RecordedOutput } from './messages.ts';

/**
 * The attribute mapper: one LLM call out of a span's attributes, whichever generation of
 * conventions recorded it. Works on a plain key → value record, so the paired attribute
 * maps in the corpus test it directly. Each read notes which convention the key belongs to,
 * so the import can say what it found.
 */
export { indexed } from './indexed.ts';

export type Convention = 'otel-genai' | 'otel-genai-deprecated' | 'openlit' | 'openllmetry' | 'openinference' | 'vercel-ai-sdk' | 'langfuse';

export interface LlmCall {
  conventions: Convention[];
  provider?: string;
  model?: string;
  responseModel?: string;
  messages: ChatMessage[];
  /** Absent when no output could be recovered from the span (the import then warns). */
  text?: string;
  /** Parsed JSON when the call asked for JSON, else the text; the tool calls for a tool-only reply. */
  output?: unknown;
  toolCalls?: ToolCall[];
  reasoning?: string;
  structured: boolean;
  finishReason?: FinishReason;
  rawFinishReason?: string;
  usage?: TokenUsage;
  maxTokens?: number;
  temperature?: number;
  /** What the recorder computed the call cost (Langfuse exports carry it). */
  costUsd?: number;
  stream: boolean;
  outputSchema?: Record<string, unknown>;
  /** The request settings the trace recorded besides messages, model, cap and temperature (request-settings.ts). */
  request?: Record<string, unknown>;
  /** What could not be kept exactly (tool calls rendered as text, extra choices dropped). */
  notes: string[];
}

export interface SpanEventLike {
  name: string;
  attrs: Record<string, unknown>;
}

const DEPRECATED = new Set(['gen_ai.system', 'gen_ai.usage.prompt_tokens', 'gen_ai.usage.completion_tokens', 'gen_ai.prompt', 'gen_ai.completion', 'gen_ai.openai.request.response_format']);
// llm.finish_reason is OpenInference's too (LLM_FINISH_REASON; @arizeai/openinference-instrumentation-openai 4.2
// writes it), not OpenLLMetry's: read as OpenLLMetry, every OpenInference capture was labelled with both.
const OPENINFERENCE = /^(openinference\.|input\.|output\.|llm\.(input_messages|output_messages|token_count|model_name|invocation_parameters|provider|system|finish_reason|tools)\b)/;
const NON_LLM_OPERATIONS = new Set(['embeddings', 'retrieval', 'execute_tool', 'create_agent', 'invoke_agent', 'invoke_workflow']);
const LLM_OPERATIONS = new Set(['chat', 'text_completion', 'generate_content']);

function conventionOf(key: string): Convention {
  if (key.startsWith('ai.')) return 'vercel-ai-sdk';
  if (OPENINFERENCE.test(key)) return 'openinference';
  if (key.startsWith('llm.')) return 'openllmetry';
  if (DEPRECATED.has(key) || /^gen_ai\.(prompt|completion)\.\d/.test(key)) return 'otel-genai-deprecated';
  return 'otel-genai';
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

/**
 * OpenLLMetry `gen_ai.prompt.N.*` / `gen_ai.completion.N.*` → GenAI-shaped messages. LiteLLM
 * writes a reply's (first) tool call as `gen_ai.completion.N.function_call.{name,arguments}`.
 */
function indexedGenAiMessage(f: Record<string, unknown>): GenAiMessage {
  const parts: GenAiPart[] = typeof f.content === 'string' ? [{ type: 'text', content: f.content }] : [];
  for (const t of indexed(f, 'tool_calls.')) parts.push({ type: 'tool_call', id: t.id, name: t.name, arguments: t.arguments });
  if (typeof f['function_call.name'] === 'string') parts.push({ type: 'tool_call', id: f['function_call.id'], name: f['function_call.name'], arguments: f['function_call.arguments'] });
  return { role: String(f.role ?? 'user'), parts, ...(typeof f.finish_reason === 'string' ? { finish_reason: f.finish_reason } : {}) };
}

/** The first choice of an OpenAI chat completion body (OpenInference keeps the whole body in output.value). */
function firstChoice(value: unknown): Record<string, unknown> | undefined {
  const choices = propertyOf(value, 'choices');
  const first: unknown = Array.isArray(choices) ? choices[0] : undefined;
  return isRecord(first) ? first : undefined;
}

/**
 * A recorded completion value: `{"text": …, "finish_reason": …}`, a chat completion body with
 * `choices`, a message list, or plain text.
 */
function completionValue(value: string, notes: Set<string>): RecordedOutput {
  const plain = { text: value, toolCalls: [] };
  const parsed = parseJsonValue(value);
  if (Array.isArray(parsed)) return outputFrom(parsed, notes) ?? plain;
  const choice = firstChoice(parsed);
  if (choice && isRecord(choice.message)) {
    if ((propertyOf(parsed, 'choices') as unknown[]).length > 1) notes.add('only the first of several output choices was imported');
    const out = outputMessage(choice.message, notes);
    return typeof choice.finish_reason === 'string' ? { ...out, finish: choice.finish_reason } : out;
  }
  if (isRecord(parsed) && typeof parsed.text === 'string'
    && Object.keys(parsed).every((k) => ['text', 'finish_reason', 'role'].includes(k))) {
    const finish = parsed.finish_reason;
    return { text: parsed.text, toolCalls: [], ...(typeof finish === 'string' ? { finish } : {}) };
  }
  return plain;
}

/** A prompt given as JSON (messages, or a request body with `messages`) or as plain text. */
function promptValue(value: string, notes: Set<string>): ChatMessage[] {
  const parsed = parseJsonValue(value);
  const list = isRecord(parsed) ? parsed.messages : parsed;
  return chatMessagesFrom(list, notes) ?? [{ role: 'user', content: value }];
}

/** Vercel AI SDK `ai.response.toolCalls`: `[{toolCallId, toolName, input|args}]`. */
function vercelToolCalls(value: unknown): ToolCall[] {
  if (!Array.isArray(value)) return [];
  return value.map(toolCallFrom).filter((c): c is ToolCall => c !== null);
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
  // The indexed keys are looked for only when no newer form held the messages (each look walks every attribute).
  const oiInput = messages ? [] : indexed(attrs, 'llm.input_messages.');
  if (!messages && oiInput.length > 0) { used.add('openinference'); messages = chatMessagesFrom(oiInput.map(openInferenceMessage), notes); }
  const promptN = messages ? [] : indexed(attrs, 'gen_ai.prompt.');
  if (!messages && promptN.length > 0) { used.add('otel-genai-deprecated'); messages = chatMessagesFrom(promptN.map(indexedGenAiMessage), notes); }
  // Message events (span events, or pydantic-ai's `events` attribute), conventions up to 1.36.
  const messageEvents = messages ? null : eventMessages(attrs.events, events);
  if (messageEvents) { used.add('otel-genai-deprecated'); messages = chatMessagesFrom(messageEvents, notes); }
  messages ??= chatMessagesFrom(json('ai.prompt.messages'), notes);
  if (!messages) { const v = str('gen_ai.prompt'); if (v) messages = promptValue(v, notes); }
  if (!messages) { const v = eventAttr('gen_ai.content.prompt', 'gen_ai.prompt'); if (v) messages = parseJsonValue(v) ? promptValue(v, notes) : messagesFromRoleText(v); }
  if (!messages) { const v = str('input.value'); if (v) messages = promptValue(v, notes); }

  // Output: the first choice's text, tool calls and finish word, newest convention first. A
  // source that holds neither text nor a tool call (LiteLLM writes empty output parts beside
  // its function_call keys) does not count: the next one is read.
  const sources: (() => RecordedOutput | null)[] = [
    () => outputFrom(json('gen_ai.output.messages'), notes),
    () => { const list = indexed(attrs, 'llm.output_messages.'); if (list.length === 0) return null; used.add('openinference'); return outputFrom(list.map(openInferenceMessage), notes); },
    () => { const list = indexed(attrs, 'gen_ai.completion.'); if (list.length === 0) return null; used.add('otel-genai-deprecated'); return outputFrom(list.map(indexedGenAiMessage), notes); },
    () => { const list = eventChoices(attrs.events, events); if (!list) return null; used.add('otel-genai-deprecated'); return outputFrom(list, notes); },
    () => { const v = str('ai.response.object') ?? str('ai.response.text'); return v !== undefined ? { text: v, toolCalls: vercelToolCalls(json('ai.response.toolCalls')) } : null; },
    () => { const calls = vercelToolCalls(json('ai.response.toolCalls')); return calls.length ? { text: '', toolCalls: calls } : null; },
    () => { const v = str('gen_ai.completion'); return v !== undefined ? completionValue(v, notes) : null; },
    () => { const v = eventAttr('gen_ai.content.completion', 'gen_ai.completion'); return v !== undefined ? completionValue(v, notes) : null; },
    () => { const v = str('output.value'); return v !== undefined ? completionValue(v, notes) : null; },
  ];
  let out: RecordedOutput | null = null;
  let sawOutput = false;
  for (const source of sources) {
    const found = source();
    sawOutput ||= found !== null;
    if (hasContent(found)) { out = found; break; }
  }
  const vercelObject = str('ai.response.object');

  const explicit = LLM_OPERATIONS.has(String(operation)) || typeof oiKind === 'string' || typeof vercelOp === 'string' || typeof attrs['llm.request.type'] === 'string';
  if (!messages && !out && !sawOutput && !explicit) return null;

  const finishList = get('gen_ai.response.finish_reasons');
  const outputValue = parseJsonValue(attrs['output.value']);
  const oiFinish = propertyOf(outputValue, 'finish_reason') ?? firstChoice(outputValue)?.finish_reason;
  const rawFinish = out?.finish ?? (Array.isArray(finishList) && typeof finishList[0] === 'string' ? finishList[0] : undefined)
    ?? str('ai.response.finishReason', 'llm.finish_reason') ?? (typeof oiFinish === 'string' ? (used.add('openinference'), oiFinish) : undefined);
  const inputTokens = num('gen_ai.usage.input_tokens', 'gen_ai.usage.prompt_tokens', 'llm.usage.prompt_tokens', 'llm.token_count.prompt', 'ai.usage.inputTokens', 'ai.usage.promptTokens');
  const outputTokens = num('gen_ai.usage.output_tokens', 'gen_ai.usage.completion_tokens', 'llm.usage.completion_tokens', 'llm.token_count.completion', 'ai.usage.outputTokens', 'ai.usage.completionTokens');
  const cachedInputTokens = num('gen_ai.usage.cache_read.input_tokens', 'gen_ai.usage.cache_read_input_tokens', 'llm.usage.cache_read_input_tokens', 'llm.token_count.prompt_details.cache_read', 'ai.usage.cachedInputTokens');
  const reasoningTokens = num('gen_ai.usage.reasoning.output_tokens', 'gen_ai.usage.reasoning_tokens', 'llm.usage.reasoning_tokens', 'llm.token_count.completion_details.reasoning', 'ai.usage.reasoningTokens');
  // OpenLit records max_tokens = -1 for "not set": only a positive integer is a real cap.
  const invoked = (key: string) => (typeof invocation[key] === 'number' ? invocation[key] : undefined);
  const maxTokens = num('gen_ai.request.max_tokens', 'llm.request.max_tokens', 'ai.settings.maxOutputTokens') ?? invoked('max_tokens') ?? invoked('max_completion_tokens') ?? NaN;
  const temperature = num('gen_ai.request.temperature', 'llm.request.temperature', 'ai.settings.temperature') ?? invoked('temperature') ?? NaN;
  const format = str('gen_ai.output.type', 'gen_ai.openai.request.response_format');
  const structured = vercelObject !== undefined || wrapper['ai.settings.output'] === 'object' || format === 'json' || format === 'json_object' || format === 'json_schema';
  const schema = parseJsonValue(wrapper['ai.schema']);
  const text = out?.text;
  const toolCalls = out?.toolCalls ?? [];
  const parsedOutput = structured && text ? parseJsonValue(text) : undefined;
  if (structured && text && parsedOutput === undefined) notes.add('a JSON call returned text that is not JSON; it was kept as text');
  // A tool-only reply has no text; its output is the calls, so the step shows what the model did.
  const output = text === '' && toolCalls.length > 0 ? toolCalls.map(toolCallOutput) : parsedOutput ?? text;

  const provider = str('gen_ai.provider.name', 'gen_ai.system', 'llm.provider', 'llm.system', 'ai.model.provider');
  const model = str('gen_ai.request.model', 'ai.model.id') ?? (typeof invocation.model === 'string' ? invocation.model : undefined) ?? str('llm.model_name', 'gen_ai.response.model');
  const responseModel = str('gen_ai.response.model', 'ai.response.model', 'llm.model_name');
  const stream = get('gen_ai.request.stream', 'gen_ai.request.is_stream', 'llm.is_streaming') === true || /doStream$/.test(String(vercelOp));
  const request = requestSettingsOf(attrs, wrapper);
  return {
    // Computed last: every read above has recorded its convention by now.
    conventions: [...used].sort(),
    ...(provider !== undefined ? { provider } : {}),
    ...(model !== undefined ? { model } : {}),
    ...(responseModel !== undefined ? { responseModel } : {}),
    messages: messages ?? [],
    ...(text !== undefined ? { text, output } : {}),
    ...(toolCalls.length ? { toolCalls } : {}),
    ...(out?.reasoning ? { reasoning: out.reasoning } : {}),
    structured,
    ...(rawFinish !== undefined ? { finishReason: finishFromRecorded(rawFinish), rawFinishReason: rawFinish } : {}),
    ...(inputTokens !== undefined || outputTokens !== undefined ? {
      usage: {
        inputTokens: inputTokens ?? 0, outputTokens: outputTokens ?? 0,
        ...(cachedInputTokens !== undefined ? { cachedInputTokens } : {}), ...(reasoningTokens !== undefined ? { reasoningTokens } : {}),
      },
    } : {}),
    ...(Number.isInteger(maxTokens) && maxTokens > 0 ? { maxTokens } : {}),
    ...(Number.isFinite(temperature) ? { temperature } : {}),
    stream,
    ...(isRecord(schema) ? { outputSchema: schema } : {}),
    ...(request ? { request } : {}),
    notes: [...notes],
  };
}
