import * as z from '../chain/zod-mini.ts';
import { getPath } from '../chain/refs.ts';
import { findPlaceholders, renderTemplate, stringifyForPrompt } from '../chain/template.ts';
import { bindingsField } from './common.ts';
import { defineStep } from './types.ts';

/**
 * Text rendered from the step's bindings with the chain's template syntax (`{name}`,
 * `{name.path}`, replaced in one pass, never formatted), without a model call: a prompt-ready
 * context built once for several model steps, or the final answer message an output step
 * returns. Untrusted values are not framed here: the text derives from them, so a model step
 * that reads it frames it as data.
 */
export const templateConfigSchema = z.object({
  bindings: bindingsField(),
  text: z._default(z.string().check(z.maxLength(200_000)), ''),
});
export type TemplateConfig = z.infer<typeof templateConfigSchema>;

/** The text with each placeholder replaced by its value, or the placeholders that have none. */
export function renderStepText(text: string, values: Record<string, unknown>): { text: string; missing: string[] } {
  return renderTemplate(text, (p) => {
    const value = Object.hasOwn(values, p.binding) ? (p.path.length ? getPath(values[p.binding], p.path) : values[p.binding]) : undefined;
    return value === undefined ? undefined : stringifyForPrompt(value);
  });
}

export const templateStep = defineStep<'template', TemplateConfig>({
  kind: 'template',
  title: 'Template',
  group: 'Control',
  description: 'Renders text from what it reads with {placeholders}, without a model call.',
  config: templateConfigSchema,
  defaults: () => ({ bindings: {}, text: 'Question: {question}\n\nContext:\n{context}' }),
  bindings: (cfg) => cfg.bindings,
  branches: () => [],
  terminal: false,
  produces: { by: 'code' },
  python: { form: 'call', spec: 'TemplateSpec', method: 'template', fields: (cfg) => ({ text: cfg.text }) },
  lint: ({ config }) => {
    if (config.text.trim() === '') return [{ code: 'empty-template', severity: 'warning', message: 'This template renders no text: whatever reads it gets an empty string.' }];
    if (findPlaceholders(config.text).length === 0) return [{ code: 'template-reads-nothing', severity: 'info', message: 'This template has no {placeholder}: it renders the same text on every run.' }];
    return [];
  },
  fields: [
    { kind: 'bindings', key: 'bindings', label: 'Reads' },
    { kind: 'textarea', key: 'text', label: 'Text template', rows: 8, template: true },
  ],
  summary: (cfg) => [cfg.text.split('\n').find((line) => line.trim() !== '')?.slice(0, 60) ?? '(empty)', 'text, no model call'],
  outputSchema: () => ({ type: 'string' }),
  async run(ctx) {
    const { text, missing } = renderStepText(ctx.config.text, ctx.values);
    // A placeholder with no value is a failure, never a literal "{name}" passed on as text.
    if (missing.length > 0) return { status: 'failed', failure: { code: 'missing_input', message: `the template has no value for ${missing.map((m) => `{${m}}`).join(', ')}` } };
    return { status: 'succeeded', output: text };
  },
});
