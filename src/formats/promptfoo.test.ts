import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readContainedFileSync } from '../cli/contained-file.ts';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { datasetItemSchema } from '../eval/dataset.ts';
import { scoreItem } from '../eval/scorers.ts';
import { parseStrictYaml } from '../files/strict-yaml.ts';
import { importChainSource } from './index.ts';
import { importPromptfoo } from './promptfoo.ts';
import { RUBRIC_INPUT } from './promptfoo-rubric.ts';

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
    expect(lines).toContainEqual(expect.stringMatching(/^the assertion llm-rubric: only 1 of 2 tests have a rubric/));
  });

  it('refuses by name a prompt in a file, or in Nunjucks beyond {{ var }}, and one whose text would read as a placeholder', () => {
    const problems = (text: string) => {
      const read = importPromptfoo(configOf(text));
      return read.ok ? [] : read.problems.map((p) => `${p.path} ${p.message}`);
    };
    expect(problems('prompts: [file://prompt.txt]\nproviders: [echo]\n')).toEqual(['$.prompts[0] the prompt file://prompt.txt is a file beside the config: this import reads the config alone (import it with the CLI, which reads its folder)']);
    expect(problems('prompts: ["{% for m in msgs %}{{ m }}{% endfor %}"]\nproviders: [echo]\n')[0]).toMatch(/cannot be a Seamscope template: it uses Nunjucks beyond/);
    expect(problems('prompts: ["Reply as {name}: {{ q }}"]\nproviders: [echo]\n')[0]).toMatch(/it has the text \{name\}, which a Seamscope template would fill in/);
  });

  it('keeps the report in the chain an import opens, naming the prompts and tests it does not hold', () => {
    const result = importChainSource(readFileSync(`${SAMPLES}getting-started/promptfooconfig.yaml`, 'utf8'), { fileName: 'promptfooconfig.yaml' });
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    expect(result.chain.meta?.importReport).toEqual(result.report);
    expect(result.report?.changed.map((c) => c.where)).toEqual(expect.arrayContaining(['prompts[1]', 'tests']));
  });

  it('makes llm-rubric a judge chain whose rubric each item carries, filled from its vars', () => {
    const { dataset, judges, report } = imported([
      'prompts: ["Answer: {{ q }}"]',
      'providers: [openai:gpt-4.1-mini]',
      'tests:',
      '  - vars: {q: "Who wrote Emma?"}',
      '    assert: [{type: llm-rubric, value: "Names the author of the book asked about in: {{q}}"}]',
      '  - vars: {q: "Capital of Peru?"}',
      '    assert: [{type: llm-rubric, value: "Says Lima"}]',
    ].join('\n'));
    expect(dataset.scorers).toEqual([{ type: 'judge', chain: 'promptfoo-llm-rubric' }]);
    expect(dataset.items.map((i) => i.inputs[RUBRIC_INPUT])).toEqual(['Names the author of the book asked about in: Who wrote Emma?', 'Says Lima']);
    expect(judges).toHaveLength(1);
    const judge = judges[0] as { id: string; inputs: { name: string; trust: string }[] };
    expect(judge.id).toBe('promptfoo-llm-rubric');
    // The rubric is the config author's instruction; only the output under judgement is data.
    expect(judge.inputs.map((i) => [i.name, i.trust])).toEqual([[RUBRIC_INPUT, 'trusted'], ['output', 'untrusted']]);
    expect(report.changed).toContainEqual(expect.objectContaining({ where: 'tests[0].assert[0]', what: 'the assertion llm-rubric', why: expect.stringMatching(/^the judge chain promptfoo-llm-rubric/) }));
    const unfilled = imported('prompts: ["A: {{ q }}"]\nproviders: [echo]\ntests:\n  - vars: {q: x}\n    assert: [{type: llm-rubric, value: "Cites {{source}}"}]\n');
    expect(unfilled.dataset.items[0]?.inputs[RUBRIC_INPUT]).toBe('Cites {{source}}');
    expect(unfilled.report.changed).toContainEqual(expect.objectContaining({ what: 'the rubric\'s {{source}}', why: expect.stringMatching(/^left as written/) }));
  });

  it('makes is-json asserted by every test the step\'s output schema, and reports a schema only one test gives', () => {
    const { chains, report } = imported(readFileSync(`${SAMPLES}json-output/promptfooconfig.yaml`, 'utf8'));
    expect((chains[0]?.steps as { config: Record<string, unknown> }[])[0]?.config.outputSchema).toEqual({});
    expect(report.changed).toContainEqual(expect.objectContaining({ where: 'tests[0].assert[0]', what: 'the assertion is-json', why: expect.stringMatching(/output schema: a requirement, not only a measure/) }));
    expect(report.dropped).toContainEqual(expect.objectContaining({ where: 'tests[1].assert[0]', what: 'the assertion is-json with its schema' }));
    const one = imported('prompts: ["J: {{x}}"]\nproviders: [echo]\ntests:\n  - vars: {x: a}\n    assert: [{type: is-json, value: {type: object, required: [a]}}]\n');
    expect((one.chains[0]?.steps as { config: Record<string, unknown> }[])[0]?.config.outputSchema).toEqual({ type: 'object', required: ['a'] });
    const some = imported('prompts: ["J: {{x}}"]\nproviders: [echo]\ntests:\n  - vars: {x: a}\n    assert: [{type: is-json}]\n  - vars: {x: b}\n');
    expect((some.chains[0]?.steps as { config: Record<string, unknown> }[])[0]?.config.outputSchema).toBeUndefined();
    expect(some.report.dropped).toContainEqual(expect.objectContaining({ what: 'the assertion is-json', why: expect.stringMatching(/only some tests assert it/) }));
  });

  it('reads file:// prompts and tests from the config\'s own folder only: never .., absolute, a link out, a glob or code', async () => {
    const root = await mkdtemp(join(tmpdir(), 'seamscope-promptfoo-'));
    try {
      const dir = join(root, 'config');
      await mkdir(dir);
      await writeFile(join(root, 'secret.txt'), 'outside the folder: {{ leaked }}');
      await symlink(join(root, 'secret.txt'), join(dir, 'link.txt'));
      await writeFile(join(dir, 'chat.json'), JSON.stringify([{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Q: {{q}}' }]));
      await writeFile(join(dir, 'tests.yaml'), '- vars: {q: hi, doc: file://doc.txt}\n  assert: [{type: contains, value: hello}]\n');
      const config = join(dir, 'promptfooconfig.yaml');
      const problemsOf = (prompt: string) => {
        const read = importPromptfoo(configOf(`prompts: ["${prompt}"]\nproviders: [echo]\ntests: file://tests.yaml\n`), config, { readSibling: (f) => readContainedFileSync(config, f) });
        return read.ok ? read.value : read.problems.map((p) => `${p.path} ${p.message}`);
      };
      const ok = problemsOf('file://chat.json');
      if (Array.isArray(ok)) throw new Error(ok.join('\n'));
      expect((ok.chains[0]?.steps as { config: Record<string, unknown> }[])[0]?.config).toMatchObject({ system: 'Be brief.', prompt: 'Q: {q}' });
      // A var's file:// is read when the eval runs, contained to the config's folder as every input file is.
      expect(ok.dataset.items).toEqual([{ id: 'test-1', inputs: { q: 'hi', doc: { $file: 'doc.txt' } }, expected: { output: 'hello' } }]);
      const varProblems = (value: string) => {
        const read = importPromptfoo(configOf(`prompts: ["Q: {{q}}"]\nproviders: [echo]\ntests:\n  - vars: {q: "${value}"}\n`), config);
        return read.ok ? [] : read.problems.map((p) => `${p.path} ${p.message}`);
      };
      expect(varProblems('file://../secret.txt')).toEqual([expect.stringMatching(/^\$\.tests\[0\]\.vars\.q the var q: file:\/\/\.\.\/secret\.txt is refused: it climbs out of the folder/)]);
      expect(varProblems('file://make.py')).toEqual(['$.tests[0].vars.q the var q: file://make.py is code, which an import never runs']);
      expect(ok.report.kept).toContainEqual(expect.objectContaining({ where: 'tests', what: 'the tests file tests.yaml (1 tests), read from the config\'s own folder' }));
      expect(problemsOf('file://../secret.txt')).toEqual([expect.stringMatching(/^\$\.prompts\[0\] the prompt file:\/\/\.\.\/secret\.txt is refused: it climbs out of the folder/)]);
      expect(problemsOf(`file://${join(root, 'secret.txt')}`)).toEqual([expect.stringMatching(/is refused: .*absolute/)]);
      expect(problemsOf('file://link.txt')).toEqual(['$.prompts[0] the prompt file://link.txt is not read: it is a link that points outside the flow\'s folder']);
      expect(problemsOf('file://*.txt')).toEqual(['$.prompts[0] the prompt file://*.txt is a glob: name each file']);
      expect(problemsOf('file://prompts.py:make')).toEqual(['$.prompts[0] the prompt file://prompts.py:make is code, which an import never runs']);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
