import type { ChatMessage, ChatRole, FinishReason, ToolCall } from '../../providers/types.ts';
import { parseJsonValue } from './guard.ts';

/**
 * Messages between Seamscope's shape (role + text) and the shapes instrumentations record:
 * OTel GenAI `{role, parts:[{type, content}]}`, OpenAI `{role, content}`, Vercel content
 * parts `{type:'text', text}`. Seamscope messages are text only, so a tool call or a tool
 * result is rendered as a readable line of text and the importer says so in a note.
 */
export interface GenAiPart {
  type: string;
  [key: string]: unknown;
}

export interface GenAiMessage {
  role: string;
  parts: GenAiPart[];
  finish_reason?: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Our finish reason → the GenAI word (the schema's enum says `tool_call`; any string is allowed). */
export function toGenAiFinish(reason: FinishReason | undefined, raw: string | null | undefined): string {
  if (reason === 'tool_calls') return 'tool_call';
  if (reason === 'other' || reason === undefined) return raw || 'other';
  return reason;
}

/** Any recorded finish word (OpenAI, Anthropic, Gemini, Vercel, GenAI) → ours. */
export function finishFromRecorded(raw: string): FinishReason {
  const word = raw.toLowerCase().replace(/-/g, '_');
  if (['stop', 'end_turn', 'stop_sequence', 'eos', 'complete'].includes(word)) return 'stop';
  if (['length', 'max_tokens', 'max_output_tokens', 'model_length'].includes(word)) return 'length';
  if (['content_filter', 'safety', 'blocklist', 'prohibited_content'].includes(word)) return 'content_filter';
  if (['tool_call', 'tool_calls', 'tool_use', 'function_call'].includes(word)) return 'tool_calls';
  if (word === 'refusal') return 'refusal';
  return 'other';
}

/** Export: the first system message becomes `gen_ai.system_instructions`, the rest the chat history. */
export function toGenAiInput(messages: readonly ChatMessage[]): { system: GenAiPart[] | null; input: GenAiMessage[] } {
  const [first, ...rest] = messages;
  const text = (content: string): GenAiPart => ({ type: 'text', content });
  if (first?.role === 'system') return { system: [text(first.content)], input: rest.map((m) => ({ role: m.role, parts: [text(m.content)] })) };
  return { system: null, input: messages.map((m) => ({ role: m.role, parts: [text(m.content)] })) };
}

function stringify(value: unknown): string {
  if (typeof value === 'string') {
    try {
      // Arguments are often a JSON string; re-serialising makes `{"a": 1}` and `{"a":1}` read the same.
      return JSON.stringify(JSON.parse(value));
    } catch {
      return value;
    }
  }
  return JSON.stringify(value) ?? '';
}

/** One part as text. Non-text parts are rendered visibly rather than dropped. */
function partText(part: unknown, notes: Set<string>): string {
  if (typeof part === 'string') return part;
  if (!isRecord(part)) return '';
  if (typeof part.type !== 'string') {
    // Gemini parts carry no type: `{function_call: {name, args}}`, `{function_response: {name, response}}`.
    const call = isRecord(part.function_call) ? part.function_call : isRecord(part.functionCall) ? part.functionCall : undefined;
    if (call) return partText({ type: 'tool_call', name: call.name, id: call.id, arguments: call.args ?? call.arguments }, notes);
    const response = isRecord(part.function_response) ? part.function_response : isRecord(part.functionResponse) ? part.functionResponse : undefined;
    if (response) return partText({ type: 'tool_call_response', id: response.id ?? response.name, response: response.response }, notes);
  }
  const type = typeof part.type === 'string' ? part.type : 'text';
  if (type === 'text' || type === 'input_text' || type === 'output_text') {
    const content = part.content ?? part.text;
    return typeof content === 'string' ? content : stringify(content);
  }
  if (type === 'tool_call' || type === 'tool-call' || type === 'function_call' || type === 'tool_use') {
    notes.add('tool calls were rendered as text lines');
    const name = part.name ?? part.toolName;
    const id = part.call_id ?? part.id ?? part.toolCallId;
    return `[tool call ${String(name ?? '?')}${id !== undefined ? ` id=${String(id)}` : ''}] ${stringify(part.arguments ?? part.input ?? part.args ?? {})}`;
  }
  if (type === 'tool_call_response' || type === 'tool-result' || type === 'tool_result' || type === 'function_call_output') {
    notes.add('tool results were rendered as text lines');
    const id = part.id ?? part.toolCallId ?? part.tool_use_id ?? part.call_id;
    const response = part.response ?? part.output ?? part.result ?? part.content;
    return `[tool result${id !== undefined ? ` id=${String(id)}` : ''}] ${typeof response === 'string' ? response : stringify(response)}`;
  }
  if (type === 'reasoning' && typeof part.content === 'string') return `[reasoning] ${part.content}`;
  notes.add(`${type} parts were replaced by a [${type}] marker`);
  return `[${type}${typeof part.mime_type === 'string' ? ` ${part.mime_type}` : ''}]`;
}

function roleOf(role: unknown, notes: Set<string>): ChatRole {
  if (role === 'system' || role === 'user' || role === 'assistant') return role;
  if (role === 'developer') return 'system';
  // Gemini names the assistant "model".
  if (role === 'model') return 'assistant';
  notes.add(`${String(role)} messages were imported as user messages`);
  return 'user';
}

/**
 * The content of one message in any of the recorded shapes, as text. OpenAI-style
 * `tool_calls` and `tool_call_id` are turned into the same parts GenAI uses, so one call
 * reads the same whichever convention recorded it.
 */
export function messageText(message: Record<string, unknown>, notes: Set<string>): string {
  const pieces: unknown[] = Array.isArray(message.parts) ? [...message.parts] : Array.isArray(message.content) ? [...message.content] : [];
  if (typeof message.content === 'string' && !Array.isArray(message.parts)) {
    pieces.push(message.tool_call_id !== undefined ? { type: 'tool_call_response', id: message.tool_call_id, response: message.content } : message.content);
  }
  if (Array.isArray(message.tool_calls)) {
    for (const item of message.tool_calls) {
      const call = isRecord(item) ? item : {};
      const fn = isRecord(call.function) ? call.function : {};
      pieces.push({ type: 'tool_call', id: call.id, name: fn.name, arguments: fn.arguments });
    }
  }
  return pieces.map((p) => partText(p, notes)).filter((t) => t !== '').join('\n');
}

/** A recorded message list → ours, or null when the value is not a list of messages. */
export function chatMessagesFrom(value: unknown, notes: Set<string>): ChatMessage[] | null {
  if (!Array.isArray(value) || value.length === 0) return null;
  const messages = value.filter(isRecord);
  if (messages.length !== value.length || !messages.every((m) => 'role' in m)) return null;
  return messages.map((m) => ({ role: roleOf(m.role, notes), content: messageText(m, notes) }));
}

/** System instructions (a list of parts, or a plain string) → one system message. */
export function systemMessageFrom(value: unknown, notes: Set<string>): ChatMessage | null {
  if (typeof value === 'string') return value ? { role: 'system', content: value } : null;
  if (!Array.isArray(value) || value.length === 0) return null;
  return { role: 'system', content: value.map((p) => partText(p, notes)).join('\n') };
}

/** What one recorded reply holds: its text, tool calls and reasoning, kept apart. */
export interface RecordedOutput {
  text: string;
  finish?: string;
  toolCalls: ToolCall[];
  reasoning?: string;
}

/** A reply with neither text nor a tool call says nothing: the next source is tried instead. */
export const hasContent = (out: RecordedOutput | null): out is RecordedOutput => out !== null && (out.text !== '' || out.toolCalls.length > 0);

/** Arguments as the JSON text the model wrote: a string stays as it is, an object is serialised. */
const argumentsText = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value ?? {}) ?? '{}');

/** A tool call in any recorded shape (GenAI part, OpenAI tool_calls / function_call, Anthropic tool_use, Vercel tool-call, Gemini function_call). */
export function toolCallFrom(value: unknown): ToolCall | null {
  if (!isRecord(value)) return null;
  const fn = isRecord(value.function) ? value.function : isRecord(value.function_call) ? value.function_call : isRecord(value.functionCall) ? value.functionCall : value;
  const name = fn.name ?? value.name ?? value.toolName;
  if (typeof name !== 'string' || !name) return null;
  const id = value.call_id ?? value.id ?? value.toolCallId ?? fn.id;
  return { id: id === undefined || id === null ? '' : String(id), name, arguments: argumentsText(fn.arguments ?? fn.args ?? fn.input ?? value.arguments ?? value.input ?? value.args) };
}

/**
 * A tool call as a step's output: arguments parsed when they are JSON, so the replay shows the
 * values. A tool-only reply has no text; its output is its calls, so the step shows what the
 * model did instead of an empty answer.
 */
export function toolCallOutput(call: ToolCall): { id: string; name: string; arguments: unknown } {
  return { id: call.id, name: call.name, arguments: parseJsonValue(call.arguments) ?? call.arguments };
}

const TOOL_CALL_PARTS = new Set(['tool_call', 'tool-call', 'function_call', 'tool_use']);

/**
 * One output message → text, tool calls and reasoning. Unlike an input message, whose tool
 * calls can only be rendered as text, the attempt record has a place for each, so nothing
 * is folded into the text here.
 */
export function outputMessage(message: Record<string, unknown>, notes: Set<string>): RecordedOutput {
  const pieces: unknown[] = Array.isArray(message.parts) ? [...message.parts] : Array.isArray(message.content) ? [...message.content] : [];
  if (typeof message.content === 'string') pieces.unshift(message.content);
  const texts: string[] = [];
  const reasoning: string[] = [];
  const toolCalls: ToolCall[] = [];
  for (const piece of pieces) {
    if (typeof piece === 'string') { if (piece) texts.push(piece); continue; }
    if (!isRecord(piece)) continue;
    const type = typeof piece.type === 'string' ? piece.type : isRecord(piece.function_call) ? 'function_call' : 'text';
    if (TOOL_CALL_PARTS.has(type)) {
      const call = toolCallFrom(piece);
      if (call) toolCalls.push(call);
    } else if (type === 'reasoning' || type === 'thinking') {
      const content = piece.content ?? piece.thinking ?? piece.text;
      if (typeof content === 'string' && content) reasoning.push(content);
    } else {
      const text = partText(piece, notes);
      if (text) texts.push(text);
    }
  }
  for (const item of Array.isArray(message.tool_calls) ? message.tool_calls : []) {
    const call = toolCallFrom(item);
    if (call) toolCalls.push(call);
  }
  // The legacy OpenAI shape: one function_call beside the content.
  const legacy = toolCallFrom(message.function_call);
  if (legacy) toolCalls.push(legacy);
  const reasoningField = message.reasoning_content ?? message.reasoning;
  if (typeof reasoningField === 'string' && reasoningField) reasoning.push(reasoningField);
  const finish = message.finish_reason ?? message.finishReason;
  return {
    text: texts.join('\n'), toolCalls,
    ...(reasoning.length ? { reasoning: reasoning.join('\n') } : {}),
    ...(typeof finish === 'string' ? { finish } : {}),
  };
}

/** The first output message (choice 0) → its text, tool calls and finish word. */
export function outputFrom(value: unknown, notes: Set<string>): RecordedOutput | null {
  if (!Array.isArray(value) || value.length === 0 || !isRecord(value[0])) return null;
  if (value.length > 1) notes.add('only the first of several output choices was imported');
  return outputMessage(value[0], notes);
}

/**
 * OpenLit's `gen_ai.prompt` event text: `role: content` per message, joined by newlines.
 * A line that starts with a known role opens a new message; other lines continue the last.
 */
export function messagesFromRoleText(text: string): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const line of text.split('\n')) {
    const match = /^(system|user|assistant|developer|tool): ?(.*)$/.exec(line);
    const last = out[out.length - 1];
    if (match) out.push({ role: match[1] === 'developer' ? 'system' : match[1] === 'tool' ? 'user' : (match[1] as ChatRole), content: match[2] ?? '' });
    else if (last) last.content += `\n${line}`;
    else out.push({ role: 'user', content: line });
  }
  return out;
}
