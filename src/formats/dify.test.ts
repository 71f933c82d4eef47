import { describe, expect, it } from 'vitest';
import { runChain } from '../engine/run.ts';
import { createDemoProvider } from '../providers/demo-model.ts';
import { createMemoryRunRepository } from '../trace/repository.ts';
import { importChainSource } from './index.ts';

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
