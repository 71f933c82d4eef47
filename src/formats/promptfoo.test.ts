import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { datasetItemSchema } from '../eval/dataset.ts';
import { scoreItem } from '../eval/scorers.ts';
import { parseStrictYaml } from '../files/strict-yaml.ts';
import { importChainSource } from './index.ts';
import { importPromptfoo } from './promptfoo.ts';

const SAMPLES = fileURLToPath(new URL('../testing/import-samples/promptfoo/', import.meta.url));
const configOf = (text: string) => {
  const read = parseStrictYaml(text);
  if (!read.ok) throw new Error(read.message);
  return read.value;
};
const imported = (text: string) => {
  const read = importPromptfoo(configOf(text), 'promptfooconfig.yaml');
  if (!read.ok) throw new Error(JSON.stringify(read.problems));
  return read.value;
};

describe('promptfoo configs', () => {
  it('makes a chain per prompt, a dataset of the tests and a scorer per assertion that fits', () => {
    const { chains, dataset, report } = imported(readFileSync(`${SAMPLES}getting-started/promptfooconfig.yaml`, 'utf8'));
    expect(chains.map((c) => (c.steps as { config: { prompt?: string } }[])[0]?.config.prompt)).toEqual(['Convert this English to {language}: {input}', 'Translate to {language}: {input}']);
    expect(dataset.scorers).toEqual([{ type: 'contains' }]);
    expect(dataset.items).toEqual([
      { id: 'test-1', inputs: { language: 'French', input: 'Hello world' }, expected: { output: 'Bonjour le monde' } },
      { id: 'test-2', inputs: { language: 'Spanish', input: 'Where is the library?' }, expected: { output: 'Dónde está la biblioteca' } },
    ]);
    for (const item of dataset.items) expect(datasetItemSchema.safeParse(item).success).toBe(true);
    // The icontains assertion scores as promptfoo's would: case does not matter.
    const second = dataset.items[1] as (typeof dataset.items)[number];
    expect(scoreItem(second, dataset.scorers, { status: 'succeeded', output: '¿DÓNDE ESTÁ LA BIBLIOTECA?', routes: [] }).pass).toBe(true);
    expect(scoreItem(second, dataset.scorers, { status: 'succeeded', output: 'Où est la bibliothèque ?', routes: [] }).pass).toBe(false);
    expect(report.changed).toContainEqual(expect.objectContaining({ where: 'providers[1]', what: 'the provider openai:o4-mini' }));
    expect(report.kept).toContainEqual(expect.objectContaining({ what: expect.stringMatching(/^model gpt-4\.1 /) }));
  });

  it('never runs a code assertion: each is listed as not carried over, and the rest imports', () => {
    const { dataset, report } = imported(readFileSync(`${SAMPLES}json-output/promptfooconfig.yaml`, 'utf8'));
    expect(dataset.items).toHaveLength(2);
    const dropped = report.dropped.map((d) => `${d.where} ${d.what}: ${d.why}`);
    expect(dropped).toContainEqual(expect.stringMatching(/^tests\[0\]\.assert\[1\] the assertion javascript: it runs JavaScript code, which an import never runs/));
    expect(dropped).toContainEqual(expect.stringMatching(/^tests\[1\]\.assert\[1\] the assertion javascript: it runs JavaScript code/));
    expect(dropped).toContainEqual(expect.stringMatching(/^tests\[1\]\.assert\[2\] the assertion contains-any: it transforms the output with code first/));
    expect(dropped).toContainEqual(expect.stringMatching(/^tests\[1\]\.options the test's options/));
  });

  it('carries provider settings into the step and reports the ones no step holds', () => {
    const { chains, report } = imported([
      'prompts: ["Summarise: {{ text }}"]',
      'providers:',
      '  - id: openai:chat:gpt-4o-mini',
      '    config: {temperature: 0.2, max_tokens: 256, top_p: 0.9}',
      'tests:',
      '  - vars: {text: "a"}',
      '    assert: [{type: regex, value: "^[A-Z]"}, {type: equals, value: "A."}]',
      '  - vars: {text: "b"}',
      '    assert: [{type: python, value: "output == 1"}, {type: llm-rubric, value: "is short"}]',
    ].join('\n'));
    const step = (chains[0]?.steps as { config: Record<string, unknown> }[])[0]?.config;
    expect(step).toMatchObject({ prompt: 'Summarise: {text}', model: 'gpt-4o-mini', temperature: 0.2, maxTokens: 256 });
    const lines = report.dropped.map((d) => `${d.what}: ${d.why}`);
    expect(lines).toContainEqual(expect.stringMatching(/^top_p 0\.9: a model step holds no such setting/));
    expect(lines).toContainEqual(expect.stringMatching(/^the regex assertion \^\[A-Z\]: only 1 of 2 tests assert it/));
    expect(lines).toContainEqual(expect.stringMatching(/^the assertion python: it runs Python code, which an import never runs/));
    expect(lines).toContainEqual(expect.stringMatching(/^the assertion llm-rubric: /));
  });

  it('refuses by name a prompt in a file, or in Nunjucks beyond {{ var }}, and one whose text would read as a placeholder', () => {
    const problems = (text: string) => {
      const read = importPromptfoo(configOf(text));
      return read.ok ? [] : read.problems.map((p) => `${p.path} ${p.message}`);
    };
    expect(problems('prompts: [file://../secret.txt]\nproviders: [echo]\n')).toEqual(['$.prompts[0] the prompt file://../secret.txt is a file beside the config: this import reads only the config itself']);
    expect(problems('prompts: ["{% for m in msgs %}{{ m }}{% endfor %}"]\nproviders: [echo]\n')[0]).toMatch(/cannot be a Seamscope template: it uses Nunjucks beyond/);
    expect(problems('prompts: ["Reply as {name}: {{ q }}"]\nproviders: [echo]\n')[0]).toMatch(/it has the text \{name\}, which a Seamscope template would fill in/);
  });

  it('keeps the report in the chain an import opens, naming the prompts and tests it does not hold', () => {
    const result = importChainSource(readFileSync(`${SAMPLES}getting-started/promptfooconfig.yaml`, 'utf8'), { fileName: 'promptfooconfig.yaml' });
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    expect(result.chain.meta?.importReport).toEqual(result.report);
    expect(result.report?.changed.map((c) => c.where)).toEqual(expect.arrayContaining(['prompts[1]', 'tests']));
  });
});
