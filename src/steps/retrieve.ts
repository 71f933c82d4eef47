import { lazyModule } from './lazy-module.ts';
import * as z from '../chain/zod-mini.ts';
import { stringifyForPrompt } from '../chain/template.ts';
import { bindingsField } from './common.ts';
import { defineStep } from './types.ts';

const retrieveSearch = lazyModule(() => import('./retrieve-search.ts'));

/**
 * BM25 selection over a document's sections, top-k, deterministic (the design that
 * holds: select whole sections in code, then hand them to the original single prompt). No model call.
 */
export const retrieveConfigSchema = z.object({
  bindings: bindingsField(),
  topK: z._default(z.number().check(z.int(), z.minimum(1), z.maximum(50)), 4),
});
export type RetrieveConfig = z.infer<typeof retrieveConfigSchema>;

export interface RetrievedSection {
  section_id: string;
  heading: string;
  text: string;
  score: number;
  rank: number;
}

export const retrieveStep = defineStep<'retrieve', RetrieveConfig>({
  kind: 'retrieve',
  title: 'Retrieve',
  group: 'Control',
  description: "BM25 selection of the top-k sections of a document for a query, in code.",
  config: retrieveConfigSchema,
  defaults: () => ({ bindings: {}, topK: 4 }),
  bindings: (cfg) => cfg.bindings,
  expectedBindings: () => [
    { name: 'document', required: true, connect: 'the document to select sections from' },
    { name: 'query', required: true, connect: 'the question to rank the sections by' },
  ],
  branches: () => [],
  terminal: false,
  produces: { by: 'code' },
  coverage: { kind: 'ranking' },
  python: { form: 'call', spec: 'RetrieveSpec', method: 'retrieve', fields: (cfg) => ({ topK: cfg.topK }) },
  fields: [
    { kind: 'bindings', key: 'bindings', label: 'Reads (document, query)' },
    { kind: 'number', key: 'topK', label: 'Sections to select', min: 1, max: 50 },
  ],
  summary: (cfg) => [`BM25 top ${cfg.topK}`, `over ${cfg.bindings.document ?? '(no document bound)'}`],
  outputSchema: () => ({
    type: 'object',
    properties: {
      sections: { type: 'array', items: { type: 'object', properties: { section_id: { type: 'string' }, heading: { type: 'string' }, text: { type: 'string' }, score: { type: 'number' }, rank: { type: 'integer' } } } },
      total_sections: { type: 'integer' },
    },
  }),
  async run(ctx) {
    const { document, query } = ctx.values;
    if (typeof document !== 'string' || !document.trim()) return { status: 'failed', failure: { code: 'missing_input', message: 'retrieve needs a text "document" bound' } };
    const q = stringifyForPrompt(query).trim();
    if (!q) return { status: 'failed', failure: { code: 'missing_input', message: 'retrieve needs a non-empty "query" bound' } };
    const { retrieveSections } = await retrieveSearch();
    return { status: 'succeeded', output: { query: q, ...retrieveSections(document, q, ctx.config.topK) } };
  },
});
