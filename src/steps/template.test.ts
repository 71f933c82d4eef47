import { describe, expect, it } from 'vitest';
import { contractCards } from '../chain/contract-card.ts';
import { addStep, updateStepConfig } from '../chain/edit.ts';
import { lintChain } from '../chain/lint.ts';
import { parseChain } from '../chain/parse.ts';
import type { Chain } from '../chain/schema.ts';
import { templateChain } from '../testing/chain-fixtures.ts';
import { runChain } from '../engine/run.ts';
import { exportProgram } from '../export/export-chain.ts';
import { createScriptedProvider } from '../testing/scripted-provider.ts';
import { createMemoryRunRepository } from '../trace/repository.ts';
import { stepRegistry } from './index.ts';
import { templateConfigSchema, templateStep, type TemplateConfig } from './template.ts';
import type { StepRunContext } from './types.ts';

function render(config: Partial<TemplateConfig>, values: Record<string, unknown>) {
  const ctx = { config: templateConfigSchema.parse(config), values } as unknown as StepRunContext<TemplateConfig>;
  return templateStep.run(ctx);
}

describe('template step', () => {
  it('renders its bindings, paths included, with the chain template syntax; JSON braces stay literal', async () => {
    expect(await render({ text: 'Q: {q}\nDays: {a.days}\n{"keep": true}' }, { q: 'How long?', a: { days: 180 } }))
      .toEqual({ status: 'succeeded', output: 'Q: How long?\nDays: 180\n{"keep": true}' });
    // Objects render as pretty JSON, as in prompts; a value holding {name} is not expanded again.
    expect(await render({ text: '{v}|{w}' }, { v: { a: 1 }, w: '{v}' })).toEqual({ status: 'succeeded', output: '{\n  "a": 1\n}|{v}' });
  });

  it('fails, naming them, when a placeholder has no value: never passes "{name}" on as text', async () => {
    expect(await render({ text: 'Hi {who} and {a.missing}' }, { a: {} })).toEqual({ status: 'failed', failure: { code: 'missing_input', message: 'the template has no value for {who}, {a.missing}' } });
  });

  it('runs in the engine with no model call of its own, and its output binds like any step', async () => {
    const provider = createScriptedProvider([{ answer: 'Appeal within the period.', days: 180 }]);
    const repo = createMemoryRunRepository();
    const meta = await runChain({
      chain: templateChain(), inputs: { document: 'Appeals must be filed within 180 days.', question: 'How long do I have?' }, provider,
      model: { name: 'test-model', maxOutputTokens: 1024, structuredOutput: true }, repo, countTokens: (t) => Math.ceil(t.length / 4),
    });
    expect(meta.status).toBe('succeeded');
    expect(meta.output).toBe('Appeal within the period. (deadline: 180 days)');
    expect(provider.requests).toHaveLength(1);
    const prompt = provider.requests[0]?.messages.at(-1)?.content ?? '';
    expect(prompt).toContain('Policy text:\nAppeals must be filed within 180 days.');
    // The untrusted question is still framed as data in the model step that reads it.
    expect(prompt).toContain('Question: <data name="question">\nHow long do I have?\n</data>');
    const events = await repo.getEvents(meta.id);
    expect(events.filter((e) => e.type === 'step.attempt').map((e) => e.type === 'step.attempt' && e.stepId)).toEqual(['answer']);
  });

  it('is validated by parse (placeholders must name a binding) and added from the registry like any kind', () => {
    expect(parseChain(templateChain(), stepRegistry).ok).toBe(true);
    const broken = updateStepConfig(templateChain(), 'context', 'text', '{nothing}');
    expect(parseChain(broken, stepRegistry)).toEqual({ ok: false, problems: [{ path: '$.steps[0].config.text', message: 'the placeholder {nothing} names nothing: bind "nothing" in the step\'s reads' }] });
    const added = addStep(templateChain(), 'template', { x: 0, y: 300 }, stepRegistry);
    expect(added.chain.steps.at(-1)).toMatchObject({ kind: 'template', config: templateStep.defaults() });
  });

  it('gets lint of its own and none of a model call’s; contract cards say its output is computed in code', () => {
    const codes = (chain: Chain) => lintChain(chain, stepRegistry).map((f) => `${f.code}@${f.stepId ?? ''}`);
    expect(codes(templateChain()).filter((c) => c.endsWith('@context') || c.endsWith('@message'))).toEqual([]);
    expect(codes(updateStepConfig(templateChain(), 'message', 'text', '  '))).toContain('empty-template@message');
    expect(codes(updateStepConfig(templateChain(), 'message', 'text', 'Done.'))).toContain('template-reads-nothing@message');
    const card = contractCards(templateChain(), stepRegistry).find((c) => c.producer === 'context');
    expect(card?.carries).toMatchObject({ kind: 'code', summary: 'Computed in code by a template step.' });
    expect(card?.unanswered).toEqual([]);
  });

  it('exports to TypeScript, which runs the kind on the engine, and to Python through its definition\'s `python` form', () => {
    const { program } = exportProgram(templateChain(), { lang: 'ts' });
    expect(program.contents).toContain('"kind": "template"');
    expect(program.contents).toMatch(/export function contextStep\(/);
    const py = exportProgram(templateChain(), { lang: 'py' }).program.contents;
    expect(py).toContain('CONTEXT = rt.TemplateSpec(');
    expect(py).toContain('text="Policy text:\\n{document}",');
    expect(py).toContain('return run.template(CONTEXT, reads)');
    // (src/export/conformance.test.ts runs both programs against the engine on this chain.)
  });
});
