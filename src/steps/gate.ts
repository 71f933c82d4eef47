import { z } from 'zod';
import { jsonSchemaObject } from '../chain/schema.ts';
import { bindingsSchema, fallbackTarget, onFailSchema } from './common.ts';
import { selectAll } from './select-path.ts';
import { defineStep } from './types.ts';

/**
 * A deterministic check in code between two steps. It passes its `value` through when the
 * check holds, so downstream steps read the checked value, and fails (with every problem
 * listed) when it does not; the step's on-fail policy decides what happens next.
 */
const checkSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('jsonSchema'), schema: jsonSchemaObject }),
  z.object({
    type: z.literal('quoteContainment'),
    /** Where the quotes are in `value`, e.g. `relevant_sections[*].quote`. */
    quotesPath: z.string().min(1).max(500),
  }),
]);

export const gateConfigSchema = z.object({
  bindings: bindingsSchema.default(() => ({}) as Record<string, string>),
  check: checkSchema,
  onFail: onFailSchema,
});
export type GateConfig = z.infer<typeof gateConfigSchema>;

/** Whitespace-normalised, so line wrapping in the source never fails a true quote. */
export function normaliseForContainment(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export function checkQuoteContainment(quotes: unknown[], source: string): string[] {
  const haystack = normaliseForContainment(source);
  const problems: string[] = [];
  quotes.forEach((quote, i) => {
    if (typeof quote !== 'string') problems.push(`quote ${i + 1} is not a string`);
    else if (!haystack.includes(normaliseForContainment(quote))) problems.push(`quote ${i + 1} is not in the source: "${quote.slice(0, 120)}"`);
  });
  return problems;
}

export const gateStep = defineStep<'gate', GateConfig>({
  kind: 'gate',
  title: 'Gate',
  group: 'Check',
  description: 'A deterministic check in code (JSON Schema, quote containment) before the next step runs.',
  config: gateConfigSchema,
  defaults: () => ({ bindings: {}, check: { type: 'jsonSchema' as const, schema: { type: 'object' } }, onFail: 'abort' }),
  bindings: (cfg) => cfg.bindings,
  branches: (cfg) => {
    const target = fallbackTarget(cfg.onFail);
    return target ? [{ label: 'on fail', to: target, kind: 'fallback' as const }] : [];
  },
  terminal: false,
  fields: [
    { kind: 'bindings', key: 'bindings', label: 'Reads (value, source)' },
    { kind: 'json', key: 'check', label: 'Check' },
    { kind: 'onFail', key: 'onFail', label: 'When the check fails' },
  ],
  summary: (cfg) => [cfg.check.type === 'jsonSchema' ? 'check: JSON Schema' : `check: quotes in source (${cfg.check.quotesPath})`, `on fail: ${cfg.onFail}`],
  outputSchema: () => null,
  async run(ctx) {
    const { check } = ctx.config;
    const value = ctx.values.value;
    let problems: string[];
    if (check.type === 'jsonSchema') {
      problems = ctx.validate(check.schema, value);
    } else {
      const source = ctx.values.source;
      problems = typeof source === 'string'
        ? checkQuoteContainment(selectAll(value, check.quotesPath), source)
        : ['the gate has no source text bound (bind "source" to the document)'];
    }
    ctx.emit({ type: 'step.check', at: ctx.now(), stepId: ctx.step.id, check: check.type, passed: problems.length === 0, problems });
    if (problems.length > 0) return { status: 'failed', failure: { code: 'gate_failed', message: problems.join('; '), details: problems } };
    return { status: 'succeeded', output: value };
  },
});
