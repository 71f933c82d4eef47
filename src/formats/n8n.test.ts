import { describe, expect, it } from 'vitest';
import type { Chain } from '../chain/schema.ts';
import { runChain } from '../engine/run.ts';
import { createDemoProvider } from '../providers/demo-model.ts';
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

  it('an agent is refused by name with its tools; an If the chain cannot branch on is refused when steps follow it', () => {
    const result = importChainSource(workflow(
      [
        { name: 'Agent', type: `${LC}agent` }, { name: 'Search', type: 'n8n-nodes-base.jiraTool' },
        { name: 'Check', type: 'n8n-nodes-base.if', parameters: { conditions: { conditions: [{ leftValue: '={{ $json.a > 3 }}', operator: { type: 'boolean', operation: 'true' } }] } } },
        { name: 'After', type: `${LC}chainLlm`, parameters: { text: 'hello' } },
      ],
      [['Search', 'Agent', 'ai_tool'], ['Check', 'After']],
    ));
    expect(result.ok ? [] : result.problems.map((p) => p.message)).toEqual([
      'n8n node "Agent" (agent) is an agent that calls tools ("Search"); a chain here runs no tools',
      'n8n If "Check" tests ={{ $json.a > 3 }}, which is not one field a model step of this chain produced: the chain could not branch as the workflow does',
    ]);
  });

  it('a chain file or another tool\'s JSON is not taken for a workflow', () => {
    expect(importChainSource(JSON.stringify({ nodes: [{ type: 'custom' }], connections: {} })).ok).toBe(false);
  });
});
