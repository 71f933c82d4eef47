import { randomId } from './mock-validate.ts';
import { splitDeltas, type MockCall, type MockCompletion, type SseEventOut } from './mock-types.ts';

/**
 * The chat completion as the mock renders it, body and stream: `n` choices, tool calls
 * (`message.tool_calls`, streamed as `delta.tool_calls` fragments joined by index), and the
 * `reasoning_content` OpenAI-compatible servers such as DeepSeek add (only when scripted).
 */

const FINGERPRINT = 'fp_seamscope_mock';

export function toolCallId(): string {
  return randomId('call_', 24);
}

function finishReasonOf(call: MockCall, out: MockCompletion): string {
  // A refusal is reported in `message.refusal`; the turn itself still ends with `stop`.
  if (out.finish === 'refusal') return 'stop';
  // A call forced by naming the function ends with `stop`, not `tool_calls` (as the API does,
  // reported by users of forced function calls): clients must read the calls, not the reason.
  if (out.finish === 'tool_calls' && call.toolChoice.type === 'tool') return 'stop';
  return out.finish;
}

function usageOf(call: MockCall, out: MockCompletion): Record<string, unknown> {
  // Every choice is generated (and billed) apart; the prompt is read once.
  const completion = out.outputTokens * call.choices;
  return {
    prompt_tokens: out.inputTokens,
    completion_tokens: completion,
    total_tokens: out.inputTokens + completion,
    prompt_tokens_details: { cached_tokens: out.cachedInputTokens, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: out.reasoningTokens * call.choices, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

export function completionBody(call: MockCall, out: MockCompletion): Record<string, unknown> {
  const refused = out.refusal !== null;
  const toolCalls = out.toolCalls.map((t) => ({ id: t.id, type: 'function', function: { name: t.name, arguments: t.arguments } }));
  const message: Record<string, unknown> = {
    role: 'assistant',
    content: refused || (toolCalls.length > 0 && !out.text) ? null : out.text,
    refusal: out.refusal,
    annotations: [],
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
    ...(out.reasoning ? { reasoning_content: out.reasoning } : {}),
  };
  return {
    id: randomId('chatcmpl-', 29),
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: call.model,
    choices: range(call.choices).map((index) => ({ index, message, logprobs: null, finish_reason: finishReasonOf(call, out) })),
    usage: usageOf(call, out),
    service_tier: 'default',
    system_fingerprint: FINGERPRINT,
  };
}

export function completionEvents(call: MockCall, out: MockCompletion): SseEventOut[] {
  const id = randomId('chatcmpl-', 29);
  const created = Math.floor(Date.now() / 1000);
  // Earlier chunks carry `usage: null` only when the final usage chunk was asked for.
  const base = () => ({ id, object: 'chat.completion.chunk', created, model: call.model, service_tier: 'default', system_fingerprint: FINGERPRINT, ...(call.includeUsage ? { usage: null } : {}) });
  const events: SseEventOut[] = [];
  for (const index of range(call.choices)) {
    const push = (delta: Record<string, unknown>, finish: string | null = null) =>
      events.push({ data: JSON.stringify({ ...base(), choices: [{ index, delta, logprobs: null, finish_reason: finish }] }) });
    push({ role: 'assistant', content: '', refusal: null });
    if (out.reasoning) for (const piece of splitDeltas(out.reasoning)) push({ reasoning_content: piece });
    const key = out.refusal !== null ? 'refusal' : 'content';
    for (const piece of splitDeltas(out.refusal ?? out.text)) push({ [key]: piece });
    out.toolCalls.forEach((t, i) => {
      // The first fragment names the call; the rest carry only argument pieces, by index.
      push({ tool_calls: [{ index: i, id: t.id, type: 'function', function: { name: t.name, arguments: '' } }] });
      for (const piece of splitDeltas(t.arguments, 12)) push({ tool_calls: [{ index: i, function: { arguments: piece } }] });
    });
    push({}, finishReasonOf(call, out));
  }
  if (call.includeUsage) events.push({ data: JSON.stringify({ ...base(), choices: [], usage: usageOf(call, out) }) });
  return events;
}
