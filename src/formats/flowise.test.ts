import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Chain } from '../chain/schema.ts';
import { runChain } from '../engine/run.ts';
import { createDemoProvider } from '../providers/demo-model.ts';
import { createScriptedProvider } from '../testing/scripted-provider.ts';
import { createMemoryRunRepository } from '../trace/repository.ts';
import { importChainSource } from './index.ts';
import { htmlToText } from './flowise.ts';

const sample = (name: string) => readFileSync(new URL(`../testing/import-samples/flowise/${name}.json`, import.meta.url), 'utf8');
const imported = (text: string, fileName?: string): Chain => {
  const result = importChainSource(text, fileName ? { fileName } : {});
  if (!result.ok) throw new Error(result.problems.map((p) => `${p.path} ${p.message}`).join('\n'));
  return result.chain;
};
const config = (chain: Chain, id: string) => chain.steps.find((s) => s.id === id)?.config as Record<string, unknown>;

describe('Flowise flows import as chains', () => {
  it('a chatflow (Prompt Chaining): each LLM Chain a model step, prompt values bound to the chat input and the chain before', () => {
    const chain = imported(sample('chatflows-Prompt_Chaining'), 'chatflows-Prompt_Chaining.json');
    expect(chain.inputs.map((i) => [i.name, i.trust])).toEqual([['question', 'untrusted']]);
    expect(chain.steps.map((s) => [s.id, s.kind])).toEqual([['llm_chain', 'model'], ['llm_chain_2', 'model'], ['output', 'output']]);
    expect(config(chain, 'llm_chain')).toMatchObject({ bindings: { objective: 'inputs.question' }, temperature: 0.9 });
    expect(config(chain, 'llm_chain')?.prompt).toMatch(/^You are an AI who performs one task based on the following objective: \{objective\}\./);
    expect(config(chain, 'llm_chain_2')).toMatchObject({ bindings: { objective: 'inputs.question', result: 'steps.llm_chain' } });
    expect(config(chain, 'output')).toEqual({ bindings: { value: 'steps.llm_chain_2' } });
    expect(chain.steps[0]?.description).toBe("Imported from Flowise's llmChain.");
    expect(chain.steps[0]?.config).toMatchObject({ model: 'gpt-3.5-turbo', temperature: 0.9, maxTokens: 1024 });
    expect(chain.meta?.importedFrom).toEqual({ tool: 'flowise', kind: 'chatflow' });
  });

  it('an Agentflow v2 LLM node: HTML messages as text, the {{ question }} mention a binding, structured output rows as the schema', () => {
    const chain = imported(sample('agentflowsv2-Structured_Output'));
    const cfg = config(chain, 'strutured_output');
    expect(cfg.system).toBe('Given user query, return result only in JSON format, without exception.\nWhen asked to self-correct, output only the corrected JSON and no other text.');
    expect(cfg.prompt).toBe('{question}');
    expect(cfg.bindings).toEqual({ question: 'inputs.question' });
    expect(cfg.outputSchema).toEqual({
      type: 'object', additionalProperties: false, required: ['output'],
      properties: {
        output: {
          type: 'array', description: 'answer and its reason to the question',
          items: { type: 'object', additionalProperties: false, required: ['answer', 'reason'], properties: { answer: { type: 'string', description: 'Value of the answer' }, reason: { type: 'string', description: 'Reason for the answer' } } },
        },
      },
    });
  });

  it('conditions, agents and loops are refused, each by name and place', () => {
    const result = importChainSource(sample('agentflowsv2-Supervisor_Worker'));
    const messages = result.ok ? [] : result.problems.map((p) => `${p.path} ${p.message}`);
    expect(messages).toContainEqual(expect.stringMatching(/^\$\.nodes\[1\] Flowise node "Check next worker" \(conditionAgentflow\) has no Seamscope counterpart/));
    expect(messages.filter((m) => m.includes('(agentAgentflow)'))).toHaveLength(3);
    expect(messages.filter((m) => m.includes('(loopAgentflow)'))).toHaveLength(2);
  });

  it('imported flows run on the demo model', async () => {
    for (const name of ['chatflows-Prompt_Chaining', 'agentflowsv2-Structured_Output']) {
      const repo = createMemoryRunRepository();
      const meta = await runChain({ chain: imported(sample(name)), inputs: { question: 'How do I plan a product launch?' }, provider: createDemoProvider(), model: { name: 'demo', maxOutputTokens: 1024, structuredOutput: true }, repo });
      expect(meta.status, name).toBe('succeeded');
    }
  });

  it('HTML is made text, never kept as markup; a mention of flow state is a problem, not a silent gap', () => {
    expect(htmlToText('<p>Tom &amp; Jerry &lt;3</p><p>next<br/>line <script>x</script></p>')).toBe('Tom & Jerry <3\nnext\nline x');
    const flow = JSON.stringify({
      nodes: [
        { id: 'startAgentflow_0', position: { x: 0, y: 0 }, data: { id: 'startAgentflow_0', name: 'startAgentflow', label: 'Start', inputs: { startInputType: 'chatInput' } } },
        { id: 'llmAgentflow_0', position: { x: 300, y: 0 }, data: { id: 'llmAgentflow_0', name: 'llmAgentflow', label: 'Ask', inputs: { llmMessages: [{ role: 'user', content: '<p>{{ $flow.state.plan }}</p>' }], llmModelConfig: { credential: 'cred-123', modelName: 'x' } } } },
      ],
      edges: [{ source: 'startAgentflow_0', target: 'llmAgentflow_0' }],
    });
    const result = importChainSource(flow);
    expect(result.ok ? [] : result.problems.map((p) => p.message)).toEqual(['"Ask": {{ $flow.state.plan }} names no input or earlier node (flow state and variables have no counterpart)']);
  });

  it('a chatflow with a Chat Prompt Template: its system and human messages; a memory or tool node is refused by name', () => {
    const node = (id: string, name: string, category: string, inputs: Record<string, unknown>, label = name) => ({ id, position: { x: 0, y: 0 }, data: { id, name, label, category, inputs } });
    const chatflow = (extra: ReturnType<typeof node>[] = []) => JSON.stringify({
      nodes: [
        node('chatPromptTemplate_0', 'chatPromptTemplate', 'Prompts', { systemMessagePrompt: 'You answer for {company}.', humanMessagePrompt: '{text}', promptValues: { company: 'Acme', text: '{{question}}' } }, 'Chat Prompt Template'),
        node('chatAnthropic_0', 'chatAnthropic', 'Chat Models', { modelName: 'claude-x', temperature: 0.2, credential: 'cred-abc' }, 'ChatAnthropic'),
        node('llmChain_0', 'llmChain', 'Chains', { model: '{{chatAnthropic_0.data.instance}}', prompt: '{{chatPromptTemplate_0.data.instance}}' }, 'Answer'),
        ...extra,
      ],
      edges: [{ source: 'chatPromptTemplate_0', target: 'llmChain_0' }, { source: 'chatAnthropic_0', target: 'llmChain_0' }, ...extra.map((e) => ({ source: e.id, target: 'llmChain_0' }))],
    });
    const chain = imported(chatflow());
    expect(config(chain, 'answer')).toMatchObject({ system: 'You answer for Acme.', prompt: '{text}', bindings: { text: 'inputs.question' }, temperature: 0.2 });
    expect(JSON.stringify(chain)).not.toContain('cred-abc');
    const refused = importChainSource(chatflow([node('bufferMemory_0', 'bufferMemory', 'Memory', {}, 'Buffer Memory'), node('calculator_0', 'calculator', 'Tools', {}, 'Calculator')]));
    expect(refused.ok ? [] : refused.problems.map((p) => p.message)).toEqual([
      'Flowise node "Buffer Memory" (bufferMemory) has no Seamscope counterpart: a chain here is built from LLM chains, prompt templates, LLM nodes and the chat input, and runs no node code',
      'Flowise node "Calculator" (calculator) has no Seamscope counterpart: a chain here is built from LLM chains, prompt templates, LLM nodes and the chat input, and runs no node code',
    ]);
  });

  it('an LLM Chain\'s output parser becomes its output schema: a structured table as an object, CSV and list parsers as items; zod\'s declarative subset is read, never run, and code beyond it refused by name', async () => {
    const node = (id: string, name: string, category: string, inputs: Record<string, unknown>, label = name) => ({ id, position: { x: 0, y: 0 }, data: { id, name, label, category, inputs } });
    const chatflow = (parser: ReturnType<typeof node>) => JSON.stringify({
      nodes: [
        node('promptTemplate_0', 'promptTemplate', 'Prompts', { template: 'List the facts in: {text}', promptValues: { text: '{{question}}' } }, 'Prompt Template'),
        node('chatOpenAI_0', 'chatOpenAI', 'Chat Models', { modelName: 'gpt-4o-mini', temperature: 0, maxTokens: '256' }, 'ChatOpenAI'),
        parser,
        node('llmChain_0', 'llmChain', 'Chains', { model: '{{chatOpenAI_0.data.instance}}', prompt: '{{promptTemplate_0.data.instance}}', outputParser: `{{${parser.id}.data.instance}}` }, 'Facts'),
      ],
      edges: ['promptTemplate_0', 'chatOpenAI_0', parser.id].map((source) => ({ source, target: 'llmChain_0' })),
    });
    const structured = importChainSource(chatflow(node('structuredOutputParser_0', 'structuredOutputParser', 'Output Parsers', { jsonStructure: [{ property: 'days', type: 'number', description: 'the deadline' }, { property: 'who', type: 'string' }] }, 'Structured Output Parser')));
    if (!structured.ok) throw new Error(JSON.stringify(structured.problems));
    expect(config(structured.chain, 'facts')).toMatchObject({ maxTokens: 256, outputSchema: { type: 'object', properties: { days: { type: 'number', description: 'the deadline' }, who: { type: 'string' } }, required: ['days', 'who'] } });
    const meta = await runChain({ chain: structured.chain, inputs: { question: 'Appeal within 180 days, says the clerk.' }, provider: createDemoProvider(), model: { name: 'demo', maxOutputTokens: 1024, structuredOutput: true }, repo: createMemoryRunRepository() });
    expect(meta.status).toBe('succeeded');
    const list = importChainSource(chatflow(node('csvOutputParser_0', 'csvOutputParser', 'Output Parsers', {}, 'CSV Output Parser')));
    expect(list.ok && list.report?.changed).toContainEqual(expect.objectContaining({ what: 'the output parser as the step\'s output schema', why: expect.stringContaining('{"items": [...]}') }));
    // Flowise's default zod schema, comments and all, is read (never run) as the JSON Schema it declares.
    const zod = importChainSource(chatflow(node('advancedStructuredOutputParser_0', 'advancedStructuredOutputParser', 'Output Parsers', {
      exampleJson: 'z.object({\n    title: z.string(), // Title of the movie as a string\n    yearOfRelease: z.number().int(), // Release year\n    genres: z.enum([\n        "Action", "Comedy"\n    ]).array().max(2), // at most 2\n    note: z.string().max(500).describe("a short note").optional()\n})',
    }, 'Advanced Structured Output Parser')));
    if (!zod.ok) throw new Error(JSON.stringify(zod.problems));
    expect(config(zod.chain, 'facts')?.outputSchema).toEqual({
      type: 'object', additionalProperties: false, required: ['title', 'yearOfRelease', 'genres'],
      properties: { title: { type: 'string' }, yearOfRelease: { type: 'integer' }, genres: { type: 'array', items: { type: 'string', enum: ['Action', 'Comedy'] }, maxItems: 2 }, note: { type: 'string', maxLength: 500, description: 'a short note' } },
    });
    const code = importChainSource(chatflow(node('advancedStructuredOutputParser_0', 'advancedStructuredOutputParser', 'Output Parsers', { exampleJson: 'z.object({ title: z.string().refine((t) => globalThis.leak = t) })' }, 'Advanced Structured Output Parser')));
    expect(code.ok ? [] : code.problems.map((p) => p.message)).toEqual(['Flowise output parser "Advanced Structured Output Parser" (advancedStructuredOutputParser): its zod schema is code beyond zod\'s declarative subset, which an import never runs (.refine() is not read here at character 37)']);
  });

  it('a Few Shot Prompt Template is one prompt: prefix, each example through its example prompt, suffix; only the chat input is data', async () => {
    const result = importChainSource(sample('hand-written-chatflows-Few_Shot_List_Parser'), { fileName: 'few.json' });
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    const step = config(result.chain, 'antonyms');
    expect(step).toMatchObject({ prompt: 'Give the antonym of every input\n\nWord: happy\nAntonym: sad\n\nWord: tall\nAntonym: short\n\nWord: {input}\nAntonym:', bindings: { input: 'inputs.question' }, maxTokens: 150, temperature: 0.3 });
    expect(step.outputSchema).toMatchObject({ properties: { items: { type: 'array' } } });
    const provider = createScriptedProvider([{ items: ['cold'] }]);
    const meta = await runChain({ chain: result.chain, inputs: { question: 'hot' }, provider, model: { name: 'demo', maxOutputTokens: 1024, structuredOutput: true }, repo: createMemoryRunRepository() });
    expect(meta.status).toBe('succeeded');
    const user = provider.requests[0]?.messages.find((m) => m.role === 'user')?.content ?? '';
    expect(user.startsWith('Give the antonym of every input\n\nWord: happy\nAntonym: sad')).toBe(true);
    expect(user).toContain('Word: <data name="input">\nhot\n</data>');
  });

  it('a Multi Prompt Chain is a model step choosing a prompt, a router on its choice and a model step per Prompt Retriever; the run takes the branch chosen', async () => {
    const result = importChainSource(sample('hand-written-chatflows-Multi_Prompt_Chain'), { fileName: 'multi.json' });
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    const chain = result.chain;
    expect(config(chain, 'multi_prompt_chain')?.outputSchema).toMatchObject({ properties: { destination: { enum: ['physics', 'math', 'history', 'DEFAULT'] } } });
    expect(config(chain, 'multi_prompt_chain_route')).toMatchObject({ field: 'destination', routes: [{ equals: 'physics', to: 'physics' }, { equals: 'math', to: 'math' }, { equals: 'history', to: 'history' }], defaultTo: 'multi_prompt_chain_default' });
    expect(config(chain, 'math')).toMatchObject({ system: 'You are a very good mathematician. You break hard problems into their parts.', prompt: '{question}', maxTokens: 300, temperature: 0 });
    const provider = createScriptedProvider([{ destination: 'math' }, 'x = 4']);
    const repo = createMemoryRunRepository();
    const meta = await runChain({ chain, inputs: { question: 'Solve 2x = 8.' }, provider, model: { name: 'demo', maxOutputTokens: 1024, structuredOutput: true }, repo });
    expect(meta.status).toBe('succeeded');
    expect(meta.output).toBe('x = 4');
    const ran = (await repo.getEvents(meta.id)).filter((e) => e.type === 'step.finished' && e.status === 'succeeded').map((e) => (e as { stepId: string }).stepId);
    expect(ran).toEqual(['multi_prompt_chain', 'multi_prompt_chain_route', 'math', 'math_output']);
    expect(provider.requests[1]?.messages[0]?.content).toContain('You are a very good mathematician.');
  });
});
