import { describe, expect, it } from 'vitest';
import type { AttemptRecord } from './events.ts';
import { confirmSent, rerunRequestOf } from './recorded-request.ts';

const endpoint = { maxOutputTokens: 512, structuredOutput: true };
const answerSchema = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'], additionalProperties: false };

function record(over: Omit<Partial<AttemptRecord>, 'params'> & { params?: Partial<AttemptRecord['params']> } = {}): AttemptRecord {
  const { params, ...rest } = over;
  return { messages: [{ role: 'user', content: 'Hi' }], segments: [], params: { model: 'gpt-4o', maxTokens: 0, structured: false, stream: false, ...params }, errors: [], latencyMs: 1, configHash: '', ...rest };
}

describe('what a rerun sends again of an OpenAI-shaped recorded request', () => {
  const recordedRequest = {
    model: 'gpt-4o', temperature: 0.2, max_tokens: 300,
    response_format: { type: 'json_schema', json_schema: { name: 'answer', schema: answerSchema, strict: true } },
    tools: [{ type: 'function', function: { name: 'lookup', description: 'Look a policy up', parameters: { type: 'object', properties: { q: { type: 'string' } } } } }],
    tool_choice: { type: 'function', function: { name: 'lookup' } },
    stream: true, stream_options: { include_usage: true },
    top_p: 0.9, seed: 7, logit_bias: { 50256: -100 }, n: 2, user: '',
  };

  it('sends the output contract, the tools, the tool choice, streaming and sampling; names every other setting with its value', () => {
    const r = rerunRequestOf(record({ recordedRequest, params: { maxTokens: 300, temperature: 0.2 } }), endpoint);
    expect(r.contract).toEqual({ name: 'answer', schema: answerSchema, strict: true });
    expect(r.tools).toEqual([{ name: 'lookup', description: 'Look a policy up', parameters: { type: 'object', properties: { q: { type: 'string' } } } }]);
    expect(r.toolChoice).toEqual({ name: 'lookup' });
    expect(r).toMatchObject({ stream: true, maxTokens: 300, temperature: 0.2, sampling: { topP: 0.9, seed: 7 } });
    expect(r.fidelity).toEqual({
      sent: ['max_tokens 300', 'temperature 0.2', 'response_format json_schema "answer" (strict)', 'tools: lookup', 'tool_choice lookup', 'top_p 0.9', 'seed 7', 'stream'],
      // An empty value sets nothing, so `user: ''` is not named.
      notSent: ['logit_bias {"50256":-100}', 'n 2'],
      added: [], settingsRecorded: true,
    });
  });

  it('checked against the body the provider built, a setting it left out moves to not sent', () => {
    const r = rerunRequestOf(record({ recordedRequest, params: { maxTokens: 300, temperature: 0.2 } }), endpoint);
    const body = { model: 'm', messages: [], max_tokens: 300, temperature: 0.2, response_format: { type: 'json_schema' }, stream: true };
    expect(confirmSent(r, body)).toMatchObject({
      sent: ['max_tokens 300', 'temperature 0.2', 'response_format json_schema "answer" (strict)', 'stream'],
      notSent: ["tools: lookup (the endpoint's provider left it out)", "tool_choice lookup (the endpoint's provider left it out)", "top_p 0.9 (the endpoint's provider left it out)", "seed 7 (the endpoint's provider left it out)", 'logit_bias {"50256":-100}', 'n 2'],
    });
  });

  it('reads the exact body a rerun sent before over the importer’s settings (a rerun of a rerun)', () => {
    const r = rerunRequestOf(record({ recordedRequest, requestBody: { model: 'm', messages: [], max_tokens: 512, tool_choice: 'required', tools: recordedRequest.tools } }), endpoint);
    expect(r).toMatchObject({ toolChoice: 'required', stream: false });
    expect(r.contract).toBeUndefined();
    expect(r.fidelity.notSent).toEqual([]);
  });

  it('names the contract as not sent when the endpoint profile has structured output off (the provider would drop it)', () => {
    const r = rerunRequestOf(record({ recordedRequest: { response_format: recordedRequest.response_format } }), { ...endpoint, structuredOutput: false });
    expect(r.contract).toBeUndefined();
    expect(r.fidelity.notSent).toEqual(['response_format json_schema "answer" (strict) (the endpoint profile has structured output off)']);
  });

  it('sends JSON mode without a schema and tool_choice none; names a tool that is not a function', () => {
    const r = rerunRequestOf(record({ recordedRequest: { response_format: { type: 'json_object' }, tools: [{ type: 'web_search' }, recordedRequest.tools[0]], tool_choice: 'none' } }), endpoint);
    expect(r.contract).toBeUndefined();
    expect(r.jsonMode).toBe(true);
    expect(r.tools?.map((t) => t.name)).toEqual(['lookup']);
    expect(r.toolChoice).toBe('none');
    expect(r.fidelity.sent).toEqual(['response_format json_object', 'tools: lookup', 'tool_choice none']);
    expect(r.fidelity.notSent).toEqual(['tool {"type":"web_search"} (not a function tool)']);
  });

  it('names sampling values it cannot send as the setting, and a setting recorded under two names once sent', () => {
    const r = rerunRequestOf(record({ recordedRequest: { top_p: 'high', top_k: ' ', seed: 7.5, stop: ['END'], stop_sequences: ['STOP'], presence_penalty: '0.5' } }), endpoint);
    // A number recorded as text (as some tools write them) is read as the number.
    expect(r.sampling).toEqual({ stop: ['END'], presencePenalty: 0.5 });
    expect(r.fidelity.sent).toEqual(['stop ["END"]', 'presence_penalty 0.5']);
    expect(r.fidelity.notSent).toEqual([
      'top_p high (not a value the rerun can send as topP)',
      'top_k   (not a value the rerun can send as topK)',
      'seed 7.5 (not a value the rerun can send as seed)',
      'stop_sequences ["STOP"] (stop was sent for the same setting)',
    ]);
  });
});

describe('what a rerun sends again of an Anthropic-shaped recorded request', () => {
  it('tool-forced JSON: the tool with its input schema, the forced choice, top_k and stop_sequences are sent; thinking is named', () => {
    const recordedRequest = {
      model: 'claude-sonnet-4-5', max_tokens: 1024, system: 'Answer with the tool.',
      tools: [{ name: 'record_answer', description: 'Record the answer', input_schema: answerSchema }],
      tool_choice: { type: 'tool', name: 'record_answer', disable_parallel_tool_use: true },
      top_k: 5, stop_sequences: ['\n\nHuman:'], thinking: { type: 'enabled', budget_tokens: 2048 },
    };
    const r = rerunRequestOf(record({ recordedRequest, params: { maxTokens: 1024 } }), endpoint);
    expect(r.tools).toEqual([{ name: 'record_answer', description: 'Record the answer', parameters: answerSchema }]);
    expect(r.toolChoice).toEqual({ name: 'record_answer' });
    expect(r.sampling).toEqual({ topK: 5, stop: ['\n\nHuman:'] });
    expect(r.fidelity.sent).toEqual(['max_tokens 1024', 'tools: record_answer', 'tool_choice record_answer', 'top_k 5', 'stop_sequences ["\\n\\nHuman:"]']);
    expect(r.fidelity.notSent).toEqual(['disable_parallel_tool_use true', 'thinking {"type":"enabled","budget_tokens":2048}']);
  });

  it('structured output in output_config.format is sent as the contract; tool_choice any is "required"', () => {
    const r = rerunRequestOf(record({ recordedRequest: { output_config: { format: { type: 'json_schema', schema: answerSchema } }, tools: [{ name: 'noop', input_schema: { type: 'object' } }], tool_choice: { type: 'any' } } }), endpoint);
    expect(r.contract).toEqual({ name: 'output', schema: answerSchema, strict: false });
    expect(r.toolChoice).toBe('required');
    expect(r.fidelity.sent).toContain('output_config json_schema "output"');
  });
});

describe('the cap and temperature', () => {
  it('are read from the recorded body when the record’s params lack them (a trace that kept them only there)', () => {
    const r = rerunRequestOf(record({ recordedRequest: { max_completion_tokens: 200, temperature: 0.5 } }), endpoint);
    expect(r).toMatchObject({ maxTokens: 200, temperature: 0.5 });
    expect(r.fidelity).toMatchObject({ sent: ['max_tokens 200', 'temperature 0.5'], notSent: [], added: [] });
  });
});

describe('a recorded call whose trace kept no request settings', () => {
  it('sends its stream flag, names its JSON flag as not sent, says the profile’s cap was added, and never claims more', () => {
    const r = rerunRequestOf(record({ params: { structured: true, stream: true } }), endpoint);
    expect(r).toMatchObject({ stream: true, maxTokens: 512 });
    expect(r.contract).toBeUndefined();
    expect(r.fidelity).toEqual({
      sent: ['stream'], notSent: ['JSON output (the trace did not record its schema, and the rerun can only send a JSON Schema)'],
      added: ["max_tokens 512 (the endpoint profile's: the trace recorded none)"], settingsRecorded: false,
    });
  });
});
