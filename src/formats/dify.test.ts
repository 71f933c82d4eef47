import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { lintChain } from '../chain/lint.ts';
import { runChain } from '../engine/run.ts';
import { createDemoProvider } from '../providers/demo-model.ts';
import type { ModelProvider, ModelRequest } from '../providers/types.ts';
import { stepRegistry } from '../steps/index.ts';
import { createScriptedProvider } from '../testing/scripted-provider.ts';
import { createMemoryRunRepository } from '../trace/repository.ts';
import { ifElseRoutes } from './dify-branch.ts';
import { importChainSource } from './index.ts';
import { jinjaToTemplate } from './promptflow.ts';

/** A linear Dify workflow in the DSL's own shape: start → llm → template-transform → llm → end. */
const APP = `app:
  name: Deadlines
  mode: workflow
kind: app
version: 0.1.5
workflow:
  graph:
    edges:
    - {source: '1', target: '2'}
    - {source: '2', target: '3'}
    - {source: '3', target: '4'}
    - {source: '4', target: '5'}
    nodes:
    - id: '1'
      position: {x: 0, y: 0}
      data:
        type: start
        title: Start
        variables:
        - {variable: text, label: Text, type: paragraph, required: true}
    - id: '2'
      position: {x: 300, y: 0}
      data:
        type: llm
        title: Extract
        model: {provider: openai, name: gpt-4o-mini, mode: chat, completion_params: {temperature: 0.2, max_tokens: 300, top_p: 0.8}}
        prompt_template:
        - {role: system, text: List every deadline with its day count.}
        - {role: user, text: "{{#1.text#}}"}
    - id: '3'
      position: {x: 600, y: 0}
      data:
        type: template-transform
        title: Frame
        template: "Deadlines found:\\n{{ found }}"
        variables:
        - {variable: found, value_selector: ['2', text]}
    - id: '4'
      position: {x: 900, y: 0}
      data:
        type: llm
        title: Answer
        model: {provider: openai, name: gpt-4o, mode: chat, completion_params: {}}
        prompt_template:
        - {role: system, text: "Answer from these only.\\n{{#3.output#}}"}
    - id: '5'
      position: {x: 1200, y: 0}
      data:
        type: end
        title: End
        outputs:
        - {variable: answer, value_selector: ['4', text]}
`;

describe('Dify DSL', () => {
  it('imports a linear workflow with its model settings and runs it on the demo model', async () => {
    const result = importChainSource(APP, { fileName: 'deadlines.yml' });
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    expect(result.chain.steps.map((s) => [s.id, s.kind])).toEqual([['extract', 'model'], ['frame', 'template'], ['answer', 'model'], ['answer_2', 'output']]);
    expect(result.chain.steps[0]?.config).toMatchObject({ system: 'List every deadline with its day count.', prompt: '{text}', bindings: { text: 'inputs.text' }, model: 'gpt-4o-mini', temperature: 0.2, maxTokens: 300 });
    expect(result.chain.steps[1]?.config).toMatchObject({ text: 'Deadlines found:\n{found}', bindings: { found: 'steps.extract' } });
    expect(result.chain.steps[2]?.config).toMatchObject({ prompt: 'Answer from these only.\n{output}', bindings: { output: 'steps.frame' } });
    const report = result.report;
    expect(report?.dropped.map((d) => d.what)).toContain('top_p 0.8');
    expect(report?.changed).toContainEqual(expect.objectContaining({ where: '"Answer" (llm)', what: 'the system message' }));
    expect(report?.changed).toContainEqual(expect.objectContaining({ where: '"Answer" (llm)', what: 'max tokens' }));
    const meta = await runChain({
      chain: result.chain, inputs: { text: 'The appeal was filed within 180 days; the reply is due in 60 days.' }, provider: createDemoProvider(),
      model: { name: 'demo', maxOutputTokens: 4096, structuredOutput: true }, repo: createMemoryRunRepository(),
    });
    expect(meta.status).toBe('succeeded');
  });

  it('refuses code and HTTP nodes by name, and not again what reads them', () => {
    const app = APP.replace("type: template-transform\n        title: Frame", 'type: code\n        title: Frame').replace("type: llm\n        title: Answer", 'type: http-request\n        title: Answer');
    const result = importChainSource(app, { fileName: 'deadlines.yml' });
    expect(result.ok ? [] : result.problems.map((p) => `${p.path} ${p.message}`)).toEqual([
      '$.workflow.graph.nodes[2] "Frame" (code) runs code, which an import never runs',
      '$.workflow.graph.nodes[3] "Answer" (http-request) sends an HTTP request',
    ]);
  });
});

/** A classifier's two branches joined by an aggregator, then one more llm node: the DSL's own shape. */
const ROUTED = `app: {name: Refunds, mode: workflow}
kind: app
version: 0.1.5
workflow:
  graph:
    edges:
    - {source: '1', sourceHandle: source, target: '2'}
    - {source: '2', sourceHandle: c1, target: '3'}
    - {source: '2', sourceHandle: c2, target: '4'}
    - {source: '3', sourceHandle: source, target: '5'}
    - {source: '4', sourceHandle: source, target: '5'}
    - {source: '5', sourceHandle: source, target: '6'}
    - {source: '6', sourceHandle: source, target: '7'}
    nodes:
    - {id: '1', position: {x: 0, y: 0}, data: {type: start, title: Start, variables: [{variable: ticket, label: ticket, type: paragraph, required: true}]}}
    - id: '2'
      position: {x: 300, y: 0}
      data:
        type: question-classifier
        title: Kind
        query_variable_selector: ['1', ticket]
        instruction: A request for money back is a refund.
        classes: [{id: c1, name: refund}, {id: c2, name: other}]
        model: {provider: openai, name: gpt-4o-mini, mode: chat, completion_params: {temperature: 0}}
    - {id: '3', position: {x: 600, y: 0}, data: {type: llm, title: Refund reply, model: {name: gpt-4o, completion_params: {temperature: 0.3, max_tokens: 200}}, prompt_template: [{role: system, text: You handle refunds.}, {role: user, text: '{{#1.ticket#}}'}]}}
    - {id: '4', position: {x: 600, y: 200}, data: {type: llm, title: General reply, model: {name: gpt-4o, completion_params: {temperature: 0.3, max_tokens: 200}}, prompt_template: [{role: system, text: You answer anything else.}, {role: user, text: '{{#1.ticket#}}'}]}}
    - {id: '5', position: {x: 900, y: 0}, data: {type: variable-aggregator, title: Reply, output_type: string, variables: [['3', text], ['4', text]]}}
    - {id: '6', position: {x: 1200, y: 0}, data: {type: llm, title: Polish, model: {name: gpt-4o, completion_params: {temperature: 0, max_tokens: 200}}, prompt_template: [{role: system, text: Polish this reply.}, {role: user, text: '{{#5.output#}}'}]}}
    - {id: '7', position: {x: 1500, y: 0}, data: {type: end, title: End, outputs: [{variable: reply, value_selector: ['6', text]}]}}
`;

/** An if-else on an optional start variable: is the tone "formal"? */
const ON_INPUT = `app: {name: Tone, mode: workflow}
kind: app
version: 0.1.5
workflow:
  graph:
    edges:
    - {source: '1', sourceHandle: source, target: '2'}
    - {source: '2', sourceHandle: 'true', target: '3'}
    - {source: '2', sourceHandle: 'false', target: '4'}
    - {source: '3', sourceHandle: source, target: '5'}
    - {source: '4', sourceHandle: source, target: '5'}
    nodes:
    - {id: '1', position: {x: 0, y: 0}, data: {type: start, title: Start, variables: [{variable: text, type: paragraph, required: true}, {variable: tone, type: text-input, required: false}]}}
    - {id: '2', position: {x: 300, y: 0}, data: {type: if-else, title: Tone check, cases: [{case_id: 'true', logical_operator: and, conditions: [{variable_selector: ['1', tone], comparison_operator: is, value: formal}]}]}}
    - {id: '3', position: {x: 600, y: 0}, data: {type: llm, title: Formal, model: {name: m, completion_params: {max_tokens: 100}}, prompt_template: [{role: system, text: Rewrite formally.}, {role: user, text: '{{#1.text#}}'}]}}
    - {id: '4', position: {x: 600, y: 200}, data: {type: llm, title: Casual, model: {name: m, completion_params: {max_tokens: 100}}, prompt_template: [{role: system, text: 'Rewrite casually.'}, {role: user, text: '{{#1.text#}}'}]}}
    - {id: '5', position: {x: 900, y: 0}, data: {type: end, title: End, outputs: [{variable: a, value_selector: ['3', text]}, {variable: b, value_selector: ['4', text]}]}}
`;

const demoModel = { name: 'demo', maxOutputTokens: 4096, structuredOutput: true };

function imported(source: string) {
  const result = importChainSource(source, { fileName: 'flow.yml' });
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result;
}

function refusals(source: string): string[] {
  const result = importChainSource(source, { fileName: 'flow.yml' });
  return result.ok ? [] : result.problems.map((p) => p.message);
}

/** A scripted model that answers by the step's system message (steps that read none of each other run at once, in any order). */
function answering(answers: Record<string, string>, calls = 8): ModelProvider & { requests: ModelRequest[] } {
  const reply = (request: ModelRequest) => {
    const system = request.messages.find((m) => m.role === 'system')?.content ?? '';
    const key = Object.keys(answers).find((k) => system.includes(k));
    if (key === undefined) throw new Error(`no scripted answer for: ${system.slice(0, 80)}`);
    return answers[key] as string;
  };
  return createScriptedProvider(Array.from({ length: calls }, () => reply));
}

async function run(chain: Parameters<typeof runChain>[0]['chain'], inputs: Record<string, unknown>, provider: ModelProvider) {
  const repo = createMemoryRunRepository();
  const meta = await runChain({ chain, inputs, provider, model: demoModel, repo });
  const events = await repo.getEvents(meta.id);
  const status = (id: string) => {
    const finished = events.find((e) => e.type === 'step.finished' && e.stepId === id);
    return finished?.type === 'step.finished' ? finished.status : undefined;
  };
  const route = events.find((e) => e.type === 'step.route');
  return { meta, status, chosen: route?.type === 'step.route' ? route.chosen : [] };
}

describe('Dify DSL: branches, classifiers, aggregators, extractors and iterations', () => {
  it('a question classifier becomes a model step answering its classes and a router on that answer; what follows the aggregator is built once per branch', () => {
    const { chain, report } = imported(ROUTED);
    expect(chain.steps.map((s) => [s.id, s.kind])).toEqual([
      ['kind', 'model'], ['kind_route', 'router'], ['refund_reply', 'model'], ['general_reply', 'model'],
      ['polish_after_refund_reply', 'model'], ['polish_after_general_reply', 'model'],
      ['reply_after_refund_reply', 'output'], ['reply_after_general_reply', 'output'],
    ]);
    const [kind, route, , , polishRefund, polishGeneral] = chain.steps;
    expect(kind?.config).toMatchObject({
      prompt: '{query}', bindings: { query: 'inputs.ticket' }, model: 'gpt-4o-mini', temperature: 0,
      system: 'Classify the text into exactly one of these categories:\n- refund\n- other\n\nA request for money back is a refund.',
      outputSchema: { type: 'object', properties: { category: { type: 'string', enum: ['refund', 'other'] } }, required: ['category'] },
    });
    expect(route?.config).toEqual({ bindings: { value: 'steps.kind' }, field: 'category', routes: [{ equals: 'refund', to: 'refund_reply', label: 'refund' }, { equals: 'other', to: 'general_reply', label: 'other' }], defaultTo: null });
    expect(polishRefund?.config).toMatchObject({ prompt: '{output}', bindings: { output: 'steps.refund_reply' } });
    expect(polishGeneral?.config).toMatchObject({ prompt: '{output}', bindings: { output: 'steps.general_reply' } });
    expect(report?.kept).toContainEqual({ where: '"Kind" (question-classifier)', what: 'instruction (37 characters, byte for byte)' });
    expect(report?.changed).toContainEqual(expect.objectContaining({ where: '"Reply" (variable-aggregator)', what: 'joining 2 branches' }));
    // One entry per setting, not one per copy.
    expect(report?.kept.filter((e) => e.where === '"Polish" (llm)' && e.what === 'max tokens 200')).toHaveLength(1);
    expect(lintChain(chain, stepRegistry).filter((f) => f.severity === 'error')).toEqual([]);
  });

  it('runs the branch the classifier names, and only its copy of what follows', async () => {
    const { chain } = imported(ROUTED);
    for (const [category, taken, other] of [['refund', 'refund_reply', 'general_reply'], ['other', 'general_reply', 'refund_reply']] as const) {
      const provider = answering({ Classify: JSON.stringify({ category }), 'You handle refunds.': 'Refunds take 30 days.', 'You answer anything else.': 'We will look into it.', Polish: 'Polished.' });
      const { meta, status, chosen } = await run(chain, { ticket: 'I want my money back.' }, provider);
      expect(meta.status, category).toBe('succeeded');
      expect(chosen).toEqual([taken]);
      expect([status(taken), status(other), status(`polish_after_${taken}`), status(`polish_after_${other}`)]).toEqual(['succeeded', 'skipped', 'succeeded', 'skipped']);
      expect(meta.output).toBe('Polished.');
      // The polish step was given the branch's own reply.
      const polish = provider.requests.find((r) => r.messages.some((m) => m.content.includes('Polish this reply.')));
      expect(polish?.messages.map((m) => m.content).join('\n')).toContain(category === 'refund' ? 'Refunds take 30 days.' : 'We will look into it.');
    }
  });

  it('runs on the offline demo model, taking the branch of the class it answers', async () => {
    const { chain } = imported(ROUTED);
    const repo = createMemoryRunRepository();
    const meta = await runChain({ chain, inputs: { ticket: 'Please refund the 40 dollars you charged twice.' }, provider: createDemoProvider(), model: demoModel, repo });
    expect(meta.status).toBe('succeeded');
    const events = await repo.getEvents(meta.id);
    const answered = events.find((e) => e.type === 'step.finished' && e.stepId === 'kind');
    const category = answered?.type === 'step.finished' ? (answered.output as { category: string }).category : '';
    const taken = category === 'refund' ? 'refund_reply' : 'general_reply';
    const ran = events.filter((e) => e.type === 'step.finished' && e.status === 'succeeded').map((e) => (e.type === 'step.finished' ? e.stepId : ''));
    expect(ran).toEqual(expect.arrayContaining(['kind', 'kind_route', taken, `polish_after_${taken}`, `reply_after_${taken}`]));
    expect(ran).not.toContain(taken === 'refund_reply' ? 'general_reply' : 'refund_reply');
  });

  it('an if-else on an input: its value chooses the branch, and a value left out stops the run at the router (the report says so)', async () => {
    const { chain, report } = imported(ON_INPUT);
    const router = chain.steps.find((s) => s.kind === 'router');
    expect(router?.config).toEqual({ bindings: { value: 'inputs.tone' }, field: '', routes: [{ equals: 'formal', to: 'formal', label: 'formal' }], defaultTo: 'casual', onMissingLabel: 'otherwise' });
    // A router reads an untrusted input only through a model step's field: the import trusts this one and says so.
    expect(chain.inputs.find((i) => i.name === 'tone')).toMatchObject({ trust: 'trusted', required: false });
    expect(report?.changed).toContainEqual(expect.objectContaining({ where: 'input tone', what: 'trusted' }));
    expect(report?.changed).toContainEqual(expect.objectContaining({ where: '"Tone check" (if-else)', what: 'the condition Start.tone is "formal"' }));
    expect(lintChain(chain, stepRegistry).filter((f) => f.severity === 'error')).toEqual([]);
    const answers = { 'Rewrite formally.': 'Dear Sir', 'Rewrite casually.': 'Hey' };
    for (const [tone, taken, output] of [['formal', 'formal', 'Dear Sir'], ['friendly', 'casual', 'Hey']] as const) {
      const { meta, chosen } = await run(chain, { text: 'Hello', tone }, answering(answers));
      expect([meta.status, chosen, meta.output], tone).toEqual(['succeeded', [taken], output]);
    }
    expect(report?.changed).toContainEqual(expect.objectContaining({ where: '"Tone check" (if-else)', what: 'Start.tone left out' }));
    const left = await run(chain, { text: 'Hello' }, answering(answers));
    expect([left.meta.status, left.meta.error]).toEqual(['failed', expect.stringMatching(/^Step "Tone check" failed \(missing_input\): no value for value \(inputs\.tone\)/)]);
  });

  it('an if-else testing empty (or not empty) becomes a router with a route on an empty value: the input stays untrusted, a value left out takes it', async () => {
    const answers = { 'Rewrite formally.': 'Dear Sir', 'Rewrite casually.': 'Hey' };
    const onEmpty = imported(ON_INPUT.replace('comparison_operator: is, value: formal', "comparison_operator: empty, value: ''"));
    const router = onEmpty.chain.steps.find((s) => s.kind === 'router');
    expect(router?.config).toEqual({ bindings: { value: 'inputs.tone' }, field: '', routes: [{ when: 'empty', to: 'formal', label: 'empty' }], defaultTo: 'casual', onMissingLabel: 'otherwise' });
    // Only whether a tone was given steers the run, never its text: the input is not made trusted.
    expect(onEmpty.chain.inputs.find((i) => i.name === 'tone')).toMatchObject({ trust: 'untrusted', required: false });
    expect(onEmpty.report?.changed).toContainEqual(expect.objectContaining({ where: '"Tone check" (if-else)', what: 'what counts as empty' }));
    expect(lintChain(onEmpty.chain, stepRegistry).filter((f) => f.severity === 'error')).toEqual([]);
    for (const [inputs, taken] of [[{ text: 'Hello' }, 'formal'], [{ text: 'Hello', tone: '' }, 'formal'], [{ text: 'Hello', tone: 'warm' }, 'casual']] as const) {
      const { meta, chosen } = await run(onEmpty.chain, inputs, answering(answers));
      expect([meta.status, chosen], JSON.stringify(inputs)).toEqual(['succeeded', [taken]]);
    }
    // "not empty": the empty value goes to the else branch, anything else to the case.
    const notEmpty = imported(ON_INPUT.replace('comparison_operator: is, value: formal', "comparison_operator: not empty, value: ''"));
    expect(notEmpty.chain.steps.find((s) => s.kind === 'router')?.config).toMatchObject({ routes: [{ when: 'empty', to: 'casual', label: 'empty' }], defaultTo: 'formal' });
    const left = await run(notEmpty.chain, { text: 'Hello' }, answering(answers));
    expect([left.meta.status, left.chosen, left.meta.output]).toEqual(['succeeded', ['casual'], 'Hey']);
  });

  it('translation_workflow.yml as published: its "COUNTRY IS NULL" branch and aggregator import and run on the demo model, with the country given or left out', async () => {
    const source = readFileSync(new URL('../testing/import-samples/dify/translation_workflow.yml', import.meta.url), 'utf8');
    const { chain, report } = imported(source);
    expect(chain.steps.map((s) => s.id)).toEqual([
      'translation', 'country_is_null', 'expert_suggestions', 'expert_suggestions_with_country',
      'imporve_translate_after_expert_suggestions', 'imporve_translate_after_expert_suggestions_with_country',
      'output_after_expert_suggestions', 'output_after_expert_suggestions_with_country',
    ]);
    expect(chain.steps[1]?.config).toMatchObject({ bindings: { value: 'inputs.country' }, routes: [{ when: 'empty', to: 'expert_suggestions' }], defaultTo: 'expert_suggestions_with_country' });
    expect(chain.inputs.find((i) => i.name === 'country')).toMatchObject({ trust: 'untrusted', required: false });
    // Dify sends IMPORVE_TRANSLATE's "{target_lang}" as literal text; here it names a binding, and the report says so.
    expect(report?.changed).toContainEqual(expect.objectContaining({ where: '"IMPORVE_TRANSLATE" (llm)', what: 'the text {target_lang} in a prompt' }));
    expect(report?.changed).toContainEqual(expect.objectContaining({ where: '"COUNTRY IS NULL" (if-else)', what: 'the condition 开始.country empty' }));
    expect(lintChain(chain, stepRegistry).filter((f) => f.severity === 'error')).toEqual([]);
    const inputs = { source_lang: 'English', target_lang: 'French', source_text: 'The appeal must be filed within 180 days.' };
    for (const [given, taken] of [[{}, 'expert_suggestions'], [{ country: '' }, 'expert_suggestions'], [{ country: 'Canada' }, 'expert_suggestions_with_country']] as const) {
      const { meta, status, chosen } = await run(chain, { ...inputs, ...given }, createDemoProvider());
      expect(meta.status, JSON.stringify(given)).toBe('succeeded');
      expect(chosen).toEqual([taken]);
      expect(status(`imporve_translate_after_${taken}`)).toBe('succeeded');
      expect(status(`output_after_${taken === 'expert_suggestions' ? 'expert_suggestions_with_country' : 'expert_suggestions'}`)).toBe('skipped');
    }
  });


  it('a chatflow\'s message (sys.query) is a chain input; the answer node is its output', async () => {
    const chat = `app: {name: Chat, mode: advanced-chat}
kind: app
version: 0.1.5
workflow:
  graph:
    edges:
    - {source: '1', sourceHandle: source, target: '2'}
    - {source: '2', sourceHandle: source, target: '3'}
    nodes:
    - {id: '1', position: {x: 0, y: 0}, data: {type: start, title: Start, variables: []}}
    - {id: '2', position: {x: 300, y: 0}, data: {type: llm, title: Reply, memory: {window: {enabled: true, size: 5}}, model: {name: gpt-4o, completion_params: {temperature: 0.5, max_tokens: 256}}, prompt_template: [{role: system, text: Be kind.}, {role: user, text: '{{#sys.query#}}'}]}}
    - {id: '3', position: {x: 600, y: 0}, data: {type: answer, title: Answer, answer: '{{#2.text#}}'}}
`;
    const { chain, report } = imported(chat);
    expect(chain.inputs).toEqual([expect.objectContaining({ name: 'query', trust: 'untrusted', required: true })]);
    expect(chain.steps.map((s) => [s.id, s.kind, s.config.bindings])).toEqual([['reply', 'model', { query: 'inputs.query' }], ['answer', 'output', { value: 'steps.reply' }]]);
    expect(report?.dropped).toContainEqual(expect.objectContaining({ where: '"Reply" (llm)', what: 'conversation memory' }));
    const { meta } = await run(chain, { query: 'Where is my parcel?' }, createDemoProvider());
    expect(meta.status).toBe('succeeded');
  });

  it('if-else conditions: equalities and negations on one value become routes; anything else is named', () => {
    const name = (s: string[]) => s.join('.');
    const cond = (operator: string, value: unknown, variable = 'x') => ({ variable_selector: ['1', variable], comparison_operator: operator, value });
    expect(ifElseRoutes({ cases: [{ case_id: 'a', logical_operator: 'or', conditions: [cond('is', 'red'), cond('in', ['blue', 'green'])] }, { case_id: 'b', conditions: [cond('=', '3')] }] }, name))
      .toMatchObject({ selector: ['1', 'x'], routes: [{ equals: 'red', handle: 'a' }, { equals: 'blue', handle: 'a' }, { equals: 'green', handle: 'a' }, { equals: 3, handle: 'b' }], otherwise: 'false' });
    expect(ifElseRoutes({ cases: [{ case_id: 'true', logical_operator: 'and', conditions: [cond('is not', 'spam'), cond('≠', 0)] }] }, name))
      .toMatchObject({ routes: [{ equals: 'spam', handle: 'false' }, { equals: 0, handle: 'false' }], otherwise: 'true' });
    expect(ifElseRoutes({ cases: [{ case_id: 'true', conditions: [cond('is', '')] }] }, name)).toEqual({ problem: 'it tests 1.x is "": a route on "" is a design error here (it reads as a label nobody typed)' });
    // Emptiness: a route on an empty value, in the order of the cases; "not empty" and "not null" as a negation.
    expect(ifElseRoutes({ cases: [{ case_id: 'a', logical_operator: 'or', conditions: [cond('is', 'red'), cond('empty', '')] }, { case_id: 'b', conditions: [cond('null', '')] }] }, name))
      .toEqual({ selector: ['1', 'x'], routes: [{ equals: 'red', label: 'red', handle: 'a' }, { when: 'empty', label: 'empty', handle: 'a' }], otherwise: 'false', stated: '1.x is "red" or 1.x empty; else if 1.x null' });
    expect(ifElseRoutes({ cases: [{ case_id: 'true', logical_operator: 'and', conditions: [cond('not null', ''), cond('is not', 'spam')] }] }, name))
      .toMatchObject({ routes: [{ when: 'empty', handle: 'false' }, { equals: 'spam', handle: 'false' }], otherwise: 'true' });
    // The older shape: conditions on the node itself, IF = 'true'.
    expect(ifElseRoutes({ logical_operator: 'and', conditions: [cond('is', 'yes')] }, name)).toMatchObject({ routes: [{ equals: 'yes', handle: 'true' }], otherwise: 'false' });
    expect(ifElseRoutes({ cases: [{ case_id: 'true', conditions: [cond('contains', 'refund')] }] }, name)).toEqual({ problem: expect.stringMatching(/^it tests 1\.x contains "refund"; a router branches on a value equalling a label/) });
    expect(ifElseRoutes({ cases: [{ case_id: 'true', logical_operator: 'or', conditions: [cond('is', 'a'), cond('is', 'b', 'y')] }] }, name)).toEqual({ problem: 'it tests 1.x and 1.y; a router branches on one value' });
    expect(ifElseRoutes({ cases: [{ case_id: 'a', conditions: [cond('is not', 'a')] }, { case_id: 'b', conditions: [cond('is', 'b')] }] }, name)).toEqual({ problem: expect.stringMatching(/a router can take a negated test only as the single case of an if\/else/) });
  });

  it('refuses what has no counterpart, naming the node and why', () => {
    const twoNodeBody = ROUTED.replace("- {id: '5', position", `- {id: '8', position: {x: 0, y: 400}, data: {type: iteration, title: Each, iterator_selector: ['1', ticket], output_selector: ['10', text]}}
    - {id: '9', parentId: '8', position: {x: 0, y: 0}, data: {type: llm, title: First, iteration_id: '8', isInIteration: true, model: {name: m}, prompt_template: [{role: user, text: '{{#8.item#}}'}]}}
    - {id: '10', parentId: '8', position: {x: 0, y: 0}, data: {type: llm, title: Second, iteration_id: '8', isInIteration: true, model: {name: m}, prompt_template: [{role: user, text: '{{#9.text#}}'}]}}
    - {id: '5', position`);
    expect(refusals(twoNodeBody)).toEqual([expect.stringMatching(/^"Each" \(iteration\): its body is "First" \(llm\), "Second" \(llm\); a map step runs one model call per item/)]);
    // An aggregator of values that do not come from branches: Dify passes on the first one set.
    const unbranched = ROUTED.replace("variables: [['3', text], ['4', text]]", "variables: [['3', text], ['1', ticket]]");
    expect(refusals(unbranched)).toEqual([expect.stringMatching(/^"Reply" \(variable-aggregator\) reads "Start" \(start\), which runs whichever branch is taken/)]);
    // A node on a branch that reads nothing made on it would run on every branch here.
    const ungated = ROUTED.replace("{role: user, text: '{{#1.ticket#}}'}]}}\n    - {id: '4'", "{role: user, text: '{{#1.ticket#}}'}]}}\n    - {id: '4'").replace("- {source: '3', sourceHandle: source, target: '5'}", "- {source: '3', sourceHandle: source, target: '5'}\n    - {source: '3', sourceHandle: source, target: '11'}\n    - {source: '11', sourceHandle: source, target: '12'}")
      .replace("    - {id: '5', position", "    - {id: '11', position: {x: 0, y: 600}, data: {type: llm, title: Aside, model: {name: m}, prompt_template: [{role: user, text: '{{#1.ticket#}}'}]}}\n    - {id: '12', position: {x: 0, y: 800}, data: {type: end, title: End 2, outputs: [{variable: aside, value_selector: ['11', text]}]}}\n    - {id: '5', position");
    expect(refusals(ungated)).toEqual([
      expect.stringMatching(/^"Aside" \(llm\) runs only on a branch in Dify but reads nothing made on it/),
      expect.stringMatching(/^"End 2" \(end\) runs only on a branch in Dify but reads nothing made on it/),
    ]);
    expect(refusals(ROUTED.replace('type: variable-aggregator', 'type: list-operator'))).toEqual(['"Reply" (list-operator) has no counterpart here: no step does what it does']);
    // Copies are bounded: an aggregator of nine branches is refused rather than multiplied.
    const classes = Array.from({ length: 9 }, (_, i) => i + 10);
    const wide = ROUTED
      .replace('classes: [{id: c1, name: refund}, {id: c2, name: other}]', `classes: [${classes.map((i) => `{id: c${i}, name: k${i}}`).join(', ')}]`)
      .replace("variables: [['3', text], ['4', text]]", `variables: [${classes.map((i) => `['${i}', text]`).join(', ')}]`)
      .replace("    - {source: '2', sourceHandle: c1, target: '3'}", classes.map((i) => `    - {source: '2', sourceHandle: c${i}, target: '${i}'}\n    - {source: '${i}', sourceHandle: source, target: '5'}`).join('\n'))
      .replace("    - {id: '5', position", `${classes.map((i) => `    - {id: '${i}', position: {x: 600, y: ${i * 100}}, data: {type: llm, title: R${i}, model: {name: m}, prompt_template: [{role: user, text: '{{#1.ticket#}}'}]}}`).join('\n')}\n    - {id: '5', position`)
      .replace("    - {source: '2', sourceHandle: c2, target: '4'}\n    - {source: '3', sourceHandle: source, target: '5'}\n    - {source: '4', sourceHandle: source, target: '5'}\n", '');
    expect(refusals(wide)).toEqual(['"Reply" (variable-aggregator) joins 9 branches; what follows it would be built once per branch (at most 8)']);
    expect(refusals(ROUTED.replace('title: Polish,', 'title: Polish, error_strategy: fail-branch,'))).toEqual([expect.stringMatching(/^"Polish" \(llm\) has a fail branch, which this import does not carry over/)]);
    const { report } = imported(ROUTED.replace('title: Polish,', 'title: Polish, error_strategy: default-value, retry_config: {retry_enabled: true, max_retries: 3},'));
    expect(report?.dropped).toContainEqual(expect.objectContaining({ where: '"Polish" (llm)', what: 'its default value on failure' }));
    expect(report?.changed).toContainEqual(expect.objectContaining({ where: '"Polish" (llm)', what: '3 retries' }));
  });

  it('the hand-written support-triage sample: extractor, if-else, classifier, aggregator and a one-llm iteration, run end to end', async () => {
    const { chain, report } = imported(readFileSync(new URL('../testing/dify-samples/support-triage.yml', import.meta.url), 'utf8'));
    const step = (id: string) => chain.steps.find((s) => s.id === id);
    expect(chain.steps.map((s) => s.kind)).toEqual(['model', 'router', 'model', 'model', 'router', 'model', 'model', 'map', 'output', 'output', 'output', 'output']);
    expect(step('extract')?.config).toMatchObject({
      prompt: '{query}', maxTokens: 400, temperature: 0,
      system: 'Extract these parameters from the text. Leave out a parameter the text does not state.\n\nUrgency is high only when the customer cannot work at all.',
      outputSchema: {
        type: 'object', required: ['urgency', 'questions'], additionalProperties: false,
        properties: { urgency: { type: 'string', enum: ['low', 'high'] }, product: { type: 'string' }, questions: { type: 'array', items: { type: 'string' } } },
      },
    });
    expect(step('urgent')?.config).toMatchObject({ bindings: { value: 'steps.extract' }, field: 'urgency', routes: [{ equals: 'high', to: 'escalation_note' }], defaultTo: 'topic', onMissingLabel: 'otherwise' });
    expect(report?.changed).toContainEqual(expect.objectContaining({ where: '"Technical reply" (llm)', what: 'its context {{#context#}}' }));
    expect(step('technical_reply')?.config).toMatchObject({ prompt: '{ticket}', system: 'You answer questions about {product}. Give numbered steps.', bindings: { ticket: 'inputs.ticket', product: 'steps.extract.product' } });
    expect(step('answer_each_question')?.config).toMatchObject({ itemName: 'item', concurrency: 3, prompt: 'Question: {item}\n\nTicket:\n{ticket}', bindings: { items: 'steps.extract.questions', ticket: 'inputs.ticket' }, maxTokens: 200 });
    expect(report?.dropped.map((d) => `${d.where} ${d.what}`)).toEqual(['"Extract" (parameter-extractor) stop ["###"]', '"Technical reply" (llm) top_p 0.9']);
    expect(lintChain(chain, stepRegistry).filter((f) => f.severity === 'error')).toEqual([]);

    const provider = answering({
      'Extract these parameters': JSON.stringify({ urgency: 'low', product: 'Sync app', questions: ['Why does it stop?', 'Is there a log?'] }),
      Classify: JSON.stringify({ category: 'technical' }), 'You answer questions about': '1. Restart.', 'Answer the question in one sentence': 'From the ticket.',
    });
    const { meta, status } = await run(chain, { ticket: 'Sync stops at 90%. Why does it stop? Is there a log?' }, provider);
    expect(meta.status).toBe('succeeded');
    expect(['escalation_note', 'billing_reply', 'technical_reply'].map(status)).toEqual(['skipped', 'skipped', 'succeeded']);
    expect(meta.output).toMatchObject({ reply_after_technical_reply: '1. Restart.', answers: { ok_count: 2, error_count: 0 } });
    // The technical reply's system message named the product the extractor found.
    // Framed as data: it came from the ticket, through the extractor.
    expect(provider.requests.some((r) => r.messages.some((m) => m.role === 'system' && m.content.startsWith('You answer questions about <data name="product">\nSync app\n</data>. Give numbered steps.')))).toBe(true);
  });
});

describe('Jinja over values known only at run time (a template-transform node)', () => {
  it('{{ var }} becomes {var}; anything else is refused naming the construct and what it does, never rendered at run time', () => {
    expect(jinjaToTemplate('Hello {{ name }}, {{topic}}.')).toEqual({ template: 'Hello {name}, {topic}.', vars: ['name', 'topic'] });
    const refused = (source: string) => {
      const result = jinjaToTemplate(source);
      return 'problem' in result ? result.problem : '';
    };
    expect(refused("{{ parts | join(' ') }}")).toMatch(/^it uses Jinja beyond \{\{ var \}\}: \{\{ parts \| join\(' '\) \}\} is a filter over values known only at run time/);
    expect(refused('{% for p in parts %}{{ p }}{% endfor %}')).toMatch(/: \{% for p in parts %\} is a loop over values/);
    expect(refused('{% if urgent %}Now.{% endif %}')).toMatch(/: \{% if urgent %\} is a condition over values/);
    expect(refused('{{ ticket.body }}')).toMatch(/is attribute access over values/);
    expect(refused('{{ range(3) }}')).toMatch(/is a call over values/);
  });
});
