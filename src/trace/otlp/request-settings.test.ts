import { describe, expect, it } from 'vitest';
import { readCorpus } from '../../testing/corpus.ts';
import { mapLlmAttributes } from './conventions.ts';
import { langfuseSettingsOf, requestSettingsOf } from './request-settings.ts';

/**
 * The request settings an import keeps for a rerun, from the corpus's real attribute maps and
 * from the keys each convention documents (hand-built where the corpus has no capture).
 */
const corpusAttrs = (name: string) => JSON.parse(readCorpus(`traces/openinference/${name}.attributes.json`)) as Record<string, unknown>;

describe('request settings as the conventions record them', () => {
  it('OpenInference: the body in input.value and llm.invocation_parameters, keys as the body had them', () => {
    const call = mapLlmAttributes(corpusAttrs('openinference_client_span_tool_calls'));
    expect(call?.request).toEqual({ model: 'gpt-4', temperature: 0.5, top_p: 0.9, max_completion_tokens: 200 });
  });

  it('OTel GenAI: one attribute per setting, under the request body’s name', () => {
    expect(mapLlmAttributes(corpusAttrs('otel_genai_client_span_tool_calls'))?.request).toEqual({ top_p: 0.9 });
    const call = mapLlmAttributes({
      'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4o', 'gen_ai.request.seed': 7, 'gen_ai.request.stop_sequences': ['END'],
      'gen_ai.request.frequency_penalty': 0.5, 'gen_ai.request.choice.count': 2, 'gen_ai.output.type': 'json',
      'gen_ai.tool.definitions': JSON.stringify([{ type: 'function', name: 'lookup', parameters: { type: 'object' } }]),
    });
    expect(call?.request).toEqual({ seed: 7, stop: ['END'], frequency_penalty: 0.5, n: 2, tools: [{ type: 'function', name: 'lookup', parameters: { type: 'object' } }], response_format: 'json' });
  });

  it('OpenLit 1.27 (a real span): unset values ("" seed, -1 cap) are left out', () => {
    const span = (JSON.parse(readCorpus('traces/otlp/openlit-1.27-openai-chat.otlp.json')) as { resourceSpans: { scopeSpans: { spans: { attributes: { key: string; value: Record<string, unknown> }[] }[] }[] }[] }).resourceSpans[0]?.scopeSpans[0]?.spans[0];
    const attrs = Object.fromEntries((span?.attributes ?? []).map((a) => [a.key, Object.values(a.value)[0]]));
    expect(requestSettingsOf(attrs)).toEqual({ top_p: 1, frequency_penalty: 0, presence_penalty: 0 });
  });

  it('OpenLLMetry functions and the Vercel AI SDK’s settings, tools, tool choice and wrapper schema', () => {
    expect(requestSettingsOf({ 'llm.request.functions.0.name': 'lookup', 'llm.request.functions.0.parameters': '{"type":"object"}', 'llm.is_streaming': true })).toEqual({
      tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }],
    });
    const schema = { type: 'object', properties: { name: { type: 'string' } } };
    expect(requestSettingsOf(
      { 'ai.settings.topP': 0.8, 'ai.settings.seed': 3, 'ai.prompt.tools': ['{"type":"function","name":"weather","inputSchema":{"type":"object"}}'], 'ai.prompt.toolChoice': '{"type":"tool","toolName":"weather"}' },
      { 'ai.schema': JSON.stringify(schema), 'ai.schema.name': 'recipe' },
    )).toEqual({
      top_p: 0.8, seed: 3, tools: [{ type: 'function', name: 'weather', inputSchema: { type: 'object' } }], tool_choice: { type: 'tool', toolName: 'weather' },
      response_format: { type: 'json_schema', json_schema: { name: 'recipe', schema } },
    });
  });

  it('nothing recorded: undefined, so a rerun says it could not check', () => {
    expect(mapLlmAttributes(corpusAttrs('otel_genai_deprecated_client_span_tool_calls'))?.request).toEqual({ top_p: 0.9 });
    expect(requestSettingsOf({ 'gen_ai.request.model': 'gpt-4o' })).toBeUndefined();
  });

  it('keeps no client setting that can carry a credential', () => {
    expect(requestSettingsOf({ 'llm.invocation_parameters': JSON.stringify({ api_key: 'sk-live-0123456789abcdef', http_options: { headers: { authorization: 'Bearer x' } }, top_p: 0.5 }) })).toEqual({ top_p: 0.5 });
    expect(langfuseSettingsOf({ apiKey: 'sk-live-0123456789abcdef', seed: 1 })).toEqual({ seed: 1 });
  });

  it('Langfuse modelParameters: JSON texts read, nulls dropped', () => {
    expect(langfuseSettingsOf({ toolChoice: '{"type":"auto"}', maxTokens: null, top_p: 1, parallel_tool_calls: 'true' })).toEqual({ toolChoice: { type: 'auto' }, top_p: 1, parallel_tool_calls: true });
    expect(langfuseSettingsOf({ maxTokens: null })).toBeUndefined();
  });
});
