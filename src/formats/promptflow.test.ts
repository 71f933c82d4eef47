import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../cli/main.ts';
import { runChain } from '../engine/run.ts';
import { createDemoProvider } from '../providers/demo-model.ts';
import { captureIo } from '../testing/capture-io.ts';
import { createMemoryRunRepository } from '../trace/repository.ts';
import { importChainSource } from './index.ts';
import { jinjaToTemplate } from './promptflow.ts';

const FLOW = `inputs:
  text:
    type: string
    default: The appeal was filed within 180 days; the reply is due in 60 days.
outputs:
  answer:
    type: string
    reference: \${answer.output}
nodes:
- name: framing
  type: prompt
  source: {type: code, path: framing.jinja2}
  inputs:
    text: \${inputs.text}
- name: answer
  type: llm
  source: {type: code, path: answer.jinja2}
  inputs:
    deployment_name: gpt-4o-mini
    temperature: 0.3
    max_tokens: 256
    stop: ["###"]
    material: \${framing.output}
  connection: open_ai_connection
  api: chat
`;
const FILES: Record<string, string> = {
  'framing.jinja2': 'Text to read:\n{{ text }}',
  'answer.jinja2': '# system:\nAnswer with the day counts only.\n\n# user:\n{{material}}\nWhich deadlines?',
};
const sibling = (files: Record<string, string>) => (file: string) => files[file] ?? { error: 'no such file' };

const made: string[] = [];
afterAll(() => Promise.all(made.map((d) => rm(d, { recursive: true, force: true }))));

describe('Prompt flow', () => {
  it('imports llm and prompt nodes with their Jinja prompts and runs on the demo model', async () => {
    const result = importChainSource(FLOW, { fileName: 'deadlines/flow.dag.yaml', readSibling: sibling(FILES) });
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    const [framing, answer] = result.chain.steps;
    expect(framing).toMatchObject({ kind: 'template', config: { text: 'Text to read:\n{text}', bindings: { text: 'inputs.text' } } });
    expect(answer).toMatchObject({ kind: 'model', config: { system: 'Answer with the day counts only.', prompt: '{material}\nWhich deadlines?', bindings: { material: 'steps.framing' }, model: 'gpt-4o-mini', temperature: 0.3, maxTokens: 256 } });
    const dropped = result.report?.dropped.map((d) => d.what) ?? [];
    expect(dropped).toEqual(expect.arrayContaining(['stop ["###"]', 'the connection open_ai_connection']));
    const meta = await runChain({
      chain: result.chain, inputs: { text: 'The appeal was filed within 180 days; the reply is due in 60 days.' }, provider: createDemoProvider(),
      model: { name: 'demo', maxOutputTokens: 4096, structuredOutput: true }, repo: createMemoryRunRepository(),
    });
    expect(meta.status).toBe('succeeded');
  });

  it('refuses by name python nodes, richer Jinja, and a prompt file it cannot read', () => {
    const flow = `${FLOW}- name: tidy\n  type: python\n  source: {type: code, path: tidy.py}\n  inputs:\n    x: \${answer.output}\n`;
    const result = importChainSource(flow, { fileName: 'flow.dag.yaml', readSibling: sibling({ ...FILES, 'answer.jinja2': '{% for e in examples %}{{ e.url }}{% endfor %}' }) });
    const messages = result.ok ? [] : result.problems.map((p) => `${p.path} ${p.message}`);
    expect(messages).toContainEqual(expect.stringMatching(/^\$\.nodes\[2\] "tidy" \(python\) runs Python code \(tidy\.py\), which an import never runs/));
    expect(messages).toContainEqual(expect.stringMatching(/^\$\.nodes\[1\]\.source\.path "answer" \(llm\): its prompt answer\.jinja2 cannot be a Seamscope template: it uses Jinja beyond/));
    const alone = importChainSource(FLOW, { fileName: 'flow.dag.yaml' });
    expect(alone.ok ? [] : alone.problems.map((p) => p.message)).toContainEqual(expect.stringContaining('its prompt file framing.jinja2 is not read: this import reads one file'));
  });

  it('parses Jinja without running it: only {{ var }} translates', () => {
    expect(jinjaToTemplate('Hi {{ name }}, {{x}}')).toEqual({ template: 'Hi {name}, {x}', vars: ['name', 'x'] });
    expect(jinjaToTemplate("{{ ''.__class__.__mro__[1].__subclasses__() }}")).toMatchObject({ problem: expect.stringContaining('beyond {{ var }}') });
    expect(jinjaToTemplate('{% if %}')).toMatchObject({ problem: expect.stringContaining('not valid Jinja') });
  });

  it('through the CLI reads prompt files only from the flow\'s own folder', async () => {
    const root = await mkdtemp(join(tmpdir(), 'seamscope-promptflow-'));
    made.push(root);
    await mkdir(join(root, 'flow'));
    await writeFile(join(root, 'secret.jinja2'), 'SEAMSCOPE-OUTSIDE-SECRET-CANARY {{ text }}');
    await writeFile(join(root, 'flow', 'flow.dag.yaml'), FLOW.replace('path: framing.jinja2', 'path: ../secret.jinja2'));
    for (const [name, body] of Object.entries(FILES)) await writeFile(join(root, 'flow', name), body);
    const io = captureIo();
    expect(await main(['validate', join(root, 'flow', 'flow.dag.yaml')], io.io)).not.toBe(0);
    const printed = [...io.out, ...io.err].join('\n');
    expect(printed).toContain('its prompt file ../secret.jinja2 is not read');
    expect(printed).not.toContain('SEAMSCOPE-OUTSIDE-SECRET-CANARY');
    const ok = captureIo();
    await writeFile(join(root, 'flow', 'flow.dag.yaml'), FLOW);
    expect(await main(['validate', join(root, 'flow', 'flow.dag.yaml')], ok.io), ok.err.join('\n')).toBe(0);
  });
});
