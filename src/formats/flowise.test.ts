import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Chain } from '../chain/schema.ts';
import { runChain } from '../engine/run.ts';
import { createDemoProvider } from '../providers/demo-model.ts';
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

  it('an LLM Chain\'s output parser becomes its output schema: a structured table as an object, CSV and list parsers as items; zod code is refused by name', async () => {
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
    const zod = importChainSource(chatflow(node('advancedStructuredOutputParser_0', 'advancedStructuredOutputParser', 'Output Parsers', { exampleJson: 'z.object({ title: z.string() })' }, 'Advanced Structured Output Parser')));
    expect(zod.ok ? [] : zod.problems.map((p) => p.message)).toEqual(['Flowise output parser "Advanced Structured Output Parser" (advancedStructuredOutputParser): its schema is zod code, which an import never runs (write it as a JSON Schema on the step)']);
  });
});
