import type { Chain } from '../chain/schema.ts';
import type { Dataset } from '../eval/dataset.ts';
import { demoProfile, type EndpointProfile } from '../providers/profile.ts';

/**
 * Shared by the batch tests and bench:batch: a one-call chain (optionally ending in a webhook),
 * a dataset whose questions name their item (so the mock can key faults to one item), and the
 * endpoint profile of the mock model server.
 */
export function answerChain(opts: { webhook?: string; retries?: number } = {}): Chain {
  const answer = {
    id: 'answer', kind: 'model', name: 'Answer', position: { x: 0, y: 0 },
    config: {
      bindings: { question: 'inputs.question' }, prompt: 'Answer briefly: {question}',
      outputSchema: { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'], additionalProperties: false },
      retries: opts.retries ?? 1, onFail: 'abort',
    },
  };
  const end = opts.webhook
    ? { id: 'send', kind: 'webhook', name: 'Send', position: { x: 280, y: 0 }, config: { bindings: { value: 'steps.answer' }, url: opts.webhook } }
    : { id: 'final', kind: 'output', name: 'Final', position: { x: 280, y: 0 }, config: { bindings: { value: 'steps.answer.answer' } } };
  return {
    format: 'seamscope.chain', version: 1, id: opts.webhook ? 'batch-hook' : 'batch-answer', name: 'Batch answer',
    inputs: [{ name: 'question', schema: { type: 'string' }, trust: 'untrusted', required: true }],
    steps: [answer, end],
  } as Chain;
}

/** `item-<i>` asks "How many days for appeal <marker i>?": the marker keys mock replies to the item. */
export const itemMarker = (i: number) => `[item ${i}]`;

export function answerDataset(n: number): Dataset {
  return { items: Array.from({ length: n }, (_, i) => ({ id: `item-${i}`, inputs: { question: `How many days for appeal ${itemMarker(i)}?` }, expected: { facts: ['60 days'] } })) };
}

export function mockProfile(url: string): EndpointProfile {
  return { ...demoProfile, id: 'mock', name: 'Mock', kind: 'openai', baseUrl: `${url}/v1`, model: 'mock-model', maxOutputTokens: 256 };
}

/** The item a mock request is for, from the marker in its prompt (-1 when none). */
export function itemOfPrompt(text: string): number {
  const m = /\[item (\d+)\]/.exec(text);
  return m ? Number(m[1]) : -1;
}
