import { describe, expect, it } from 'vitest';
import { readCorpus } from '../../testing/corpus.ts';
import { indexed, mapLlmAttributes } from './conventions.ts';
import { finishFromRecorded, messagesFromRoleText } from './messages.ts';

/** The paired attribute maps: one LLM call recorded in different conventions. */
const pair = (name: string) => JSON.parse(readCorpus(`traces/openinference/${name}.attributes.json`)) as Record<string, unknown>;

// Seamscope messages are role + text: the tool call and the tool result become visible text lines.
const expectedMessages = [
  { role: 'user', content: 'Weather in Paris?' },
  { role: 'assistant', content: 'Absolutely! Let me check the weather for you.\n[tool call get_weather id=1234] {"location":"Paris"}' },
  { role: 'user', content: '[tool result id=1234] rainy, 57°F' },
];
const expectedText = 'The weather in Paris is currently rainy with a temperature of 57°F.';

describe('mapLlmAttributes (the conventions mapper)', () => {
  it.each([
    ['otel_genai_client_span_tool_calls', ['otel-genai'], 'gpt-4'],
    ['otel_genai_deprecated_client_span_tool_calls', ['otel-genai', 'otel-genai-deprecated'], 'gpt-4'],
    ['openinference_client_span_tool_calls', ['openinference'], 'gpt-4'],
    ['openinference_client_span_input_output_only', ['openinference'], 'gpt-4'],
  ])('%s maps to the same messages, output and usage', (file, conventions, model) => {
    const call = mapLlmAttributes(pair(file));
    expect(call).not.toBeNull();
    expect(call?.messages).toEqual(expectedMessages);
    expect(call?.text).toBe(expectedText);
    expect(call?.output).toBe(expectedText);
    expect(call).toMatchObject({ finishReason: 'stop', rawFinishReason: 'stop', usage: { inputTokens: 97, outputTokens: 52 }, provider: 'openai', model, structured: false });
    expect(call?.conventions).toEqual(conventions);
    expect(call?.notes).toEqual(expect.arrayContaining(['tool calls were rendered as text lines', 'tool messages were imported as user messages']));
  });

  it('reads an OpenAI-style request body (tool_calls, tool_call_id) to the same messages', () => {
    const call = mapLlmAttributes({
      'openinference.span.kind': 'LLM',
      'input.value': JSON.stringify({ model: 'gpt-4', messages: [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: 'Absolutely! Let me check the weather for you.', tool_calls: [{ id: '1234', type: 'function', function: { name: 'get_weather', arguments: '{"location": "Paris"}' } }] },
        { role: 'tool', tool_call_id: '1234', content: 'rainy, 57°F' },
      ] }),
      'output.value': expectedText,
    });
    expect(call).toMatchObject({ messages: expectedMessages, text: expectedText });
  });

  it('reads request parameters from each generation of keys', () => {
    expect(mapLlmAttributes(pair('otel_genai_client_span_tool_calls'))).toMatchObject({ maxTokens: 200, temperature: 0.5, responseModel: 'gpt-4-0613' });
    // OpenInference keeps them inside llm.invocation_parameters (max_completion_tokens here).
    expect(mapLlmAttributes(pair('openinference_client_span_tool_calls'))).toMatchObject({ maxTokens: 200, temperature: 0.5, responseModel: 'gpt-4-0613' });
  });

  it('is not fooled by non-LLM spans', () => {
    expect(mapLlmAttributes(pair('otel_genai_tool_execution_span'))).toBeNull();
    expect(mapLlmAttributes({ 'openinference.span.kind': 'CHAIN', 'input.value': 'hi', 'output.value': 'there' })).toBeNull();
    expect(mapLlmAttributes({ 'ai.operationId': 'ai.generateText', 'ai.response.text': 'wrapped' })).toBeNull();
    expect(mapLlmAttributes({ 'gen_ai.operation.name': 'embeddings', 'gen_ai.request.model': 'text-embedding-3-small' })).toBeNull();
    expect(mapLlmAttributes({ 'http.method': 'POST', 'service.name': 'x' })).toBeNull();
  });

  it('reads the current convention from the operation-details event and joins system instructions', () => {
    const call = mapLlmAttributes({ 'gen_ai.operation.name': 'chat' }, [{
      name: 'gen_ai.client.inference.operation.details',
      attrs: {
        'gen_ai.system_instructions': JSON.stringify([{ type: 'text', content: 'Be brief.' }]),
        'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'Hi' }] }]),
        'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: '{"ok":true}' }], finish_reason: 'length' }]),
        'gen_ai.output.type': 'json',
      },
    }]);
    expect(call).toMatchObject({ messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hi' }], text: '{"ok":true}', output: { ok: true }, structured: true, finishReason: 'length' });
  });

  it('keeps hostile attribute values as data', () => {
    const call = mapLlmAttributes({
      'gen_ai.operation.name': 'chat',
      'gen_ai.input.messages': '{"__proto__": {"polluted": true}}',
      'gen_ai.prompt.999999.content': 'far index', 'gen_ai.prompt.999999.role': 'user',
      'gen_ai.completion.0.content': 'ok',
    });
    expect(call?.messages).toEqual([{ role: 'user', content: 'far index' }]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('helpers', () => {
  it('groups indexed keys in numeric order', () => {
    expect(indexed({ 'p.10.a': 1, 'p.2.a': 2, 'p.2.b': 3, 'q.0.a': 4, 'p.x.a': 5 }, 'p.').map((g) => ({ ...g }))).toEqual([{ a: 2, b: 3 }, { a: 1 }]);
  });

  it('normalises finish words from every protocol', () => {
    expect(['stop', 'end_turn', 'STOP', 'max_tokens', 'length', 'tool-calls', 'tool_use', 'content-filter', 'SAFETY', 'refusal', 'pause_turn'].map(finishFromRecorded))
      .toEqual(['stop', 'stop', 'stop', 'length', 'length', 'tool_calls', 'tool_calls', 'content_filter', 'content_filter', 'refusal', 'other']);
  });

  it('splits OpenLit "role: content" prompt text into messages', () => {
    expect(messagesFromRoleText('system: Be brief.\nuser: Line one\nline two')).toEqual([{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Line one\nline two' }]);
    expect(messagesFromRoleText('no role prefix')).toEqual([{ role: 'user', content: 'no role prefix' }]);
  });
});
