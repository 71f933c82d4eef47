import { readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { Chain } from '../chain/schema.ts';
import { main } from '../cli/main.ts';
import { runChain } from '../engine/run.ts';
import { createDemoProvider } from '../providers/demo-model.ts';
import { captureIo } from '../testing/capture-io.ts';
import { createMemoryRunRepository } from '../trace/repository.ts';
import { importChainSource, importSuiteSource } from './index.ts';
import { chatMessages, jinjaPrompt } from './promptflow-jinja.ts';

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
const SAMPLES = fileURLToPath(new URL('../testing/import-samples/promptflow/', import.meta.url));
const folderReader = (folder: string) => (file: string) => (/^[\w.-]+$/.test(file) ? readFileSync(join(folder, file), 'utf8') : { error: 'outside the folder' });
const problemsOf = (result: ReturnType<typeof importChainSource>) => (result.ok ? [] : result.problems.map((p) => `${p.path} ${p.message}`));

async function runDemo(chain: Chain, inputs: Record<string, unknown>) {
  const repo = createMemoryRunRepository();
  const meta = await runChain({ chain, inputs, provider: createDemoProvider(), model: { name: 'demo', maxOutputTokens: 4096, structuredOutput: true }, repo });
  return { meta, events: await repo.getEvents(meta.id) };
}

const made: string[] = [];
afterAll(() => Promise.all(made.map((d) => rm(d, { recursive: true, force: true }))));
async function tempDir(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'seamscope-promptflow-'));
  made.push(root);
  return root;
}

describe('Prompt flow', () => {
  it('imports llm and prompt nodes with their Jinja prompts and settings, and runs on the demo model', async () => {
    const result = importChainSource(FLOW, { fileName: 'deadlines/flow.dag.yaml', readSibling: sibling(FILES) });
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    const [framing, answer] = result.chain.steps;
    expect(framing).toMatchObject({ kind: 'template', config: { text: 'Text to read:\n{text}', bindings: { text: 'inputs.text' } } });
    expect(answer).toMatchObject({ kind: 'model', config: { system: 'Answer with the day counts only.', prompt: '{material}\nWhich deadlines?', bindings: { material: 'steps.framing' }, model: 'gpt-4o-mini', temperature: 0.3, maxTokens: 256 } });
    expect(result.report?.dropped.map((d) => d.what)).toEqual(expect.arrayContaining(['stop ["###"]', 'the connection open_ai_connection']));
    expect(result.report?.kept.map((d) => d.what)).toEqual(expect.arrayContaining(['the system message (32 characters, byte for byte)', 'max tokens 256', 'temperature 0.3']));
    const { meta } = await runDemo(result.chain, { text: 'The appeal was filed within 180 days; the reply is due in 60 days.' });
    expect(meta.status).toBe('succeeded');
  });

  it('never defaults a setting unsaid: no temperature is Prompt flow\'s 1.0, no max_tokens is reported, response_format json_object is an object schema', () => {
    const flow = FLOW.replace('    temperature: 0.3\n    max_tokens: 256\n', '    response_format: {type: json_object}\n    seed: 7\n');
    const result = importChainSource(flow, { fileName: 'flow.dag.yaml', readSibling: sibling(FILES) });
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    expect(result.chain.steps[1]).toMatchObject({ config: { temperature: 1, maxTokens: 1024, outputSchema: { type: 'object' } } });
    const changed = result.report?.changed.map((e) => `${e.what}: ${e.why}`) ?? [];
    expect(changed).toContainEqual(expect.stringMatching(/^temperature: the node sets none; Prompt flow's llm tool then sends 1\.0/));
    expect(changed).toContainEqual(expect.stringMatching(/^max tokens: the file sets no cap/));
    expect(changed).toContainEqual(expect.stringMatching(/^JSON mode: became the output schema/));
    expect(result.report?.dropped.map((d) => d.what)).toContain('seed 7');
  });

  it('refuses python nodes by name and does not refuse again what reads them', () => {
    const flow = `${FLOW.replace('material: ${framing.output}', 'material: ${tidy.output}')}- name: tidy\n  type: python\n  source: {type: code, path: tidy.py}\n  inputs:\n    x: \${framing.output}\n`;
    const messages = problemsOf(importChainSource(flow, { fileName: 'flow.dag.yaml', readSibling: sibling(FILES) }));
    expect(messages).toEqual(['$.nodes[2] "tidy" (python) runs Python code (tidy.py), which an import never runs']);
  });

  it('reads prompt files only through the folder it is given: the flow file alone is refused, naming the file', () => {
    expect(problemsOf(importChainSource(FLOW, { fileName: 'flow.dag.yaml' }))).toContainEqual(expect.stringContaining('its prompt file framing.jinja2 is not read: this import was given the flow file alone, without its folder'));
  });

  it('turns activate conditions into a router and runs the branch the value names', async () => {
    const folder = join(SAMPLES, 'support-reply');
    const result = importChainSource(readFileSync(join(folder, 'flow.dag.yaml'), 'utf8'), { fileName: join(folder, 'flow.dag.yaml'), readSibling: folderReader(folder) });
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    const router = result.chain.steps.find((s) => s.kind === 'router');
    expect(router?.config).toMatchObject({ bindings: { value: 'inputs.reply_style' }, routes: [{ equals: 'short', to: 'short_reply' }, { equals: 'detailed', to: 'detailed_reply' }], defaultTo: null });
    expect(result.chain.inputs.find((i) => i.name === 'reply_style')?.trust).toBe('trusted');
    expect(result.chain.inputs.find((i) => i.name === 'ticket')?.trust).toBe('untrusted');
    const ticket = 'My blender arrived on 2 March with a cracked jug.';
    for (const [style, ran, skipped] of [['short', 'short_reply', 'detailed_reply'], ['detailed', 'detailed_reply', 'short_reply']] as const) {
      const { meta, events } = await runDemo(result.chain, { ticket, reply_style: style });
      expect(meta.status, style).toBe('succeeded');
      const status = (id: string) => events.filter((e) => e.type === 'step.finished' && e.stepId === id).map((e) => (e as { status: string }).status);
      expect(status(ran), style).toEqual(['succeeded']);
      expect(status(skipped), style).toEqual(['skipped']);
    }
    // A value no condition names fails the run (Prompt flow would bypass both), as the report says.
    expect((await runDemo(result.chain, { ticket, reply_style: 'poem' })).meta.status).toBe('failed');
    expect(result.report?.changed.map((e) => e.why)).toContainEqual(expect.stringContaining('a value none of them names fails the run, where Prompt flow bypasses them all'));
  });

  it('refuses a node reading nodes of different conditions (Prompt flow runs it with None)', () => {
    const flow = `inputs:\n  q: {type: string}\n  mode: {type: string}\noutputs:\n  out: {type: string, reference: "\${merge.output}"}\nnodes:\n${['a', 'b'].map((n) => `- name: ${n}\n  type: prompt\n  source: {type: code, path: p.jinja2}\n  inputs: {q: "\${inputs.q}"}\n  activate: {when: "\${inputs.mode}", is: ${n}}\n`).join('')}- name: merge\n  type: prompt\n  source: {type: code, path: m.jinja2}\n  inputs: {a: "\${a.output}", b: "\${b.output}"}\n`;
    const messages = problemsOf(importChainSource(flow, { fileName: 'flow.dag.yaml', readSibling: sibling({ 'p.jinja2': '{{ q }}', 'm.jinja2': '{{ a }} {{ b }}' }) }));
    expect(messages).toEqual([expect.stringMatching(/^\$\.nodes\[2\] "merge" reads "a", "b", of which "a" runs only when \$\{inputs\.mode\} is "a" and "b" runs only when/)]);
  });

  it('imports a node\'s default variant and reports the others as not carried over', () => {
    const folder = join(SAMPLES, 'support-reply');
    const result = importChainSource(readFileSync(join(folder, 'flow.dag.yaml'), 'utf8'), { fileName: 'flow.dag.yaml', readSibling: folderReader(folder) });
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    expect(result.chain.steps.find((s) => s.id === 'short_reply')?.config).toMatchObject({ temperature: 0.3, maxTokens: 200, system: expect.stringContaining('two sentences') });
    expect(result.report?.dropped).toContainEqual({ where: '"short_reply"', what: 'variant variant_1 (short_reply__variant_1.jinja2, temperature 0.7, max_tokens 120)', why: expect.stringContaining('only the default variant is imported') });
  });

  it('renders Jinja over literal inputs at import, never running code', () => {
    expect(jinjaPrompt('{% for r in rules %}\n- {{ r }}\n{% endfor %}\nAsk: {{ q }}', { rules: ['a', 'b'] }, new Set(['q']))).toEqual({ template: '- a\n- b\nAsk: {q}', vars: ['q'], rendered: true, loops: [] });
    expect(jinjaPrompt('{% if strict %}Be exact.{% else %}Be brief.{% endif %} {{ q.text }}', { strict: false }, new Set(['q']))).toMatchObject({ template: 'Be brief. {q.text}', vars: ['q'] });
    // Calls, arithmetic and nested loops are refused before anything renders: nothing unbounded runs at import.
    expect(jinjaPrompt("{{ ''.__class__.__mro__[1].__subclasses__() }}", {}, new Set())).toMatchObject({ problem: expect.stringContaining('calls __subclasses__()') });
    expect(jinjaPrompt('{% for i in range(100000000) %}x{% endfor %}', {}, new Set())).toMatchObject({ problem: expect.stringContaining('calls range()') });
    expect(jinjaPrompt('{{ "x" * 1000000000 }}', {}, new Set())).toMatchObject({ problem: expect.stringContaining('computes with "*"') });
    expect(jinjaPrompt('{% for a in xs %}{% for b in xs %}.{% endfor %}{% endfor %}', { xs: [1] }, new Set())).toMatchObject({ problem: 'it nests one loop in another; only {{ name }} and loops and conditions over the node\'s literal inputs are rendered at import' });
    expect(jinjaPrompt(`${'y'.repeat(1000)}{% for a in xs %}{{ a }}{% endfor %}`, { xs: Array.from({ length: 5000 }, (_, i) => i) }, new Set())).toMatchObject({ problem: expect.stringContaining('would render more than') });
    expect(jinjaPrompt('{% if %}', {}, new Set())).toMatchObject({ problem: expect.stringContaining('not valid Jinja') });
    expect(jinjaPrompt('Use {x} here {{ q }}', {}, new Set(['q']))).toMatchObject({ problem: 'it has the text {x}, which a Seamscope template would fill in' });
  });

  it('carries a loop over a runtime list as that list\'s placeholder and refuses other Jinja over runtime values, naming it', () => {
    const loop = jinjaPrompt('Examples:\n{% for ex in examples %}\nURL: {{ex.url}}\n{% endfor %}\nURL: {{ url }}', {}, new Set(['examples', 'url']));
    expect(loop).toMatchObject({ template: 'Examples:\n{examples}\nURL: {url}', vars: ['examples', 'url'], loops: [{ over: 'examples' }] });
    expect(jinjaPrompt('{% if verbose %}Long.{% endif %}{{ q }}', {}, new Set(['verbose', 'q']))).toMatchObject({ problem: expect.stringMatching(/^\{% if verbose %\} uses verbose, a value known only when the flow runs/) });
    expect(jinjaPrompt('{{ q | upper }}', {}, new Set(['q']))).toMatchObject({ problem: expect.stringContaining('uses q, a value known only when the flow runs') });
  });

  it('splits chat prompts at role lines as Prompt flow does: # optional, any case; other shapes are refused by name', () => {
    expect(chatMessages('system:\nBe brief.\nUSER:\nHi')).toEqual([{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hi' }]);
    expect(chatMessages('Just text')).toEqual([{ role: 'user', content: 'Just text' }]);
    expect(chatMessages('Preamble\n# user:\nHi')).toMatchObject({ problem: expect.stringContaining('text before its first role line') });
    const withTurns = { ...FILES, 'answer.jinja2': '# system:\nS\n# user:\n{{material}}\n# assistant:\nSure.' };
    expect(problemsOf(importChainSource(FLOW, { fileName: 'flow.dag.yaml', readSibling: sibling(withTurns) }))).toContainEqual(expect.stringContaining('"answer" (llm): its prompt answer.jinja2 has the messages system, user, assistant; a model step sends one system message and one user message'));
  });

  it('the four corpus flows: with each python node stood in by a flow input, only what remains is refused, and the rest imports and runs', async () => {
    // What the python nodes compute is given as an input of the same name, so the test sees
    // exactly what else in each flow would stop an import (not a claim that python nodes run).
    const remaining: Record<string, RegExp[]> = {
      'conditional-flow-for-switch': [],
      'eval-qna-rag-metrics': [/"gpt_relevance" \(llm\): its prompt rag_generation_prompt\.jinja2 has the messages system, user, assistant/],
      'maths-to-code': [],
      'web-classification': [],
    };
    for (const [name, refused] of Object.entries(remaining)) {
      const folder = join(SAMPLES, name);
      const yaml = readFileSync(join(folder, 'flow.dag.yaml'), 'utf8');
      const python = [...yaml.matchAll(/^- name: (\w+)\n(?: {2}.*\n)*? {2}type: python$/gm)].map((m) => m[1] as string);
      let stood = yaml.replace(/^inputs:\n/m, `inputs:\n${python.map((p) => `  ${p}:\n    type: string\n    default: ${p === 'class_check' ? 'order_search' : p === 'validate_input' ? '"{}"' : 'stood in'}\n`).join('')}`);
      for (const p of python) stood = stood.replaceAll(`\${${p}.output`, `\${inputs.${p}`).replace(new RegExp(`^- name: ${p}\\n(?:  .*\\n)*`, 'm'), '');
      stood = stood.replace(/\$\{inputs\.(\w+)\.\w+\}/g, '${inputs.$1}');
      const result = importChainSource(stood, { fileName: join(folder, 'flow.dag.yaml'), readSibling: folderReader(folder) });
      const messages = problemsOf(result);
      expect(messages.length, `${name}: ${messages.join('\n')}`).toBe(refused.length);
      for (const pattern of refused) expect(messages, name).toContainEqual(expect.stringMatching(pattern));
      if (!result.ok) continue;
      const inputs = Object.fromEntries(result.chain.inputs.map((i) => [i.name, i.example ?? 'In 2023 the appeal was filed within 180 days.']));
      expect((await runDemo(result.chain, inputs)).meta.status, name).toBe('succeeded');
    }
  });

  it('reads data.jsonl as the flow\'s dataset: columns named like inputs, defaults for the rest, other columns reported', () => {
    const folder = join(SAMPLES, 'support-reply');
    const suite = importSuiteSource(readFileSync(join(folder, 'flow.dag.yaml'), 'utf8'), { fileName: join(folder, 'flow.dag.yaml'), readSibling: folderReader(folder) });
    if (!suite?.ok) throw new Error(JSON.stringify(suite));
    const [header, ...items] = suite.datasetText.split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(header).toMatchObject({ format: 'seamscope.dataset', name: 'support-reply data' });
    expect(items).toHaveLength(3);
    expect(items[1]).toEqual({ id: 'line-2', inputs: { ticket: 'I returned the kettle last week. When will I get my money back?', reply_style: 'detailed' }, expected: {} });
    expect(suite.report.dropped).toContainEqual(expect.objectContaining({ where: 'data.jsonl', what: 'the columns expected_days' }));
  });

  it('through the CLI reads prompt files only from the flow\'s own folder: never .., absolute paths or links out', async () => {
    const root = await tempDir();
    await mkdir(join(root, 'flow'));
    await writeFile(join(root, 'secret.jinja2'), 'SEAMSCOPE-OUTSIDE-SECRET-CANARY {{ text }}');
    await symlink(join(root, 'secret.jinja2'), join(root, 'flow', 'linked.jinja2'));
    for (const [name, body] of Object.entries(FILES)) await writeFile(join(root, 'flow', name), body);
    for (const [path, why] of [['../secret.jinja2', 'climbs out of the folder'], [join(root, 'secret.jinja2'), 'absolute path'], ['linked.jinja2', 'a link that points outside']]) {
      await writeFile(join(root, 'flow', 'flow.dag.yaml'), FLOW.replace('path: framing.jinja2', `path: ${path}`));
      const io = captureIo();
      expect(await main(['validate', join(root, 'flow', 'flow.dag.yaml')], io.io)).not.toBe(0);
      const printed = [...io.out, ...io.err].join('\n');
      expect(printed, path).toContain(`its prompt file ${path} is not read`);
      expect(printed, path).toContain(why);
      expect(printed, path).not.toContain('SEAMSCOPE-OUTSIDE-SECRET-CANARY');
    }
  });

  it('through the CLI takes a flow\'s folder for validate, run, convert and eval (data.jsonl the dataset)', async () => {
    const root = await tempDir();
    const flow = join(root, 'support-reply');
    await cp(join(SAMPLES, 'support-reply'), flow, { recursive: true });
    const validate = captureIo();
    expect(await main(['validate', flow], validate.io), validate.err.join('\n')).toBe(0);
    expect(validate.err[0]).toMatch(/^Imported from Prompt flow: \d+ kept exactly/);
    const run = captureIo();
    expect(await main(['run', flow, '--out', join(root, 'run.json')], run.io), run.err.join('\n')).toBe(0);
    expect(run.out.join('\n')).toContain('replacement');
    const convert = captureIo();
    expect(await main(['convert', join(flow, 'flow.dag.yaml'), '--to', 'chain', '--out', join(root, 'flow.chain.json')], convert.io), convert.err.join('\n')).toBe(0);
    expect(JSON.parse(await readFile(join(root, 'flow.chain.json'), 'utf8'))).toMatchObject({ format: 'seamscope.chain', meta: { importedFrom: { tool: 'Prompt flow' } } });
    const evaluate = captureIo();
    expect(await main(['eval', flow, '--out', join(root, 'eval'), '--json'], evaluate.io), evaluate.err.join('\n')).toBe(0);
    expect((JSON.parse(evaluate.out.at(-1) ?? '{}') as { dataset: { items: number } }).dataset.items).toBe(3);
  });
});

describe('Prompt flow files are untrusted', () => {
  it('hostile prompts cannot make the role and loop patterns backtrack', () => {
    const spaces = ' '.repeat(200_000);
    // Quadratic backtracking on either would take minutes; linear matching takes milliseconds.
    expect(chatMessages(`${spaces}x\n# user:\nHi`)).toMatchObject({ problem: expect.stringContaining('text before its first role line') });
    expect(jinjaPrompt(`{% for a${' ,'.repeat(50_000)} %}{% endfor %}`, {}, new Set(['a']))).toMatchObject({ problem: expect.stringContaining('not valid Jinja') });
    expect(jinjaPrompt(`{% for a in xs %}${spaces}{% endfor %}{{ q }}`, { xs: [1] }, new Set(['q']))).toMatchObject({ vars: ['q'] });
  });
});
