import type { Chain } from '../chain/schema.ts';

/** Small chains for unit tests; demo chains live in public/demo. */
export function twoStepChain(overrides: { retries?: number; onFail?: string } = {}): Chain {
  return {
    format: 'seamscope.chain', version: 1, id: 'two-step', name: 'Two step',
    inputs: [
      { name: 'document', schema: { type: 'string' }, trust: 'trusted', required: true },
      { name: 'question', schema: { type: 'string' }, trust: 'untrusted', required: true },
    ],
    steps: [
      {
        id: 'extract', kind: 'model', name: 'Extract', position: { x: 0, y: 0 },
        config: {
          bindings: { document: 'inputs.document' },
          prompt: 'List the facts in {document}. Example: {"facts": ["a"]}',
          outputSchema: { type: 'object', properties: { facts: { type: 'array', items: { type: 'string' }, maxItems: 5 } }, required: ['facts'], additionalProperties: false },
          retries: overrides.retries ?? 1, onFail: overrides.onFail ?? 'abort',
        },
      },
      {
        id: 'answer', kind: 'model', name: 'Answer', position: { x: 280, y: 0 },
        config: {
          bindings: { facts: 'steps.extract.facts', question: 'inputs.question' },
          prompt: 'Facts: {facts}\nQuestion: {question}',
          outputSchema: { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'], additionalProperties: false },
        },
      },
      { id: 'final', kind: 'output', name: 'Final', position: { x: 560, y: 0 }, config: { bindings: { value: 'steps.answer.answer' } } },
    ],
  };
}

export function routedChain(): Chain {
  return {
    format: 'seamscope.chain', version: 1, id: 'routed', name: 'Routed',
    inputs: [{ name: 'ticket', schema: { type: 'string' }, trust: 'untrusted', required: true }],
    steps: [
      {
        id: 'classify', kind: 'model', name: 'Classify', position: { x: 0, y: 0 },
        config: {
          bindings: { ticket: 'inputs.ticket' }, prompt: 'Classify: {ticket}',
          outputSchema: { type: 'object', properties: { category: { type: 'string', enum: ['billing', 'tech'] } }, required: ['category'], additionalProperties: false },
        },
      },
      {
        id: 'route', kind: 'router', name: 'Route', position: { x: 280, y: 0 },
        config: { bindings: { value: 'steps.classify' }, field: 'category', routes: [{ equals: 'billing', to: 'billing_reply', label: 'billing' }], defaultTo: 'tech_reply' },
      },
      { id: 'billing_reply', kind: 'output', name: 'Billing', position: { x: 560, y: 0 }, config: { bindings: { value: 'steps.classify.category' } } },
      { id: 'tech_reply', kind: 'output', name: 'Tech', position: { x: 560, y: 140 }, config: { bindings: { value: 'inputs.ticket' } } },
    ],
  };
}

/**
 * Two outputs on two paths of one run (a Langflow flow with a Chat Output after each model
 * call has this shape): a summary, then an answer from it; the run returns both.
 */
export function twoOutputChain(): Chain {
  return {
    format: 'seamscope.chain', version: 1, id: 'two-outputs', name: 'Two outputs',
    inputs: [{ name: 'document', schema: { type: 'string' }, trust: 'trusted', required: true, example: 'Appeals must be filed within 180 days.' }],
    steps: [
      { id: 'summary', kind: 'model', name: 'Summary', position: { x: 0, y: 0 }, config: { bindings: { document: 'inputs.document' }, prompt: 'Summarise: {document}', outputSchema: { type: 'object', properties: { summary: { type: 'string' } }, required: ['summary'], additionalProperties: false } } },
      { id: 'summary_out', kind: 'output', name: 'Summary out', position: { x: 280, y: 0 }, config: { bindings: { value: 'steps.summary.summary' } } },
      { id: 'answer', kind: 'model', name: 'Answer', position: { x: 280, y: 140 }, config: { bindings: { summary: 'steps.summary.summary' }, prompt: 'From {summary}, how many days?', outputSchema: { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'], additionalProperties: false } } },
      { id: 'answer_out', kind: 'output', name: 'Answer out', position: { x: 560, y: 140 }, config: { bindings: { value: 'steps.answer.answer' } } },
    ],
  };
}

/** A template builds the context once; a model answers from it; the output returns a message made by another template. */
export function templateChain(): Chain {
  return {
    format: 'seamscope.chain', version: 1, id: 'templated', name: 'Templated',
    inputs: [
      { name: 'document', schema: { type: 'string', maxLength: 4000 }, trust: 'trusted', required: true, example: '1. A request for review is filed within 180 calendar days.' },
      { name: 'question', schema: { type: 'string', maxLength: 400 }, trust: 'untrusted', required: true, example: 'How long do I have to appeal?' },
    ],
    steps: [
      { id: 'context', kind: 'template', name: 'Context', position: { x: 0, y: 0 }, config: { bindings: { document: 'inputs.document' }, text: 'Policy text:\n{document}' } },
      {
        id: 'answer', kind: 'model', name: 'Answer', position: { x: 280, y: 0 },
        config: {
          bindings: { context: 'steps.context', question: 'inputs.question' },
          prompt: '{context}\n\nQuestion: {question}',
          outputSchema: { type: 'object', properties: { answer: { type: 'string' }, days: { type: 'integer' } }, required: ['answer', 'days'], additionalProperties: false },
          onFail: 'abstain',
        },
      },
      { id: 'message', kind: 'template', name: 'Message', position: { x: 560, y: 0 }, config: { bindings: { a: 'steps.answer' }, text: '{a.answer} (deadline: {a.days} days)' } },
      { id: 'final', kind: 'output', name: 'Final', position: { x: 840, y: 0 }, config: { bindings: { value: 'steps.message' } } },
    ],
  };
}
