import { describe, expect, it } from 'vitest';
import { stepRegistry } from '../../steps/index.ts';
import { buildRunView } from '../replay.ts';
import { importOtlpTrace } from './import.ts';
import { mapLlmAttributes } from './conventions.ts';
import { attributes, type AttrValue } from './otlp-json.ts';

/**
 * Span shapes as the exporters named in #16 write them, hand-built from the keys each library
 * documents (these are not captures; the captures are in import-corpus.test.ts and
 * otel-capture.test.ts): enum names as protobuf's JSON mapping writes them, OpenInference
 * finish reasons, LiteLLM's tool call keys, cached and reasoning token counts.
 */
function file(attrs: Record<string, AttrValue>, name = 'litellm_request') {
  return JSON.stringify({
    resourceSpans: [{
      resource: { attributes: attributes({ 'service.name': 'svc' }) },
      scopeSpans: [{
        scope: { name: 'x' },
        spans: [{
          traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', name, kind: 'SPAN_KIND_CLIENT',
          startTimeUnixNano: '1700000000000000000', endTimeUnixNano: '1700000001000000000',
          attributes: attributes(attrs), status: { code: 'STATUS_CODE_OK' },
        }],
      }],
    }],
  });
}

function imported(text: string) {
  const result = importOtlpTrace(text, stepRegistry);
  if (!result.ok) throw new Error(result.message);
  const view = buildRunView(result.run, result.events, stepRegistry);
  return { ...result, view, record: view.steps[0]?.attempts[0]?.record };
}

const weatherCall = { id: 'call_abc', name: 'get_weather', arguments: '{"city": "Paris"}' };

describe('LiteLLM: the tool call in gen_ai.completion.0.function_call beside empty output parts', () => {
  const attrs = {
    'gen_ai.operation.name': 'chat', 'gen_ai.system': 'openai', 'gen_ai.request.model': 'gpt-4o',
    'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'Weather in Paris?' }] }]),
    'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [], finish_reason: 'tool_calls' }]),
    'gen_ai.completion.0.finish_reason': 'tool_calls', 'gen_ai.completion.0.role': 'assistant',
    'gen_ai.completion.0.function_call.name': 'get_weather', 'gen_ai.completion.0.function_call.arguments': '{"city": "Paris"}',
    'gen_ai.usage.input_tokens': 40, 'gen_ai.usage.output_tokens': 12,
  };

  it('becomes a tool call on the attempt, not an empty text', () => {
    const { record, view, warnings } = imported(file(attrs));
    expect(record).toMatchObject({ text: '', toolCalls: [{ id: '', name: 'get_weather', arguments: '{"city": "Paris"}' }], finishReason: 'tool_calls', rawFinishReason: 'tool_calls' });
    expect(view.steps[0]?.output).toEqual([{ id: '', name: 'get_weather', arguments: { city: 'Paris' } }]);
    expect(warnings).toEqual([]);
  });

  it('without the function_call keys the span has no recoverable output: a warning, and no empty text stored', () => {
    const bare: Record<string, AttrValue> = { ...attrs };
    delete bare['gen_ai.completion.0.function_call.name'];
    delete bare['gen_ai.completion.0.function_call.arguments'];
    const { record, view, warnings } = imported(file(bare));
    expect(record?.text).toBeUndefined();
    expect(record?.toolCalls).toBeUndefined();
    expect(view.steps[0]?.output).toBeUndefined();
    expect(warnings).toEqual([expect.stringMatching(/^no output text or tool call could be recovered from 1 LLM span\(s\): "litellm_request"; their steps have no output/)]);
  });
});

describe('OpenInference finish reasons', () => {
  const base = {
    'openinference.span.kind': 'LLM', 'llm.model_name': 'gpt-4o-mini', 'llm.provider': 'openai',
    'llm.input_messages.0.message.role': 'user', 'llm.input_messages.0.message.content': 'Say hi',
    'llm.output_messages.0.message.role': 'assistant', 'llm.output_messages.0.message.content': 'Hi!',
  };

  it('reads llm.finish_reason', () => {
    expect(mapLlmAttributes({ ...base, 'llm.finish_reason': 'length' })).toMatchObject({ text: 'Hi!', finishReason: 'length', rawFinishReason: 'length' });
  });

  it('reads the first choice of an OpenAI body in output.value, its tool calls too', () => {
    const body = { id: 'x', object: 'chat.completion', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'Hi!' } }] };
    expect(mapLlmAttributes({ ...base, 'output.value': JSON.stringify(body), 'output.mime_type': 'application/json' })).toMatchObject({ text: 'Hi!', finishReason: 'stop' });
    const tool = { choices: [{ finish_reason: 'tool_calls', message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_abc', type: 'function', function: { name: 'get_weather', arguments: '{"city": "Paris"}' } }] } }] };
    const call = mapLlmAttributes({ 'openinference.span.kind': 'LLM', 'input.value': 'Weather?', 'output.value': JSON.stringify(tool) });
    expect(call).toMatchObject({ text: '', toolCalls: [weatherCall], finishReason: 'tool_calls' });
  });

  it('reads flattened output tool calls into the attempt, not into the text', () => {
    const call = mapLlmAttributes({
      ...base, 'llm.output_messages.0.message.content': undefined,
      'llm.output_messages.0.message.tool_calls.0.tool_call.id': 'call_abc',
      'llm.output_messages.0.message.tool_calls.0.tool_call.function.name': 'get_weather',
      'llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments': '{"city": "Paris"}',
    });
    expect(call).toMatchObject({ text: '', toolCalls: [weatherCall] });
  });
});

describe('cached and reasoning token counts', () => {
  it.each([
    ['OTel GenAI', { 'gen_ai.usage.cache_read.input_tokens': 30, 'gen_ai.usage.reasoning.output_tokens': 7 }],
    ['OpenInference', { 'llm.token_count.prompt_details.cache_read': 30, 'llm.token_count.completion_details.reasoning': 7 }],
    ['OpenLLMetry', { 'gen_ai.usage.cache_read_input_tokens': 30, 'gen_ai.usage.reasoning_tokens': 7 }],
    ['Vercel AI SDK', { 'ai.usage.cachedInputTokens': 30, 'ai.usage.reasoningTokens': 7 }],
  ])('%s keys reach the usage of the attempt and of the run', (_, counts) => {
    const { record, run } = imported(file({
      'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'o4-mini', 'gen_ai.usage.input_tokens': 100, 'gen_ai.usage.output_tokens': 20,
      'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [{ type: 'reasoning', content: 'Think first.' }, { type: 'text', content: 'Done.' }] }]),
      ...counts,
    }, 'chat o4-mini'));
    expect(record).toMatchObject({ text: 'Done.', reasoning: 'Think first.', usage: { inputTokens: 100, outputTokens: 20, cachedInputTokens: 30, reasoningTokens: 7 } });
    expect(run.usage).toEqual({ inputTokens: 100, outputTokens: 20, cachedInputTokens: 30, reasoningTokens: 7 });
  });

  it('stay absent when the trace does not report them', () => {
    const { record } = imported(file({ 'gen_ai.operation.name': 'chat', 'gen_ai.usage.input_tokens': 1, 'gen_ai.usage.output_tokens': 2, 'gen_ai.completion': 'ok' }));
    expect(record?.usage).toEqual({ inputTokens: 1, outputTokens: 2 });
  });
});

describe('GenAI message events (conventions up to 1.36) as span events', () => {
  it('gen_ai.*.message events are the prompt, gen_ai.choice the reply with its finish reason and tool calls', () => {
    const call = mapLlmAttributes({ 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4o' }, [
      { name: 'gen_ai.system.message', attrs: { content: 'Be brief.' } },
      { name: 'gen_ai.user.message', attrs: { content: 'Weather in Paris?' } },
      { name: 'gen_ai.choice', attrs: { index: 0, finish_reason: 'tool_calls', message: JSON.stringify({ role: 'assistant', tool_calls: [{ id: 'call_abc', type: 'function', function: { name: 'get_weather', arguments: '{"city": "Paris"}' } }] }) } },
    ]);
    expect(call).toMatchObject({
      messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Weather in Paris?' }],
      text: '', toolCalls: [weatherCall], finishReason: 'tool_calls', conventions: ['otel-genai', 'otel-genai-deprecated'],
    });
  });

  it('content that happens to be JSON-like text stays text', () => {
    const call = mapLlmAttributes({ 'gen_ai.operation.name': 'chat' }, [
      { name: 'gen_ai.user.message', attrs: { content: '42' } },
      { name: 'gen_ai.choice', attrs: { message: JSON.stringify({ role: 'assistant', content: 'true' }) } },
    ]);
    expect(call).toMatchObject({ messages: [{ role: 'user', content: '42' }], text: 'true' });
  });
});
