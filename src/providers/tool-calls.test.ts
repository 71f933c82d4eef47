import { describe, expect, it } from 'vitest';
import { protocolValidators } from '../testing/corpus.ts';
import { buildAnthropicBody } from './anthropic.ts';
import { buildOpenAIBody } from './openai.ts';
import { ToolCallAssembler } from './tool-calls.ts';
import type { ModelRequest, ToolChoice } from './types.ts';

const request: ModelRequest = {
  model: 'm', maxTokens: 100, messages: [{ role: 'user', content: 'Route it.' }],
  tools: [{ name: 'route', description: 'Pick a queue', parameters: { type: 'object', properties: { queue: { type: 'string' } }, required: ['queue'], additionalProperties: false }, strict: true }],
};
const v = protocolValidators();

describe('tools in request bodies', () => {
  it.each<[ToolChoice | undefined, unknown, unknown]>([
    [undefined, undefined, undefined],
    ['auto', undefined, undefined],
    ['required', 'required', { type: 'any' }],
    [{ name: 'route' }, { type: 'function', function: { name: 'route' } }, { type: 'tool', name: 'route' }],
  ])('choice %j: each protocol in its own shape, valid against the corpus schema', (toolChoice, openaiChoice, anthropicChoice) => {
    const openai = buildOpenAIBody({ ...request, toolChoice }, {});
    expect(openai.tools).toEqual([{ type: 'function', function: { name: 'route', description: 'Pick a queue', parameters: request.tools![0]!.parameters, strict: true } }]);
    expect(openai.tool_choice).toEqual(openaiChoice);
    expect(v.openai.request(openai), v.openai.request.errors()).toBe(true);
    const anthropic = buildAnthropicBody({ ...request, toolChoice }, {});
    expect(anthropic.tools).toEqual([{ name: 'route', description: 'Pick a queue', input_schema: request.tools![0]!.parameters }]);
    expect(anthropic.tool_choice).toEqual(anthropicChoice);
    expect(v.anthropic.request(anthropic), v.anthropic.request.errors()).toBe(true);
  });

  it('no tools, no tool fields', () => {
    expect(buildOpenAIBody({ ...request, tools: [] }, {})).not.toHaveProperty('tools');
    expect(buildAnthropicBody({ ...request, tools: undefined }, {})).not.toHaveProperty('tool_choice');
  });
});

describe('ToolCallAssembler', () => {
  it('joins fragments by index, in index order, keeping the first id and name', () => {
    const a = new ToolCallAssembler();
    a.add(2, { id: 'call_b', name: 'second', arguments: '{"x"' });
    a.add(1, { id: 'call_a', name: 'first', arguments: '' });
    a.add(2, { name: 'second', arguments: ':1}' });
    a.add(1, { arguments: '{}' });
    expect(a.list()).toEqual([{ id: 'call_a', name: 'first', arguments: '{}' }, { id: 'call_b', name: 'second', arguments: '{"x":1}' }]);
  });
});
