import type { Chain } from '../chain/schema.ts';
import type { MockReply } from './mock-types.ts';

/**
 * Chains that branch and chains that run calls at once, each with scripted faults, for the
 * conformance test (engine, exported TypeScript, exported Python against the mock). Where
 * calls are in flight together (map units, independent steps) every scripted reply carries a
 * `match` on a marker only its own prompt holds (the unit's id and text, a step's `[tag]`), so
 * which request gets which fault never depends on the order requests reach the mock.
 */
export interface FaultScenario {
  name: string;
  replies: MockReply[];
  /** Decisions the engine must record, so a scenario cannot pass without exercising what it names. */
  shows: string[];
  /** How the engine's run must end. */
  status: string;
  /** How long one request may go unanswered, in ms (for `hang` faults); default: the transport's own. */
  timeoutMs?: number;
}

export interface FaultChain {
  chain: Chain;
  /** Whether the engine may have more than one call in flight (bodies then compare as a multiset). */
  parallel: boolean;
  scenarios: FaultScenario[];
}

const object = (properties: Record<string, unknown>) => ({ type: 'object', properties, required: Object.keys(properties), additionalProperties: false });
const replySchema = object({ reply: { type: 'string' } });
const answerSchema = object({ answer: { type: 'string' } });
const notJson = (): MockReply => ({ content: 'Sure! Here it is: {"oops"' });
const ok429: MockReply = { fault: 'status', status: 429, retryAfter: '0' };
const at = (match: string, ...replies: MockReply[]): MockReply[] => replies.map((r) => ({ ...r, match }));

/**
 * A router choosing a branch: billing gets a streamed draft (falling back to a plain one, then
 * to a person), checked by a gate that abstains; legal goes to a person; anything else abstains.
 */
const branching: Chain = {
  format: 'seamscope.chain', version: 1, id: 'fixture-branch-faults', name: 'Route a ticket, with fallbacks and terminals',
  inputs: [{ name: 'ticket', schema: { type: 'string' }, trust: 'untrusted', required: true, example: 'I was charged twice for order 1042.' }],
  steps: [
    { id: 'classify', kind: 'model', name: 'Classify', position: { x: 0, y: 0 }, config: { bindings: { ticket: 'inputs.ticket' }, prompt: '[classify] Classify the ticket: {ticket}', outputSchema: object({ intent: { enum: ['billing', 'legal', 'other'] } }), retries: 2 } },
    { id: 'route', kind: 'router', name: 'By intent', position: { x: 280, y: 0 }, config: { bindings: { value: 'steps.classify' }, field: 'intent', routes: [{ equals: 'billing', to: 'billing_reply', label: 'billing' }, { equals: 'legal', to: 'to_person', label: 'legal' }], defaultTo: 'unsure' } },
    { id: 'billing_reply', kind: 'model', name: 'Billing draft', position: { x: 560, y: 0 }, config: { bindings: { ticket: 'inputs.ticket', intent: 'steps.classify.intent' }, prompt: '[billing] Draft a {intent} reply to: {ticket}', outputSchema: replySchema, retries: 1, stream: true, onFail: 'fallback:plain_reply' } },
    { id: 'plain_reply', kind: 'model', name: 'Plain draft', position: { x: 560, y: 120 }, config: { bindings: { ticket: 'inputs.ticket' }, prompt: '[plain] Reply plainly to: {ticket}', outputSchema: replySchema, retries: 0, onFail: 'escalate' } },
    { id: 'check', kind: 'gate', name: 'Says something', position: { x: 840, y: 0 }, config: { bindings: { value: 'steps.billing_reply' }, check: { type: 'rule', rule: { '!=': [{ var: 'value.reply' }, 'I cannot say.'] }, message: 'the reply says nothing' }, onFail: 'abstain' } },
    { id: 'send', kind: 'output', name: 'Reply', position: { x: 1120, y: 0 }, config: { bindings: { value: 'steps.check.reply' } } },
    { id: 'to_person', kind: 'escalate', name: 'A person', position: { x: 560, y: 240 }, config: { bindings: { value: 'inputs.ticket' }, reason: 'Legal tickets go to a person.' } },
    { id: 'unsure', kind: 'abstain', name: 'No branch', position: { x: 560, y: 360 }, config: { bindings: { value: 'steps.classify' }, reason: 'No branch for this intent.' } },
  ],
};

const billing: MockReply = { content: { intent: 'billing' } };

/** A map over four tickets, three at once, then a reduce whose on-fail is `onFail`. */
function mapChain(id: string, onFail: string, stream: boolean): Chain {
  const steps: Chain['steps'] = [
    { id: 'each', kind: 'map', name: 'Each ticket', position: { x: 0, y: 0 }, config: { bindings: { items: 'inputs.tickets' }, itemName: 'ticket', unitIdField: 'id', concurrency: 3, retries: 1, stream, prompt: 'Summarise ticket {ticket.id}: {ticket.text}', outputSchema: object({ summary: { type: 'string' } }) } },
    { id: 'all', kind: 'reduce', name: 'Integrate', position: { x: 280, y: 0 }, config: { bindings: { collection: 'steps.each' }, prompt: '[integrate] Integrate the summaries: {collection}', outputSchema: answerSchema, retries: 1, onFail } },
    { id: 'final', kind: 'output', name: 'Out', position: { x: 560, y: 0 }, config: { bindings: { value: 'steps.all.answer' } } },
  ];
  if (onFail.startsWith('fallback:')) {
    steps.push({ id: 'integrate_plain', kind: 'reduce', name: 'Integrate plainly', position: { x: 280, y: 120 }, config: { bindings: { collection: 'steps.each' }, prompt: '[integrate-plain] List what the summaries say: {collection}', outputSchema: answerSchema, retries: 0, onFail: 'abstain' } });
  }
  return {
    format: 'seamscope.chain', version: 1, id, name: `Map four tickets three at once, reduce (on fail: ${onFail})`,
    inputs: [{
      name: 'tickets', schema: { type: 'array', items: { type: 'object' } }, trust: 'untrusted', required: true,
      example: [{ id: 't1', text: 'Refund order 12' }, { id: 't2', text: 'Where is order 7?' }, { id: 't3', text: 'Cancel my plan' }, { id: 't4', text: 'Invoice is wrong' }],
    }],
    steps,
  };
}

/** A unit's text is in its prompt (inside the <data> tags untrusted values get), and in no other. */
const unit = (n: number) => ['Refund order 12', 'Where is order 7?', 'Cancel my plan', 'Invoice is wrong'][n - 1] as string;
const summary = (n: number): MockReply => ({ content: { summary: `summary of ticket ${n}` }, match: unit(n) });

/** Three independent calls (one with a fallback, one streamed) joined by a fourth. */
const fanOut: Chain = {
  format: 'seamscope.chain', version: 1, id: 'fixture-fan-out-faults', name: 'Three calls at once, then a join',
  inputs: [{ name: 'question', schema: { type: 'string' }, trust: 'untrusted', required: true, example: 'Can I cancel within 30 days?' }],
  steps: [
    { id: 'facts', kind: 'model', name: 'Facts', position: { x: 0, y: 0 }, config: { bindings: { question: 'inputs.question' }, prompt: '[facts] List the facts in: {question}', outputSchema: answerSchema, retries: 1 } },
    { id: 'risks', kind: 'model', name: 'Risks', position: { x: 0, y: 120 }, config: { bindings: { question: 'inputs.question' }, prompt: '[risks] List the risks in: {question}', outputSchema: answerSchema, retries: 1, onFail: 'fallback:risks_plain' } },
    { id: 'risks_plain', kind: 'model', name: 'Risks, plainly', position: { x: 280, y: 120 }, config: { bindings: { question: 'inputs.question' }, prompt: '[risks-plain] Name one risk in: {question}', outputSchema: answerSchema, retries: 0 } },
    { id: 'tone', kind: 'model', name: 'Tone', position: { x: 0, y: 240 }, config: { bindings: { question: 'inputs.question' }, prompt: '[tone] Describe the tone of: {question}', outputSchema: answerSchema, retries: 1, stream: true } },
    { id: 'combine', kind: 'model', name: 'Combine', position: { x: 560, y: 0 }, config: { bindings: { facts: 'steps.facts.answer', risks: 'steps.risks.answer', tone: 'steps.tone.answer' }, prompt: '[combine] Facts: {facts}\nRisks: {risks}\nTone: {tone}', outputSchema: answerSchema, retries: 1, onFail: 'abstain' } },
    { id: 'out', kind: 'output', name: 'Answer', position: { x: 840, y: 0 }, config: { bindings: { value: 'steps.combine.answer' } } },
  ],
};

const said = (match: string, answer: string): MockReply => ({ content: { answer }, match });

export const faultChains: FaultChain[] = [
  {
    chain: branching,
    parallel: false,
    scenarios: [
      {
        name: 'a 429, a schema violation and invalid JSON before the route; the streamed branch answers',
        replies: [ok429, { content: { intent: 'billing!' } }, notJson(), billing, { content: { reply: 'We will refund order 1042.' } }],
        shows: ['classify transport retry 1 (429)', 'classify attempt 1: schema_violation', 'classify attempt 2: invalid_json', 'route "billing" -> billing_reply', 'run succeeded at send'],
        status: 'succeeded',
      },
      {
        name: 'the chosen branch: a cut stream, a cut-off answer, a refusal; the fallback edge answers',
        replies: [billing, { fault: 'cut_stream', afterChunks: 2 }, { content: '{"reply": "We will', finishReason: 'length' }, { fault: 'refusal', message: 'I will not.' }, { content: { reply: 'Refund on its way.' } }],
        shows: ['billing_reply transport retry 1', 'billing_reply attempt 1: truncated', 'billing_reply attempt 2: refusal', '-> plain_reply', 'run succeeded at send'],
        status: 'succeeded',
      },
      {
        name: 'the branch and its fallback both fail: the run escalates',
        replies: [billing, { fault: 'stream_error', afterChunks: 1 }, notJson(), notJson(), { content: { reply: 7 } }],
        shows: ['billing_reply transport retry 1', '-> plain_reply', 'plain_reply attempt 1: schema_violation', 'plain_reply failed'],
        status: 'escalated',
      },
      {
        name: 'the gate after the branch fails: the run abstains',
        replies: [billing, { content: { reply: 'I cannot say.' } }],
        shows: ['check check rule false', 'check failed gate_failed'],
        status: 'abstained',
      },
      {
        name: 'a 500, then the legal label: the escalate terminal',
        replies: [{ fault: 'status', status: 500, retryAfter: '0' }, { content: { intent: 'legal' } }],
        shows: ['classify transport retry 1 (500)', 'route "legal" -> to_person', 'run escalated at to_person'],
        status: 'escalated',
      },
      {
        name: 'a 503, then "other": the default branch abstains',
        replies: [{ fault: 'status', status: 503, retryAfter: '0' }, { content: { intent: 'other' } }],
        shows: ['classify transport retry 1 (503)', 'route "other" -> unsure', 'run abstained at unsure'],
        status: 'abstained',
      },
      {
        name: 'the classifier never keeps its contract: the run fails before the route',
        replies: [notJson(), { content: { intent: 'refund' } }, { content: '{"intent": "bill', finishReason: 'length' }],
        shows: ['classify attempt 3: truncated', 'classify failed'],
        status: 'failed',
      },
    ],
  },
  {
    chain: mapChain('fixture-map-parallel-fallback', 'fallback:integrate_plain', false),
    parallel: true,
    scenarios: [
      {
        name: 'faults on three units in flight at once: recovered or reported by name',
        replies: [summary(1), ...at(unit(2), ok429, { content: { summary: 'order 7 ships today' } }), ...at(unit(3), { content: { summary: 5 } }, { content: { summary: 'cancel the plan' } }), ...at(unit(4), { content: '{"summary": "The invoice', finishReason: 'length' }, { fault: 'refusal' }), said('[integrate]', 'three of four tickets summarised')],
        shows: ['each transport retry 1 (429)', 'each#t3 attempt 1: schema_violation', 'each#t4 attempt 2: refusal', 'each unit t4 error', 'each unit t3 ok', 'run succeeded at final'],
        status: 'succeeded',
      },
      {
        name: 'one unit fails, then the reduce: its fallback integrates',
        replies: [summary(1), ...at(unit(2), notJson(), notJson()), summary(3), summary(4), ...at('[integrate]', notJson(), { content: { answer: 1 } }), said('[integrate-plain]', 'tickets 1, 3 and 4')],
        shows: ['each unit t2 error', 'all attempt 2: schema_violation', '-> integrate_plain', 'run succeeded at final'],
        status: 'succeeded',
      },
      {
        name: 'one unit fails, the reduce and its fallback fail: the run abstains',
        replies: [summary(1), summary(2), ...at(unit(3), { fault: 'refusal' }), summary(4), ...at('[integrate]', notJson(), notJson()), ...at('[integrate-plain]', { content: { answer: 'cut' }, finishReason: 'length' })],
        shows: ['each unit t3 error', '-> integrate_plain', 'integrate_plain attempt 1: truncated', 'integrate_plain failed'],
        status: 'abstained',
      },
    ],
  },
  {
    chain: mapChain('fixture-map-parallel-escalate', 'escalate', true),
    parallel: true,
    scenarios: [
      {
        name: 'streamed units: a cut stream and a stream error recovered, one unit failing; the reduce escalates after its 429s',
        replies: [...at(unit(1), { fault: 'cut_stream', afterChunks: 1 }), ...at(unit(2), { fault: 'stream_error', afterChunks: 2 }), ...at(unit(3), notJson(), { fault: 'refusal' }), summary(4), ...at('[integrate]', ok429, ok429, ok429)],
        shows: ['each unit t1 ok', 'each unit t3 error', 'all transport retry 2 (429)', 'all failed'],
        status: 'escalated',
      },
      {
        name: 'a unit whose endpoint never answers times out three times and fails by name; another times out once',
        replies: [...at(unit(1), { fault: 'hang' }, { fault: 'hang' }, { fault: 'hang' }), ...at(unit(2), { fault: 'hang' }), summary(2), summary(3), summary(4), said('[integrate]', 'three of four')],
        shows: ['each unit t1 error', 'each unit t2 ok', 'each transport retry 2', 'run succeeded at final'],
        status: 'succeeded',
        timeoutMs: 1500,
      },
      {
        name: 'one unit gets an empty body, another an HTML sign-in page, a third is out of quota; the reduce integrates the rest',
        replies: [...at(unit(1), { fault: 'empty_body' }), ...at(unit(2), { fault: 'html_page' }), ...at(unit(3), { fault: 'quota' }), summary(4), said('[integrate]', 'one of four')],
        shows: ['each unit t1 error', 'each unit t2 error', 'each unit t3 error', 'each unit t4 ok', 'run succeeded at final'],
        status: 'succeeded',
      },
    ],
  },
  {
    chain: fanOut,
    parallel: true,
    scenarios: [
      {
        name: 'faults on all three calls in flight at once, each recovered',
        replies: [...at('[facts]', ok429), said('[facts]', 'thirty days'), ...at('[risks]', { content: { answer: ['x'] } }), said('[risks]', 'fees apply'), ...at('[tone]', { fault: 'cut_stream', afterChunks: 2 }), said('[tone]', 'worried'), said('[combine]', 'yes, within thirty days')],
        shows: ['facts transport retry 1 (429)', 'risks attempt 1: schema_violation', 'tone transport retry 1', 'run succeeded at out'],
        status: 'succeeded',
      },
      {
        name: 'one call fails and its fallback answers while the others are in flight',
        replies: [...at('[facts]', { content: { answer: 'thirty days', extra: true } }), said('[facts]', 'thirty days'), ...at('[risks]', notJson(), notJson()), said('[risks-plain]', 'fees'), said('[tone]', 'calm'), said('[combine]', 'yes')],
        shows: ['facts attempt 1: schema_violation', '-> risks_plain', 'risks_plain succeeded', 'run succeeded at out'],
        status: 'succeeded',
      },
      {
        name: 'the join after the fan-out fails: the run abstains',
        replies: [said('[facts]', 'thirty days'), said('[risks]', 'fees'), said('[tone]', 'calm'), ...at('[combine]', notJson(), { content: '{"answer": "ye', finishReason: 'length' })],
        shows: ['combine attempt 2: truncated', 'combine failed', 'run abstained'],
        status: 'abstained',
      },
      {
        name: 'one call never answers and times out while the others are in flight: the run fails after they finish',
        replies: [...at('[facts]', { fault: 'hang' }, { fault: 'hang' }, { fault: 'hang' }), said('[risks]', 'fees'), said('[tone]', 'calm')],
        shows: ['facts transport retry 2', 'facts failed', 'risks succeeded', 'tone succeeded', 'run failed'],
        status: 'failed',
        timeoutMs: 1500,
      },
      {
        name: 'one call is out of quota while the others are in flight: the run fails after they finish',
        replies: [...at('[facts]', { fault: 'quota' }), said('[risks]', 'fees'), ...at('[tone]', { fault: 'stream_error', afterChunks: 1 }), said('[tone]', 'calm')],
        shows: ['facts failed', 'risks succeeded', 'tone transport retry 1', 'tone succeeded', 'run failed'],
        status: 'failed',
      },
      {
        name: 'one call fails past its fallback while its siblings are in flight: the run fails',
        replies: [said('[facts]', 'thirty days'), ...at('[risks]', notJson(), notJson()), ...at('[risks-plain]', notJson()), said('[tone]', 'calm')],
        // The siblings in flight when risks failed still finish: their calls are made and recorded.
        shows: ['-> risks_plain', 'risks_plain failed', 'facts succeeded', 'tone succeeded', 'run failed'],
        status: 'failed',
      },
    ],
  },
];
