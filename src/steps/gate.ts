import { lazyModule } from './lazy-module.ts';
import * as z from '../chain/zod-mini.ts';
import { jsonSchemaObject } from '../chain/schema.ts';
import { bindingsField, fallbackTarget, onFailSchema } from './common.ts';
import { defineStep, type ExpectedBinding } from './types.ts';

const gateRun = lazyModule(() => import('./gate-run.ts'));

/**
 * A deterministic check in code between two steps. It passes its `value` through when the
 * check holds, so downstream steps read the checked value, and fails (with every problem
 * listed) when it does not; the step's on-fail policy decides what happens next.
 * Bindings: `value` (what is checked), `source` (the document, for quotes and numbers),
 * `expected` (for id sets and citations).
 */
const checkSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('jsonSchema'), schema: jsonSchemaObject }),
  z.object({
    type: z.literal('quoteContainment'),
    /** Where the quotes are in `value`, e.g. `relevant_sections[*].quote`. */
    quotesPath: z.string().check(z.minLength(1), z.maxLength(500)),
    /** Field beside each quote naming its section; when set, the quote must be inside that section. */
    sectionField: z.optional(z.string().check(z.maxLength(100))),
  }),
  z.object({
    type: z.literal('idSet'),
    returnedPath: z.string().check(z.minLength(1), z.maxLength(500)),
    /** Path into `expected`, e.g. `unit_ids[*]`. */
    expectedPath: z.string().check(z.minLength(1), z.maxLength(500)),
  }),
  z.object({
    type: z.literal('citations'),
    claimsPath: z._default(z.string().check(z.minLength(1), z.maxLength(500)), 'claims[*]'),
    citationsField: z._default(z.string().check(z.minLength(1), z.maxLength(100)), 'citations'),
    textField: z._default(z.string().check(z.minLength(1), z.maxLength(100)), 'text'),
    /** Path into `expected` listing the retrieved ids in rank order, e.g. `sections[*].section_id`. */
    availablePath: z.string().check(z.minLength(1), z.maxLength(500)),
    requireTopCited: z._default(z.boolean(), true),
  }),
  z.object({
    type: z.literal('numberConsistency'),
    answerPath: z._default(z.string().check(z.minLength(1), z.maxLength(500)), 'answer'),
    citedPath: z._default(z.string().check(z.minLength(1), z.maxLength(500)), 'section_ids[*]'),
  }),
  z.object({
    type: z.literal('rule'),
    /** A JSON Logic rule over `{ value, source, expected }`; truthy passes. Data, never code. */
    rule: z.unknown(),
    message: z.string().check(z.minLength(1), z.maxLength(500)),
  }),
]);
export type GateCheck = z.infer<typeof checkSchema>;

export const gateConfigSchema = z.object({
  bindings: bindingsField(),
  check: checkSchema,
  onFail: onFailSchema,
});
export type GateConfig = z.infer<typeof gateConfigSchema>;

export { normaliseForContainment } from './gate-text.ts';

const describeCheck: Record<GateCheck['type'], (c: never) => string> = {
  jsonSchema: () => 'check: JSON Schema',
  quoteContainment: (c: Extract<GateCheck, { type: 'quoteContainment' }>) => `check: quotes in source${c.sectionField ? ' and in their section' : ''}`,
  idSet: () => 'check: returned ids = expected ids',
  citations: () => 'check: citations (phantom, uncited, top chunk)',
  numberConsistency: () => 'check: numbers appear in cited sections',
  rule: (c: Extract<GateCheck, { type: 'rule' }>) => `check: ${c.message}`,
};

/** What each check reads besides `value`: a check that needs the document or the expected set says so. */
const checkReads: Record<GateCheck['type'], ExpectedBinding[]> = {
  jsonSchema: [],
  quoteContainment: [{ name: 'source', required: true, connect: 'the document the quotes must come from' }],
  idSet: [{ name: 'expected', required: true, connect: 'the step or input listing the expected ids' }],
  citations: [{ name: 'expected', required: true, connect: 'the retrieval step whose sections may be cited' }],
  numberConsistency: [{ name: 'source', required: true, connect: 'the document the numbers must come from' }],
  rule: [
    { name: 'source', required: false, connect: 'the document the rule reads as "source"' },
    { name: 'expected', required: false, connect: 'the value the rule reads as "expected"' },
  ],
};

function gateBindings(check: GateCheck): ExpectedBinding[] {
  return [{ name: 'value', required: true, connect: 'the step whose output it checks' }, ...checkReads[check.type]];
}

export const gateStep = defineStep<'gate', GateConfig>({
  kind: 'gate',
  title: 'Gate',
  group: 'Check',
  description: 'A deterministic check in code (schema, quotes, id sets, citations, numbers, rules) before the next step runs.',
  config: gateConfigSchema,
  defaults: () => ({ bindings: {}, check: { type: 'jsonSchema' as const, schema: { type: 'object' } }, onFail: 'abort' }),
  bindings: (cfg) => cfg.bindings,
  expectedBindings: (cfg) => gateBindings(cfg.check),
  branches: (cfg) => {
    const target = fallbackTarget(cfg.onFail);
    return target ? [{ label: 'on fail', to: target, kind: 'fallback' as const }] : [];
  },
  terminal: false,
  produces: { by: 'passThrough', binding: 'value' },
  python: { form: 'call', spec: 'GateSpec', method: 'gate', fields: (cfg) => ({ check: cfg.check }) },
  onFail: (cfg) => cfg.onFail,
  checks: (cfg) => cfg.check.type,
  fields: [
    { kind: 'bindings', key: 'bindings', label: 'Reads (value, source, expected)' },
    { kind: 'json', key: 'check', label: 'Check' },
    { kind: 'onFail', key: 'onFail', label: 'When the check fails' },
  ],
  summary: (cfg) => [(describeCheck[cfg.check.type] as (c: GateCheck) => string)(cfg.check), `on fail: ${cfg.onFail}`],
  outputSchema: () => null,
  schemas: (cfg) => (cfg.check.type === 'jsonSchema' ? [{ path: ['check', 'schema'], schema: cfg.check.schema }] : []),
  async run(ctx) {
    const { runCheck } = await gateRun();
    const problems = runCheck(ctx.config.check, ctx.values, ctx.validate);
    ctx.emit({ type: 'step.check', at: ctx.now(), stepId: ctx.step.id, check: ctx.config.check.type, passed: problems.length === 0, problems });
    if (problems.length > 0) return { status: 'failed', failure: { code: 'gate_failed', message: problems.join('; '), details: problems } };
    return { status: 'succeeded', output: ctx.values.value };
  },
});
