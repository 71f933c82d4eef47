import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Chain } from '../chain/schema.ts';
import { runChain } from '../engine/run.ts';
import { createDemoProvider } from '../providers/demo-model.ts';
import { createScriptedProvider } from '../testing/scripted-provider.ts';
import { createMemoryRunRepository } from '../trace/repository.ts';
import { importChainSource } from './index.ts';

/** A hand-written n8n workflow: nodes by name and type, connections as [source, target, kind, output]. */
function workflow(nodes: { name: string; type: string; parameters?: Record<string, unknown> }[], links: [string, string, string?, number?][]): string {
  const connections: Record<string, Record<string, { node: string; type: string; index: number }[][]>> = {};
  for (const [source, target, kind = 'main', output = 0] of links) {
    const outputs = ((connections[source] ??= {})[kind] ??= []);
    while (outputs.length <= output) outputs.push([]);
    outputs[output]?.push({ node: target, type: kind, index: 0 });
  }
  return JSON.stringify({ name: 'Hand-made workflow', nodes: nodes.map((n, i) => ({ ...n, parameters: n.parameters ?? {}, position: [i * 220, 0] })), connections });
}
const LC = '@n8n/n8n-nodes-langchain.';

describe('n8n workflows import as chains', () => {
  it('a classifier becomes a model step answering one of its categories and a router taking each branch; the chat model\'s settings are kept', async () => {
    const result = importChainSource(workflow(
      [
        { name: 'Webhook', type: 'n8n-nodes-base.webhook' },
        { name: 'Classify', type: `${LC}textClassifier`, parameters: { inputText: '={{ $json.body }}', categories: { categories: [{ category: 'refund', description: 'money back' }, { category: 'other' }] } } },
        { name: 'Model', type: `${LC}lmChatOpenAi`, parameters: { model: { __rl: true, value: 'gpt-4o-mini' }, options: { temperature: 0.2, maxTokens: 256, topP: 0.9 } } },
        { name: 'Refund reply', type: `${LC}chainLlm`, parameters: { text: '=Write a refund reply to: {{ $(\'Webhook\').item.json.body }}' } },
        { name: 'Slack', type: 'n8n-nodes-base.slack' },
      ],
      [['Webhook', 'Classify'], ['Model', 'Classify', 'ai_languageModel'], ['Model', 'Refund reply', 'ai_languageModel'], ['Classify', 'Refund reply', 'main', 0], ['Classify', 'Slack', 'main', 1]],
    ), { fileName: 'support.json' });
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    const chain: Chain = result.chain;
    expect(chain.inputs.map((i) => [i.name, i.trust])).toEqual([['body', 'untrusted']]);
    const classify = chain.steps.find((s) => s.id === 'classify')?.config as Record<string, unknown>;
    expect(classify).toMatchObject({ model: 'gpt-4o-mini', temperature: 0.2, maxTokens: 256, prompt: '{body}', bindings: { body: 'inputs.body' } });
    expect(classify.outputSchema).toMatchObject({ properties: { category: { enum: ['refund', 'other'] } } });
    const router = chain.steps.find((s) => s.kind === 'router')?.config as Record<string, unknown>;
    expect(router).toMatchObject({ field: 'category', routes: [{ equals: 'refund', to: 'refund_reply' }, { equals: 'other', to: 'classify_other' }] });
    expect(result.report?.dropped).toEqual(expect.arrayContaining([
      expect.objectContaining({ where: '"Webhook" (webhook)' }), expect.objectContaining({ where: '"Slack" (slack)' }), expect.objectContaining({ what: 'topP 0.9' }),
    ]));
    const meta = await runChain({ chain, inputs: { body: 'I want my money back for order 1234.' }, provider: createDemoProvider(), model: { name: 'demo', maxOutputTokens: 1024, structuredOutput: true }, repo: createMemoryRunRepository() });
    expect(meta.status).toBe('succeeded');
  });

  it('an expression that is code is never run: its value becomes a chain input, and the report says so', () => {
    const result = importChainSource(workflow(
      [{ name: 'Chain', type: `${LC}chainLlm`, parameters: { text: '=Summarise: {{ $json.thread.join(\'\\n\') }}' } }],
      [],
    ));
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    expect(result.chain.steps[0]?.config).toMatchObject({ prompt: 'Summarise: {thread}', bindings: { thread: 'inputs.thread' } });
    expect(result.report?.changed).toContainEqual(expect.objectContaining({ why: expect.stringContaining('it is code, which an import never runs') }));
  });

  it('an agent is refused by name with its tools; an If whose condition is code routes on a chain input holding its value', () => {
    const refused = importChainSource(workflow(
      [{ name: 'Agent', type: `${LC}agent` }, { name: 'Search', type: 'n8n-nodes-base.jiraTool' }],
      [['Search', 'Agent', 'ai_tool']],
    ));
    expect(refused.ok ? [] : refused.problems.map((p) => p.message)).toEqual(['n8n node "Agent" (agent) is an agent that calls tools ("Search"); a chain here runs no tools']);
    const result = importChainSource(workflow(
      [
        { name: 'Check', type: 'n8n-nodes-base.if', parameters: { conditions: { conditions: [{ leftValue: '={{ $json.a > 3 }}', operator: { type: 'boolean', operation: 'true' } }] } } },
        { name: 'After', type: `${LC}chainLlm`, parameters: { text: 'hello' } },
      ],
      [['Check', 'After']],
    ));
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    expect(result.chain.inputs).toEqual([expect.objectContaining({ name: 'check_condition', schema: { type: 'boolean' }, example: true })]);
    expect(result.chain.steps.find((s) => s.kind === 'router')?.config).toMatchObject({ bindings: { value: 'inputs.check_condition' }, field: '', routes: [{ equals: true, to: 'after' }], defaultTo: 'check_otherwise' });
    expect(result.report?.changed).toContainEqual(expect.objectContaining({ where: '"Check" (if)', why: 'it is code, which an import never runs: the router reads its value from the chain input check_condition' }));
    const several = importChainSource(workflow(
      [
        { name: 'Both', type: 'n8n-nodes-base.if', parameters: { conditions: { conditions: [{ leftValue: '={{ $json.a }}', operator: { operation: 'true' } }, { leftValue: '={{ $json.b }}', operator: { operation: 'true' } }] } } },
        { name: 'After', type: `${LC}chainLlm`, parameters: { text: 'hello' } },
      ],
      [['Both', 'After']],
    ));
    expect(several.ok ? [] : several.problems.map((p) => p.message)).toEqual(['n8n If "Both" cannot be one router: it combines several conditions']);
  });

  it('a Switch on a field an extractor produced routes each rule to its branch, the fallback to "otherwise"; the imported flow runs down the branch the answer picks', async () => {
    const text = readFileSync(fileURLToPath(new URL('../testing/import-samples/n8n/hand-written-Ticket-Triage-Extractor-Switch-Sentiment.json', import.meta.url)), 'utf8');
    const result = importChainSource(text, { fileName: 'triage.json' });
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    const chain: Chain = result.chain;
    const step = (id: string) => chain.steps.find((s) => s.id === id)?.config as Record<string, unknown>;
    expect(step('extract_ticket')).toMatchObject({ system: 'You read support tickets. Extract only what the ticket states.', model: 'gpt-4o-mini', temperature: 0, maxTokens: 200, outputSchema: { properties: { priority: { type: 'string' }, order_id: { type: 'string' } }, required: ['priority'] } });
    expect(step('by_priority')).toMatchObject({ bindings: { value: 'steps.extract_ticket' }, field: 'priority', routes: [{ equals: 'high', to: 'mood', label: 'urgent' }, { equals: 'low', to: 'routine_reply', label: 'routine' }], defaultTo: 'by_priority_otherwise' });
    expect(step('mood_route')).toMatchObject({ field: 'category', routes: [{ equals: 'Angry', to: 'apologise' }, { equals: 'Calm', to: 'reassure' }] });
    expect(result.report?.dropped).toContainEqual(expect.objectContaining({ where: 'step mood: "Mood"', what: 'detailed results (strength and confidence)' }));
    // A scripted model: the extractor says high, the sentiment Angry, so the run apologises and nothing else.
    const provider = createScriptedProvider([{ priority: 'high', order_id: '4417' }, { category: 'Angry' }, 'We are sorry about order 4417.']);
    const repo = createMemoryRunRepository();
    const meta = await runChain({ chain, inputs: { message: 'Charged twice for order 4417!' }, provider, model: { name: 'demo', maxOutputTokens: 1024, structuredOutput: true }, repo });
    expect(meta.status).toBe('succeeded');
    const finished = (await repo.getEvents(meta.id)).filter((e) => e.type === 'step.finished' && e.status === 'succeeded').map((e) => (e as { stepId: string }).stepId);
    expect(finished).toEqual(['extract_ticket', 'by_priority', 'mood', 'mood_route', 'apologise', 'apologise_output']);
    expect(provider.requests[2]?.messages.at(-1)?.content).toContain('Charged twice for order 4417!');
  });

  it('a classifier\'s own system prompt template is carried with its categories, and its Other branch is one more category', () => {
    const result = importChainSource(workflow(
      [
        { name: 'Classify', type: `${LC}textClassifier`, parameters: { inputText: '={{ $json.body }}', categories: { categories: [{ category: 'bug' }, { category: 'idea' }] }, options: { fallback: 'other', systemPromptTemplate: 'Sort the message into {categories}. Be strict.' } } },
        { name: 'Bug', type: `${LC}chainLlm`, parameters: { text: 'bug' } }, { name: 'Idea', type: `${LC}chainLlm`, parameters: { text: 'idea' } }, { name: 'Other', type: `${LC}chainLlm`, parameters: { text: 'other' } },
      ],
      [['Classify', 'Bug', 'main', 0], ['Classify', 'Idea', 'main', 1], ['Classify', 'Other', 'main', 2]],
    ));
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    expect(result.chain.steps.find((s) => s.id === 'classify')?.config).toMatchObject({ system: 'Sort the message into \n- bug\n- idea\n- other: none of the categories above fits\n. Be strict.' });
    expect(result.chain.steps.find((s) => s.kind === 'router')?.config).toMatchObject({ routes: [{ equals: 'bug', to: 'bug' }, { equals: 'idea', to: 'idea' }, { equals: 'other', to: 'other' }] });
  });

  it('every model option a person set is carried or reported, not only the well-known ones', () => {
    const result = importChainSource(workflow(
      [
        { name: 'Chain', type: `${LC}chainLlm`, parameters: { text: 'Say hi' } },
        { name: 'Ollama', type: `${LC}lmChatOllama`, parameters: { model: 'llama3.1', options: { temperature: 0.4, numPredict: 128, numCtx: 8192, format: 'json', repeatPenalty: 1.1 } } },
      ],
      [['Ollama', 'Chain', 'ai_languageModel']],
    ));
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    expect(result.chain.steps[0]?.config).toMatchObject({ model: 'llama3.1', temperature: 0.4, maxTokens: 128, outputSchema: { type: 'object' } });
    expect(result.report?.dropped.map((d) => d.what)).toEqual(expect.arrayContaining(['numCtx 8192', 'repeatPenalty 1.1']));
    expect(result.report?.changed).toContainEqual(expect.objectContaining({ what: 'JSON mode' }));
  });

  it('a chain file or another tool\'s JSON is not taken for a workflow', () => {
    expect(importChainSource(JSON.stringify({ nodes: [{ type: 'custom' }], connections: {} })).ok).toBe(false);
  });
});
