import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { createDemoProvider, generateDemoOutput } from './demo-model.ts';
import { ProviderError } from './errors.ts';
import type { ModelRequest } from './types.ts';

const doc = readFileSync(new URL('../../public/demo/documents/42-USC-1395ff.md', import.meta.url), 'utf8');
const deadlines = JSON.parse(readFileSync(new URL('../testing/corpus/42-USC-1395ff-deadline-quotes.json', import.meta.url), 'utf8')) as {
  quotes: { line: number; quote: string; amount: string }[];
};
const question = 'How many days do I have to request a reconsideration of a denied Medicare claim?';
const ajv = new Ajv2020({ strict: false, allErrors: true });

function conformsTo(schema: Record<string, unknown>, text: string): string[] {
  const validate = ajv.compile(schema);
  const value: unknown = JSON.parse(text);
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

const user = (content: string) => ({ role: 'user', content });

const evidenceSchema = (sectionId: Record<string, unknown> = { type: 'string' }) => ({
  type: 'object',
  properties: {
    relevant_sections: {
      type: 'array',
      maxItems: 4,
      items: {
        type: 'object',
        properties: {
          section_id: sectionId,
          why: { type: 'string', maxLength: 120 },
          quote: { type: 'string', minLength: 20, maxLength: 400 },
        },
        required: ['section_id', 'why', 'quote'],
        additionalProperties: false,
      },
    },
    insufficient_evidence: { type: 'boolean' },
  },
  required: ['relevant_sections', 'insufficient_evidence'],
  additionalProperties: false,
});
const summarySchema = { type: 'object', properties: { summary: { type: 'string' } }, required: ['summary'], additionalProperties: false };
const answerSchema = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'], additionalProperties: false };

const summarisePrompt = `Summarise this policy document for a plan member. Keep it short and general: one plain-language sentence for each main part of the document.\n\nDocument:\n${doc}`;
const selectPrompt = (q: string) =>
  `Select the parts of the policy document that bear on the member's question. Return at most four sections.\n\nQuestion:\n<data name="question">\n${q}\n</data>\n\nDocument:\n${doc}`;
const answerFromSummary = (summary: string) =>
  `Answer the plan member's question using the summary of their policy below.\n\nSummary:\n${summary}\n\nQuestion:\n<data name="question">\n${question}\n</data>`;

type Selection = { relevant_sections: { section_id: string; why: string; quote: string }[]; insufficient_evidence: boolean };
const select = (q = question, schema: Record<string, unknown> = evidenceSchema()) => JSON.parse(generateDemoOutput([user(selectPrompt(q))], schema)) as Selection;

describe('generateDemoOutput: schema conformance', () => {
  const prompts: Record<string, { role: string; content: string }[]> = {
    statute: [user(selectPrompt(question))],
    short: [user('Policy 7.3: A member may request reconsideration within 180 calendar days of receiving written notice. Expedited appeals must be filed within 72 hours.\n\nQuestion: How long do I have to appeal?')],
    empty: [user('')],
    noQuestion: [user('Here is some text with no question in it at all, and a number 42.')],
  };
  const schemas: Record<string, Record<string, unknown>> = {
    evidence: evidenceSchema(),
    evidenceEnum: evidenceSchema({ type: 'string', enum: ['(a)(3)(C)(i)', '(b)(1)(D)(i)', '(c)(3)(C)(iii)(I)', '7.3'] }),
    nestedArrays: {
      type: 'object',
      properties: {
        groups: {
          type: 'array', minItems: 2, maxItems: 5,
          items: {
            type: 'object',
            properties: {
              title: { type: 'string', maxLength: 10 },
              quotes: { type: 'array', minItems: 1, maxItems: 2, items: { type: 'string', minLength: 3, maxLength: 30 } },
              matrix: { type: 'array', minItems: 1, items: { type: 'array', minItems: 2, maxItems: 2, items: { type: 'integer' } } },
            },
            required: ['title', 'quotes', 'matrix'],
            additionalProperties: false,
          },
        },
      },
      required: ['groups'],
      additionalProperties: false,
    },
    enums: {
      type: 'object',
      properties: {
        category: { type: 'string', enum: ['billing', 'appeals', 'eligibility'] },
        priority: { type: 'integer', enum: [1, 2, 3] },
        mixed: { enum: ['x', 2, null, true] },
        tags: { type: 'array', uniqueItems: true, minItems: 3, maxItems: 3, items: { enum: ['a', 'b', 'c'] } },
      },
      required: ['category', 'priority', 'mixed', 'tags'],
    },
    combinators: {
      type: 'object',
      properties: {
        maybe: { anyOf: [{ type: 'null' }, { type: 'string' }] },
        either: { oneOf: [{ type: 'integer', minimum: 5, maximum: 9 }, { type: 'string', maxLength: 5 }] },
        nested: { anyOf: [{ type: 'object', properties: { a: { const: 1 } }, required: ['a', 'b'], additionalProperties: false }, { type: 'array', maxItems: 0 }] },
        both: { allOf: [{ type: 'object', properties: { x: { type: 'string' } }, required: ['x'] }, { properties: { y: { type: 'number' } }, required: ['y'] }] },
      },
      required: ['maybe', 'either', 'nested', 'both'],
    },
    numbers: {
      type: 'object',
      properties: {
        days: { type: 'integer', minimum: 1, maximum: 365 },
        confidence: { type: 'number', minimum: 0, maximum: 1 },
        ratio: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
        big: { type: 'integer', minimum: 1000, multipleOf: 7 },
        negative: { type: 'integer', maximum: -3 },
      },
      required: ['days', 'confidence', 'ratio', 'big', 'negative'],
    },
    nullable: {
      type: 'object',
      properties: { note: { type: ['string', 'null'], maxLength: 5 }, flag: { type: ['boolean', 'null'] }, nothing: { type: 'null' } },
      required: ['note', 'flag', 'nothing'],
      additionalProperties: false,
    },
    lengths: {
      type: 'object',
      properties: { quote: { type: 'string', minLength: 500, maxLength: 600 }, tiny: { type: 'string', maxLength: 3 }, exact: { type: 'string', minLength: 4, maxLength: 4 } },
      required: ['quote', 'tiny', 'exact'],
    },
    refs: {
      $defs: { item: { type: 'object', properties: { section_id: { type: 'string' }, evidence: { type: 'string', maxLength: 80 } }, required: ['section_id', 'evidence'] } },
      type: 'object',
      properties: { items: { type: 'array', items: { $ref: '#/$defs/item' }, minItems: 1 } },
      required: ['items'],
    },
    recursiveTree: {
      $defs: { node: { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } }, required: ['name', 'children'] } },
      $ref: '#/$defs/node',
    },
    tuple: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }, { const: 'end' }], items: false, minItems: 3 },
    rootArray: { type: 'array', items: { type: 'string' }, minItems: 1 },
    rootString: { type: 'string', maxLength: 50 },
    anything: {},
    extraRequired: { type: 'object', properties: {}, required: ['free'], additionalProperties: { type: 'number' } },
    answerWithIds: { type: 'object', properties: { answer: { type: 'string', maxLength: 200 }, section_ids: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 4 } }, required: ['answer', 'section_ids'] },
  };
  for (const [schemaName, schema] of Object.entries(schemas)) {
    for (const [promptName, messages] of Object.entries(prompts)) {
      it(`${schemaName} × ${promptName}`, () => {
        const text = generateDemoOutput(messages, schema);
        expect(conformsTo(schema, text)).toEqual([]);
      });
    }
  }

  it('returns plain text without a schema', () => {
    const text = generateDemoOutput([user(summarisePrompt)]);
    expect(() => JSON.parse(text)).toThrow();
    expect(text).toContain('Appeal rights');
  });

  it('still returns a valid instance when the last message is retry feedback', () => {
    const schema = evidenceSchema();
    const messages = [
      user(selectPrompt(question)),
      { role: 'assistant', content: '{"relevant_sections": "oops"}' },
      user('Your previous response was invalid:\n- /relevant_sections: must be array\nReturn only a corrected JSON object that satisfies the schema.'),
    ];
    const text = generateDemoOutput(messages, schema);
    expect(conformsTo(schema, text)).toEqual([]);
    expect(text).toBe(generateDemoOutput([user(selectPrompt(question))], schema));
  });
});

describe('generateDemoOutput: the seed-000 behaviours on the statute', () => {
  const summary = (JSON.parse(generateDemoOutput([user(summarisePrompt)], summarySchema)) as { summary: string }).summary;

  it('summarises structure and drops every day count', () => {
    const counts = [...new Set(deadlines.quotes.map((q) => q.amount.split(' ')[0]))];
    expect(counts).toEqual(expect.arrayContaining(['180', '120', '72', '60']));
    for (const n of counts) expect(summary).not.toMatch(new RegExp(`\\b${n}\\b`));
    expect(summary).not.toMatch(/\d+[- ](day|hour)/i);
    expect(summary).toContain('promptly');
    const headings = ['Initial determinations', 'Appeal rights', 'Conduct of reconsiderations', 'Deadlines for hearings', 'Review of coverage determinations', 'Qualifications of reviewers', 'Mediation process'];
    expect(headings.filter((h) => summary.includes(h)).length).toBeGreaterThanOrEqual(6);
    expect(summary).toMatch(/request reconsideration promptly after/);
  });

  it('answers from the summary with "promptly" and no number', () => {
    const { answer } = JSON.parse(generateDemoOutput([user(answerFromSummary(summary))], answerSchema)) as { answer: string };
    expect(answer).toMatch(/promptly after/);
    expect(answer).not.toMatch(/\d/);
  });

  it('selects verbatim quotes, one of them the 180-day rule in (b)(1)(D)(i)', () => {
    const selection = select();
    expect(selection.insufficient_evidence).toBe(false);
    expect(selection.relevant_sections.length).toBeGreaterThanOrEqual(1);
    for (const s of selection.relevant_sections) expect(doc.includes(s.quote)).toBe(true);
    const rule = selection.relevant_sections.find((s) => s.quote.includes('180-day period'));
    expect(rule?.section_id).toBe('(b)(1)(D)(i)');
    expect(selection.relevant_sections[0]).toBe(rule);
  });

  it('picks the matching enum value for section_id', () => {
    const selection = select(question, evidenceSchema({ type: 'string', enum: ['(a)(3)(C)(i)', '(b)(1)(D)(i)', '(c)(3)(C)(iii)(I)'] }));
    expect(selection.relevant_sections[0]?.section_id).toBe('(b)(1)(D)(i)');
  });

  it('finds the other deadlines for their own questions', () => {
    const redetermination = select('How many days do I have to request a redetermination?').relevant_sections[0];
    expect(redetermination?.quote).toContain('120-day period');
    expect(redetermination?.section_id).toBe('(a)(3)(C)(i)');
    const expedited = select('How many hours does the contractor have to decide an expedited reconsideration?').relevant_sections[0];
    expect(expedited?.quote).toContain('72-hour period');
  });

  it('flags insufficient evidence only when nothing matches the question', () => {
    const selection = select('How do I bake sourdough bread?');
    expect(selection).toEqual({ relevant_sections: [], insufficient_evidence: true });
  });

  it('answers from the selected quotes with the 180 days and the section', () => {
    const selection = select();
    const quotesOnly = `Answer the member's question from the selected evidence.\n\nSelected evidence:\n${JSON.stringify(selection, null, 2)}\n\nQuestion: ${question}`;
    const { answer } = JSON.parse(generateDemoOutput([user(quotesOnly)], answerSchema)) as { answer: string };
    expect(answer).toMatch(/^You have 180 days to request a reconsideration/);
    expect(answer).toContain('180-day period');
    expect(answer).toContain('(b)(1)(D)(i)');

    const withDocument = `${quotesOnly}\n\nDocument:\n${doc}`;
    const both = JSON.parse(generateDemoOutput([user(withDocument)], answerSchema)) as { answer: string };
    expect(both.answer).toContain('180 days');
    expect(both.answer).toContain('§ 1395ff(b)(1)(D)(i)');
  });

  it('reads a generated single prompt whose second step points back at the question and the document', () => {
    // What src/eval/controls.ts writes for a two-step chain: step 2's inputs become pointers.
    const prompt = `Step 1:\nSelect the sections that bear on the question.\n\nQuestion:\n${question}\n\nDocument:\n${doc}\n\nStep 2:\nAnswer the question from the document.\n\n` +
      'Selected evidence:\n(the result of the instruction above)\n\nQuestion:\n(the question given above)\n\nDocument:\n(the document given above)\n\nDo every step yourself and return only the final step’s answer.';
    const { answer } = JSON.parse(generateDemoOutput([user(prompt)], answerSchema)) as { answer: string };
    expect(answer).toContain('180');
    expect(answer).not.toContain('given above');
  });

  it('is deterministic', () => {
    const messages = [user(selectPrompt(question))];
    expect(generateDemoOutput(messages, evidenceSchema())).toBe(generateDemoOutput(messages, evidenceSchema()));
    expect(generateDemoOutput([user(summarisePrompt)], summarySchema)).toBe(JSON.stringify({ summary }));
  });
});

describe('createDemoProvider', () => {
  const request = (extra: Partial<ModelRequest> = {}): ModelRequest => ({
    model: '',
    messages: [{ role: 'user', content: selectPrompt(question) }],
    maxTokens: 1024,
    temperature: 0,
    contract: { name: 'policy_evidence', schema: evidenceSchema(), strict: false },
    ...extra,
  });
  const ctx = { fetch: globalThis.fetch };

  it('answers like an OpenAI chat completion', async () => {
    const provider = createDemoProvider({ now: () => 1_700_000_000_000 });
    expect(provider.kind).toBe('demo');
    const response = await provider.call(request(), ctx);
    expect(response).toMatchObject({ finishReason: 'stop', rawFinishReason: 'stop', status: 200, model: 'seamscope-demo-1' });
    expect(conformsTo(evidenceSchema(), response.text)).toEqual([]);
    expect(response.usage.inputTokens).toBeGreaterThan(10_000);
    expect(response.usage.outputTokens).toBe(Math.ceil(response.text.length / 4));
    expect(response.requestBody).toMatchObject({ model: 'seamscope-demo-1', response_format: { type: 'json_schema', json_schema: { name: 'policy_evidence' } } });
    expect(response.rawResponse).toMatchObject({ object: 'chat.completion', created: 1_700_000_000, choices: [{ message: { content: response.text }, finish_reason: 'stop' }] });
  });

  it('streams pieces that concatenate to the final text', async () => {
    const deltas: string[] = [];
    const response = await createDemoProvider({ streamIntervalMs: 1 }).call(request({ stream: true }), { ...ctx, onDelta: (d) => deltas.push(d) });
    expect(deltas.length).toBeGreaterThan(5);
    expect(deltas.every((d) => d.length <= 16)).toBe(true);
    expect(deltas.join('')).toBe(response.text);
    const events = response.rawResponse as { object: string; choices: { finish_reason: string | null }[] }[];
    expect(events.every((e) => e.object === 'chat.completion.chunk')).toBe(true);
    expect(events.at(-1)?.choices[0]?.finish_reason).toBe('stop');
  });

  it('honours an abort before, during the latency and mid-stream', async () => {
    const before = new AbortController();
    before.abort();
    await expect(createDemoProvider().call(request(), { ...ctx, signal: before.signal })).rejects.toMatchObject({ code: 'aborted' });

    const during = new AbortController();
    const started = Date.now();
    const pending = createDemoProvider({ latencyMs: 5_000 }).call(request(), { ...ctx, signal: during.signal });
    setTimeout(() => during.abort(), 10);
    await expect(pending).rejects.toBeInstanceOf(ProviderError);
    expect(Date.now() - started).toBeLessThan(2_000);

    // The instant model still yields a turn: an abort issued right after the call lands.
    const right = new AbortController();
    const instant = createDemoProvider().call(request(), { ...ctx, signal: right.signal });
    right.abort();
    await expect(instant).rejects.toMatchObject({ code: 'aborted' });
    await expect(createDemoProvider().call(request(), ctx)).resolves.toMatchObject({ finishReason: 'stop' });

    const mid = new AbortController();
    const deltas: string[] = [];
    const streaming = createDemoProvider({ streamIntervalMs: 2 }).call(request({ stream: true }), {
      ...ctx, signal: mid.signal, onDelta: (d) => { deltas.push(d); if (deltas.length === 3) mid.abort(); },
    });
    await expect(streaming).rejects.toMatchObject({ code: 'aborted' });
    expect(deltas.length).toBe(3);
  });

  it('returns plain text when the request has no contract', async () => {
    const response = await createDemoProvider().call(request({ contract: undefined, messages: [{ role: 'user', content: summarisePrompt }] }), ctx);
    expect(response.text).toContain('Appeal rights');
    expect(response.requestBody).not.toHaveProperty('response_format');
  });
});
