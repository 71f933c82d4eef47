import type { ChatMessage, ToolCall } from '../../providers/types.ts';
import { isRecord } from '../../files/json-value.ts';
import { chatMessagesFrom, outputFrom, outputMessage, systemMessageFrom, toolCallFrom, type RecordedOutput } from './messages.ts';

/**
 * Request and reply bodies as SDKs and frameworks hand them to a tracer, which Langfuse keeps
 * as a generation's `input` and `output`: OpenAI chat messages and completion choices, the
 * OpenAI Responses API (input items, `output` items), Anthropic messages and content blocks,
 * Gemini `contents`/`candidates`, and Vercel AI SDK tool-call lists. Each reader returns
 * null when the value is none of these, so the caller can say what it could not read.
 */

const TOOL_CALL_TYPES = new Set(['function_call', 'tool_use', 'tool-call', 'tool_call']);
const isToolCallItem = (v: unknown) => isRecord(v) && (TOOL_CALL_TYPES.has(String(v.type)) || (v.type === undefined && typeof v.toolName === 'string'));

/** Responses API input items → chat messages: a function call is the assistant's, its output the user's turn. */
function responsesInput(items: readonly unknown[], notes: Set<string>): ChatMessage[] | null {
  const shaped = items.map((item) => {
    if (!isRecord(item)) return null;
    if (typeof item.role === 'string') return item;
    if (isToolCallItem(item)) return { role: 'assistant', parts: [{ ...item, type: 'tool_call' }] };
    if (item.type === 'function_call_output') return { role: 'tool', parts: [{ type: 'tool_call_response', id: item.call_id, response: item.output }] };
    if (item.type === 'reasoning') return { role: 'assistant', parts: [] };
    return null;
  });
  if (shaped.some((m) => m === null)) return null;
  return chatMessagesFrom(shaped, notes);
}

/** Gemini `{contents, config: {system_instruction}}` → messages, the system instruction first. */
function geminiRequest(value: Record<string, unknown>, notes: Set<string>): ChatMessage[] | null {
  const messages = chatMessagesFrom(value.contents, notes);
  if (!messages) return null;
  const config = isRecord(value.config) ? value.config : {};
  const system = systemMessageFrom(config.system_instruction ?? config.systemInstruction ?? value.system_instruction, notes);
  return system ? [system, ...messages] : messages;
}

/** A recorded input value → chat messages, or null when it is no known request shape. */
export function vendorMessages(value: unknown, notes: Set<string>): ChatMessage[] | null {
  if (typeof value === 'string') return value ? [{ role: 'user', content: value }] : null;
  if (Array.isArray(value)) return chatMessagesFrom(value, notes) ?? responsesInput(value, notes);
  if (!isRecord(value)) return null;
  if (Array.isArray(value.contents)) return geminiRequest(value, notes);
  if (Array.isArray(value.messages)) {
    const messages = chatMessagesFrom(value.messages, notes);
    const system = systemMessageFrom(value.system, notes);
    return messages && system ? [system, ...messages] : messages;
  }
  if (Array.isArray(value.input)) return responsesInput(value.input, notes);
  // One message on its own (Claude Agent SDK turns): `{role, content}`; without a role it is the user's.
  if ('content' in value) return chatMessagesFrom([{ role: 'user', ...value }], notes);
  if (typeof value.prompt === 'string') return [{ role: 'user', content: value.prompt }];
  return null;
}

const finishOf = (v: Record<string, unknown>): string | undefined => {
  const word = v.finish_reason ?? v.finishReason ?? v.stop_reason;
  return typeof word === 'string' ? word : undefined;
};

/** Responses API `output` items: message texts joined, function calls and reasoning summaries kept apart. */
function responsesOutput(value: Record<string, unknown>, items: readonly unknown[], notes: Set<string>): RecordedOutput {
  const texts: string[] = [];
  const reasoning: string[] = [];
  const toolCalls: ToolCall[] = [];
  for (const item of items) {
    if (!isRecord(item)) continue;
    if (isToolCallItem(item)) {
      const call = toolCallFrom(item);
      if (call) toolCalls.push(call);
    } else if (item.type === 'reasoning' && Array.isArray(item.summary)) {
      for (const s of item.summary) if (isRecord(s) && typeof s.text === 'string') reasoning.push(s.text);
    } else if (item.type === 'message' || typeof item.role === 'string') {
      const out = outputMessage(item, notes);
      if (out.text) texts.push(out.text);
      toolCalls.push(...out.toolCalls);
    }
  }
  const incomplete = isRecord(value.incomplete_details) ? value.incomplete_details.reason : undefined;
  return {
    text: texts.join('\n'), toolCalls,
    ...(reasoning.length ? { reasoning: reasoning.join('\n') } : {}),
    ...(typeof incomplete === 'string' ? { finish: incomplete } : {}),
  };
}

/** A recorded output value → text, tool calls, reasoning and finish word, or null when it is no known reply shape. */
export function vendorOutput(value: unknown, notes: Set<string>): RecordedOutput | null {
  if (typeof value === 'string') return { text: value, toolCalls: [] };
  if (Array.isArray(value)) {
    // Vercel AI SDK: the reply is the list of its tool calls.
    if (value.length > 0 && value.every(isToolCallItem)) return { text: '', toolCalls: value.map(toolCallFrom).filter((c): c is ToolCall => c !== null) };
    return outputFrom(value, notes);
  }
  if (!isRecord(value)) return null;
  const withFinish = (out: RecordedOutput, from: Record<string, unknown>): RecordedOutput => {
    const finish = finishOf(from);
    return finish && !out.finish ? { ...out, finish } : out;
  };
  if (Array.isArray(value.choices)) {
    if (value.choices.length > 1) notes.add('only the first of several output choices was imported');
    const first: unknown = value.choices[0];
    return isRecord(first) && isRecord(first.message) ? withFinish(outputMessage(first.message, notes), first) : null;
  }
  if (Array.isArray(value.candidates)) {
    const first: unknown = value.candidates[0];
    return isRecord(first) && isRecord(first.content) ? withFinish(outputMessage(first.content, notes), first) : null;
  }
  if (Array.isArray(value.output)) return responsesOutput(value, value.output, notes);
  // A choice (`{index, message}`) or a Gemini candidate (`{content: {parts}}`).
  if (isRecord(value.message)) return withFinish(outputMessage(value.message, notes), value);
  if (isRecord(value.content)) return withFinish(outputMessage(value.content, notes), value);
  if ('content' in value || 'parts' in value || 'tool_calls' in value) return withFinish(outputMessage(value, notes), value);
  if (typeof value.text === 'string') return withFinish({ text: value.text, toolCalls: [] }, value);
  return null;
}
