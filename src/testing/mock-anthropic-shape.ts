import { randomId } from './mock-validate.ts';
import { splitDeltas, type MockCall, type MockCompletion, type SseEventOut } from './mock-types.ts';

/**
 * The Anthropic Message as the mock renders it, body and stream. Under 2023-06-01 it has the
 * shape of the recorded responses (corpus anthropic-recorded/*.response.json); under
 * 2026-10-21 it carries every field @anthropic-ai/sdk 1.x types as present-but-nullable
 * (`container`, `diagnostics`, `stop_details`, `usage.output_tokens_details`,
 * `usage.server_tool_use`, `usage.speed`, text `citations`, tool_use `caller`), each null
 * unless the answer fills it. That split is what the two sources show, not a documented rule.
 */

export function requestId(): string {
  return randomId('req_011C', 20);
}

export function anthropicError(type: string, message: string): Record<string, unknown> {
  return { type: 'error', error: { type, message }, request_id: requestId() };
}

function messageId(): string {
  return randomId('msg_01', 22);
}

export function toolUseId(): string {
  return randomId('toolu_01', 22);
}

export function stopReasonOf(out: MockCompletion): string {
  switch (out.finish) {
    case 'length':
      return 'max_tokens';
    case 'tool_calls':
      return 'tool_use';
    // No content-filter stop exists here: Anthropic's classifiers answer with a refusal.
    case 'refusal':
    case 'content_filter':
      return 'refusal';
    default:
      return 'end_turn';
  }
}

function stopDetailsOf(out: MockCompletion): Record<string, unknown> | null {
  if (stopReasonOf(out) !== 'refusal') return null;
  return { type: 'refusal', category: null, explanation: out.refusal ?? out.text };
}

const isCurrent = (call: MockCall) => call.apiVersion === '2026-10-21';

/** A thinking block's signature: opaque to clients, which must send it back unchanged. */
function signature(): string {
  return randomId('', 64);
}

function usageOf(call: MockCall, out: MockCompletion, outputTokens: number): Record<string, unknown> {
  const usage: Record<string, unknown> = {
    input_tokens: out.inputTokens - out.cachedInputTokens,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: out.cachedInputTokens,
    cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
    output_tokens: outputTokens,
    service_tier: 'standard',
    inference_geo: 'not_available',
  };
  if (isCurrent(call)) {
    usage.output_tokens_details = out.reasoningTokens > 0 ? { thinking_tokens: out.reasoningTokens } : null;
    usage.server_tool_use = null;
    usage.speed = null;
  }
  return usage;
}

function textBlock(call: MockCall, text: string): Record<string, unknown> {
  return isCurrent(call) ? { type: 'text', text, citations: null } : { type: 'text', text };
}

function toolBlock(call: MockCall, id: string, name: string, input: unknown): Record<string, unknown> {
  return { type: 'tool_use', id, name, input, ...(isCurrent(call) ? { caller: { type: 'direct' } } : {}) };
}

function parsedInput(args: string): unknown {
  try {
    return JSON.parse(args) as unknown;
  } catch {
    // The body form needs an object; a script that sends broken JSON gets it as a string.
    return args;
  }
}

function envelope(call: MockCall, out: MockCompletion, content: unknown[], streaming: boolean): Record<string, unknown> {
  return {
    model: call.model,
    id: messageId(),
    type: 'message',
    role: 'assistant',
    content,
    ...(isCurrent(call) ? { container: null, diagnostics: null } : {}),
    stop_reason: streaming ? null : stopReasonOf(out),
    stop_sequence: null,
    ...(isCurrent(call) || (!streaming && stopDetailsOf(out)) ? { stop_details: streaming ? null : stopDetailsOf(out) } : {}),
    usage: usageOf(call, out, streaming ? Math.min(1, out.outputTokens) : out.outputTokens),
  };
}

export function messageBody(call: MockCall, out: MockCompletion): Record<string, unknown> {
  const content: unknown[] = [];
  if (out.reasoning) content.push({ type: 'thinking', thinking: out.reasoning, signature: signature() });
  if (out.text) content.push(textBlock(call, out.text));
  for (const t of out.toolCalls) content.push(toolBlock(call, t.id, t.name, parsedInput(t.arguments)));
  return envelope(call, out, content, false);
}

export function messageEvents(call: MockCall, out: MockCompletion): SseEventOut[] {
  const events: SseEventOut[] = [];
  const push = (payload: { type: string } & Record<string, unknown>) => events.push({ event: payload.type, data: JSON.stringify(payload) });
  push({ type: 'message_start', message: envelope(call, out, [], true) });
  let index = 0;
  const block = (start: Record<string, unknown>, deltas: Record<string, unknown>[]) => {
    push({ type: 'content_block_start', index, content_block: start });
    if (index === 0) push({ type: 'ping' });
    for (const delta of deltas) push({ type: 'content_block_delta', index, delta });
    push({ type: 'content_block_stop', index });
    index++;
  };
  if (out.reasoning) {
    block({ type: 'thinking', thinking: '', signature: '' }, [
      ...splitDeltas(out.reasoning).map((thinking) => ({ type: 'thinking_delta', thinking })),
      { type: 'signature_delta', signature: signature() },
    ]);
  }
  if (out.text) block(textBlock(call, ''), splitDeltas(out.text).map((text) => ({ type: 'text_delta', text })));
  for (const t of out.toolCalls) {
    // As recorded (anthropic-json-tool.1.chunks.jsonl): the block starts with `input: {}` and an empty first fragment.
    block(toolBlock(call, t.id, t.name, {}), ['', ...splitDeltas(t.arguments, 12)].map((partial_json) => ({ type: 'input_json_delta', partial_json })));
  }
  if (index === 0) push({ type: 'ping' });
  const details = stopDetailsOf(out);
  push({
    type: 'message_delta',
    delta: { stop_reason: stopReasonOf(out), stop_sequence: null, ...(details || isCurrent(call) ? { stop_details: details } : {}), ...(isCurrent(call) ? { container: null } : {}) },
    usage: { output_tokens: out.outputTokens },
  });
  push({ type: 'message_stop' });
  return events;
}
