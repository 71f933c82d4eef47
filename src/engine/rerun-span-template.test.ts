import { writeFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { context } from '@opentelemetry/api';
import { StackContextManager } from '@opentelemetry/sdk-trace';
import { OpenAIInstrumentation } from '@arizeai/openinference-instrumentation-openai';
import { setPromptTemplate } from '@arizeai/openinference-core';
import { createOpenAIProvider } from '../providers/openai.ts';
import { stepRegistry } from '../steps/index.ts';
import { importTraceText } from '../formats/traces.ts';
import { corpusPath } from '../testing/corpus.ts';
import { createMockModelServer } from '../testing/mock-server.ts';
import { captureOtlp } from '../testing/otel-capture.ts';
import { createMemoryRunRepository } from '../trace/repository.ts';
import { applyTemplateEdit, planSpanRerun, spanOfStep } from '../trace/rerun-span.ts';
import type { RunMeta, TraceEvent } from '../trace/events.ts';
import { rerunSpan } from './rerun-span.ts';

/**
 * A capture with a prompt template, made here: OpenInference's OpenAI instrumentation
 * (@arizeai/openinference-instrumentation-openai 4.2.7) around openai 6.49 calling the mock
 * model server, the first call made under `setPromptTemplate` (@arizeai/openinference-core),
 * which writes `llm.prompt_template.template` / `.variables` / `.version` on the span. The
 * template is mustache (`{{ticket}}`), as in OpenInference's own examples. The second call
 * drafts a reply from the first one's summary; the third is unrelated.
 */
const TEMPLATE = 'Summarise this support ticket in one sentence: {{ticket}}';
const TICKET = 'My refund for order 1182 has not arrived 14 days after I returned the kettle.';
const SUMMARY = 'The customer is waiting for a refund for order 1182.';
let exported: string;

beforeAll(async () => {
  // The instrumentation reads the template from the active context: a context manager makes `with` set it.
  const manager = new StackContextManager().enable();
  context.setGlobalContextManager(manager);
  try {
    const requests = await captureOtlp({
      instrument(provider, openai) {
        const instrumentation = new OpenAIInstrumentation({ tracerProvider: provider });
        instrumentation.manuallyInstrument(openai as never);
        return () => instrumentation.disable();
      },
      replies: [
        { content: SUMMARY, usage: { inputTokens: 40, outputTokens: 12 } },
        { content: 'We are sorry: your refund for order 1182 is on its way.', usage: { inputTokens: 30, outputTokens: 14 } },
        { content: 'Our opening hours are 9 to 5.', usage: { inputTokens: 10, outputTokens: 8 } },
      ],
      async calls(client) {
        const prompted = setPromptTemplate(context.active(), { template: TEMPLATE, variables: { ticket: TICKET }, version: 'v3' });
        const first = await context.with(prompted, () => client.chat.completions.create({
          model: 'mock-model', messages: [{ role: 'system', content: 'You are a support assistant.' }, { role: 'user', content: TEMPLATE.replace('{{ticket}}', TICKET) }],
        }));
        await client.chat.completions.create({ model: 'mock-model', messages: [{ role: 'user', content: `Draft a reply to the customer from this summary: ${first.choices[0]?.message.content ?? ''}` }] });
        await client.chat.completions.create({ model: 'mock-model', messages: [{ role: 'user', content: 'What are your opening hours?' }] });
      },
    });
    exported = requests.map((r) => r.body).join('');
    expect(requests).toHaveLength(1);
  } finally {
    context.disable();
  }
  // How the corpus copy traces/otlp/openinference-openai-js-prompt-template.otlp.json was made (the e2e imports it).
  if (process.env.SEAMSCOPE_SAVE_CAPTURE === '1') writeFileSync(corpusPath('traces/otlp/openinference-openai-js-prompt-template.otlp.json'), exported);
});

function imported(): { meta: RunMeta; events: TraceEvent[] } {
  const result = importTraceText(exported, stepRegistry);
  if (!result.ok) throw new Error(result.message);
  return { meta: result.run, events: result.events };
}

describe('a prompt template recorded by OpenInference', () => {
  it('is kept on the model span it was recorded with, and only there', () => {
    const { meta } = imported();
    const steps = meta.spans?.filter((n) => n.stepId).map((n) => [n.stepId, n.promptTemplate]);
    expect(steps).toEqual([
      ['OpenAI_Chat_Completions', { template: TEMPLATE, variables: { ticket: TICKET }, version: 'v3' }],
      ['OpenAI_Chat_Completions_2', undefined],
      ['OpenAI_Chat_Completions_3', undefined],
    ]);
  });

  it('is edited as a template: the edit renders again with the variables, into the message it was rendered into', async () => {
    const { meta, events } = imported();
    const recorded = spanOfStep(meta, 'OpenAI_Chat_Completions')?.promptTemplate;
    if (!recorded) throw new Error('no template recorded');
    const messages = events.flatMap((e) => (e.type === 'step.attempt' && e.stepId === 'OpenAI_Chat_Completions' ? e.record.messages : []));
    const edited = { template: 'Summarise this support ticket in one sentence, keeping every number: {{ticket}}', variables: recorded.variables };
    const applied = applyTemplateEdit(messages, recorded, edited);
    if ('error' in applied) throw new Error(applied.error);
    expect(planSpanRerun(meta, events, 'OpenAI_Chat_Completions')).toMatchObject({ rerun: ['OpenAI_Chat_Completions', 'OpenAI_Chat_Completions_2'], kept: ['OpenAI_Chat_Completions_3'] });

    const key = 'sk-template-test-0123456789';
    const mock = await createMockModelServer({ apiKey: key });
    try {
      mock.enqueue({ content: 'The customer has waited 14 days for the refund for order 1182.' }, { content: 'Sorry for the 14-day wait.' });
      const repo = createMemoryRunRepository();
      const fork = await rerunSpan({
        parent: meta, parentEvents: events, fromStep: 'OpenAI_Chat_Completions', messages: applied.messages, promptTemplate: { ...recorded, template: edited.template },
        provider: createOpenAIProvider({ baseUrl: `${mock.url}/v1`, apiKey: key }), model: { name: 'mock-model', maxOutputTokens: 256, structuredOutput: false }, repo,
      });
      expect(fork.status).toBe('succeeded');
      expect(mock.requests.map((r) => (r.body as { messages: unknown }).messages)).toEqual([
        [{ role: 'system', content: 'You are a support assistant.' }, { role: 'user', content: `Summarise this support ticket in one sentence, keeping every number: ${TICKET}` }],
        [{ role: 'user', content: 'Draft a reply to the customer from this summary: The customer has waited 14 days for the refund for order 1182.' }],
      ]);
      // The fork's span carries the template it ran with, so a rerun of the fork starts from it.
      expect(spanOfStep((await repo.getRun(fork.id)) as RunMeta, 'OpenAI_Chat_Completions')?.promptTemplate?.template).toBe(edited.template);
    } finally {
      await mock.close();
    }
  });

  it('cannot be placed when its rendering is not in the recorded messages', () => {
    const result = applyTemplateEdit([{ role: 'user', content: 'something else' }], { template: TEMPLATE, variables: { ticket: TICKET } }, { template: 'x {{ticket}}', variables: { ticket: TICKET } });
    expect(result).toEqual({ error: expect.stringMatching(/^the recorded template, rendered with its recorded variables, is not in the recorded messages/) });
  });
});
