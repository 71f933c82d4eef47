import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { lintChain } from '../chain/lint.ts';
import { runChain } from '../engine/run.ts';
import { createDemoProvider } from '../providers/demo-model.ts';
import { stepRegistry } from '../steps/index.ts';
import { createScriptedProvider } from '../testing/scripted-provider.ts';
import { createMemoryRunRepository } from '../trace/repository.ts';
import { importChainSource } from './index.ts';

/**
 * Rivet's example project (Ironclad/rivet-example, chat.rivet-project) as published, and with
 * each of its other graphs made the main graph, as a person would in Rivet before importing it.
 */
const SAMPLE = readFileSync(new URL('../testing/import-samples/rivet/ironclad-rivet-example-chat.rivet-project', import.meta.url), 'utf8');
const GRAPHS = { simpleReply: 'r97vYKQCVceae5VCCKK4J', play24: 'img3RO-RZ3wj9vprc0g7x', calculator: 'cNR0gNaGhFnKosSc7NxRg' };
const withMain = (id: string) => SAMPLE.replace(/^ {4}title: Untitled Project$/m, `    mainGraphId: ${id}\n    title: Untitled Project`);
const demoModel = { name: 'demo', maxOutputTokens: 4096, structuredOutput: true };

function imported(text: string) {
  const result = importChainSource(text, { fileName: 'chat.rivet-project' });
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result;
}
const refusals = (text: string) => {
  const result = importChainSource(text, { fileName: 'chat.rivet-project' });
  return result.ok ? [] : result.problems.map((p) => p.message);
};

describe('Rivet projects', () => {
  it('the project as published: its first graph (no main graph is set) is refused, naming each node without a counterpart and the graphs its subgraphs run', () => {
    const messages = refusals(SAMPLE);
    expect(messages).toContainEqual('"Subgraph 1" (subGraph) runs the graph "Simple Reply"; a subgraph is not inlined here (make "Simple Reply" the project\'s main graph in Rivet to import it on its own)');
    for (const pattern of [/"Match" \(match\)/, /"If 1" \(if\)/, /"If 3" \(if\)/, /"Coalesce" \(coalesce\)/, /"Extract Regex" \(extractRegex\)/, /runs the graph "Calculator"/, /runs the graph "Play 24"/]) expect(messages).toContainEqual(expect.stringMatching(pattern));
  });

  it('"Simple Reply": the Text node is the chat\'s system message byte for byte, the message list an input, the settings carried; it runs on the demo model', async () => {
    const { chain, report } = imported(withMain(GRAPHS.simpleReply));
    expect(chain.name).toBe('Simple Reply');
    expect(chain.inputs).toEqual([{ name: 'messages', schema: { type: 'string' }, trust: 'untrusted', required: true }]);
    expect(chain.steps.map((s) => [s.id, s.kind])).toEqual([['chat', 'model'], ['output', 'output']]);
    expect(chain.steps[0]?.config).toMatchObject({ prompt: '{messages}', bindings: { messages: 'inputs.messages' }, model: 'gpt-3.5-turbo', temperature: 0.5, maxTokens: 1024 });
    expect(String(chain.steps[0]?.config.system)).toMatch(/^You are a helpful assistant\.\n\nYou have access to the following skills:\n- Calculator\./);
    expect(report?.kept).toContainEqual({ where: '"Chat" (chat)', what: expect.stringMatching(/^the system message from "Text" \(\d+ characters, byte for byte\)$/) });
    expect(report?.changed).toContainEqual(expect.objectContaining({ where: '"Graph Input" (graphInput messages)', what: 'data type chat-message[]' }));
    expect(report?.dropped).toContainEqual(expect.objectContaining({ where: 'the project', what: 'the graphs "* Initial Chat", "Calculator", "Play 24"' }));
    expect(lintChain(chain, stepRegistry).filter((f) => f.severity === 'error')).toEqual([]);
    const meta = await runChain({ chain, inputs: { messages: 'What is 5 * (2 - 1)?' }, provider: createDemoProvider(), model: demoModel, repo: createMemoryRunRepository() });
    expect(meta.status).toBe('succeeded');
  });

  it('"Play 24": assembled messages become one prompt, {{numbers}} a binding to the first chat, the wired default the input\'s example; the second chat is sent the first\'s answer', async () => {
    const { chain, report } = imported(withMain(GRAPHS.play24));
    expect(chain.inputs).toEqual([{ name: 'input', schema: { type: 'string' }, trust: 'untrusted', required: true, example: '5 5 1 6' }]);
    expect(chain.steps.map((s) => [s.id, s.kind, s.config.bindings])).toEqual([
      ['chat_1', 'model', { input: 'inputs.input' }], ['chat_2', 'model', { numbers: 'steps.chat_1' }], ['output', 'output', { value: 'steps.chat_2' }],
    ]);
    expect(chain.steps[0]?.config.prompt).toBe('{input}\n\nI should have provided you some numbers in my previous message.\n\nOutput these numbers, separated by commas. For example, "5, 5, 3, 4."');
    expect(String(chain.steps[1]?.config.prompt)).toMatch(/^Here are some numbers:\n\{numbers\}\n\nYour task is to make the number 24/);
    expect(report?.changed).toContainEqual(expect.objectContaining({ where: '"Chat 1" (chat)', what: 'the 2 messages assembled' }));
    expect(report?.changed).toContainEqual(expect.objectContaining({ where: '"Graph Input" (graphInput input)', what: 'its default value (wired in)' }));
    const provider = createScriptedProvider(['5, 5, 1, 6', 'ANSWER: (5 - 1 / 5) * 6']);
    const meta = await runChain({ chain, inputs: { input: '5 5 1 6' }, provider, model: demoModel, repo: createMemoryRunRepository() });
    expect([meta.status, meta.output]).toEqual(['succeeded', 'ANSWER: (5 - 1 / 5) * 6']);
    expect(provider.requests[1]?.messages.map((m) => m.content).join('\n')).toContain('5, 5, 1, 6');
  });

  it('"Calculator": the external call and the regex are refused by name, nothing stored', () => {
    expect(refusals(withMain(GRAPHS.calculator))).toEqual([
      '"Extract Regex" (extractRegex) has no counterpart here: no step does what it does',
      '"External Call" (externalCall) calls a function the host application provides, which is not in the file',
    ]);
  });

  it('a chat node whose settings come from ports, or that calls functions, is refused by name', () => {
    const main = withMain(GRAPHS.simpleReply);
    const part = main.slice(main.indexOf('[g1OFlelzeONyJvWgLxmiS]:chat'));
    const edit = (...pairs: [string, string][]) => main.replace(part, pairs.reduce((text, [from, to]) => text.replace(from, to), part));
    expect(refusals(edit(['useModelInput: false', 'useModelInput: true']))).toEqual(['"Chat" (chat) takes its model from a port, known only at run time']);
    expect(refusals(edit(['enableFunctionUse: false', 'enableFunctionUse: true']))).toEqual(['"Chat" (chat) calls functions (tools); a chain here runs no tools']);
    expect(imported(edit(['useStop: false', 'useStop: true'], ['stop: ""', 'stop: "END"'])).report?.dropped).toContainEqual(expect.objectContaining({ where: '"Chat" (chat)', what: 'stop "END"' }));
  });

  it('node types and data types named like object properties are read as names, never looked up on prototypes', () => {
    const main = withMain(GRAPHS.simpleReply);
    expect(refusals(main.replace('[2WgFF9l52waW8JTlmtItb]:text "Text"', '[2WgFF9l52waW8JTlmtItb]:constructor "Text"'))).toContainEqual('"Text" (constructor) has no counterpart here: no step does what it does');
    const { chain } = imported(main.replace('dataType: chat-message[]', 'dataType: toString'));
    expect(chain.inputs[0]?.schema).toEqual({ type: 'string' });
  });
});
