import { twoOutputChain } from '../testing/chain-fixtures.ts';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addInput, addStep, connect, connectInput, createEmptyChain, renameStep, updateStepConfig } from '../chain/edit.ts';
import { connectBranch } from '../chain/branch-edit.ts';
import { parseChain } from '../chain/parse.ts';
import type { Chain } from '../chain/schema.ts';
import { templateChain } from '../testing/chain-fixtures.ts';
import { faultChains } from '../testing/fault-chains.ts';
import type { MockReply } from '../testing/mock-server.ts';
import { API_KEY, callsAreSequential, DEFAULT_SETTINGS, demoInputs, REPO_ROOT, runEngine, runExported, stepOutcomes, type Capture, type Settings } from '../testing/conformance-harness.ts';
import { stepRegistry } from '../steps/index.ts';

/**
 * Conformance: every demo chain runs three ways — the in-app engine, the exported TypeScript
 * and the exported Python — each against a fresh mock model server answering the same script,
 * and all three must end the same way, send the same request bodies and make the same retry
 * and routing decisions. Scripted faults (429, a schema violation, invalid JSON, a cut-off
 * answer, a refusal) exercise the retry-with-feedback path, whose feedback text is part of
 * the next request body.
 */
const demoDir = join(REPO_ROOT, 'public/demo');
const index = JSON.parse(readFileSync(join(demoDir, 'index.json'), 'utf8')) as { file: string; id: string }[];

function load(file: string): Chain {
  const parsed = parseChain(readFileSync(join(demoDir, file), 'utf8'), stepRegistry);
  if (!parsed.ok) throw new Error(`${file}: ${parsed.problems.map((p) => `${p.path} ${p.message}`).join('; ')}`);
  return parsed.chain;
}

const listed = index.map((e) => e.file);
// Chain files beside the index that parse are covered too (a colleague may add one before listing it).
const extra = readdirSync(demoDir).filter((f) => f.endsWith('.chain.json') && !listed.includes(f) && parseChain(readFileSync(join(demoDir, f), 'utf8'), stepRegistry).ok);
const chains = [...listed, ...extra].filter((f) => existsSync(join(demoDir, f))).map((file) => ({ file, chain: load(file) }));

interface Scenario {
  name: string;
  replies: MockReply[];
  settings?: Partial<Settings>;
  /** Decisions the engine must record, so a scenario cannot pass without exercising what it names. */
  shows?: string[];
}

const faults: Scenario[] = [
  {
    name: 'a 429, a schema violation, then invalid JSON',
    replies: [
      { fault: 'status', status: 429, retryAfter: '0' },
      { content: { unexpected: true } },
      { content: 'Sure! Here is the JSON you asked for: {"answer": "180 days"' },
    ],
    shows: ['transport retry 1 (429)', 'attempt 1: schema_violation', '+feedback'],
  },
  { name: 'a cut-off answer, then a refusal', replies: [{ content: '{"answer": "The deadline is', finishReason: 'length' }, { fault: 'refusal' }], shows: ['attempt 1: truncated'] },
];

/** Which scenarios each chain runs: all run the default model; linear chains also run the faults. */
function scenariosFor(file: string, chain: Chain): Scenario[] {
  const list: Scenario[] = [{ name: 'the default model', replies: [] }];
  if (['summarise-then-answer.chain.json', 'select-quotes-enum.chain.json', 'support-ticket.chain.json'].includes(file) && callsAreSequential(chain)) list.push(...faults);
  if (['summarise-then-answer.chain.json', 'select-quotes-then-answer.chain.json'].includes(file)) {
    list.push({ name: 'structured output off (the schema in the prompt)', replies: [], settings: { structuredOutput: false } });
  }
  return list;
}

const answerSchema = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'], additionalProperties: false };
const bad = (n: number): MockReply[] => Array.from({ length: n }, () => ({ content: 'not JSON at all' }));

/** Chains the demo set does not cover: fallbacks, a map with a failed unit, streaming, rules and routes on numbers. */
const synthetic: { chain: Chain; scenarios: Scenario[] }[] = [
  // Two outputs on two paths: every reachable step runs and the run returns both, by step id.
  { chain: twoOutputChain(), scenarios: [{ name: 'both outputs return', replies: [{ content: { summary: 'Appeal within 180 days.' } }, { content: { answer: '180 days' } }] }, { name: 'the second model call fails', replies: [{ content: { summary: 'Appeal within 180 days.' } }, ...bad(3)] }] },
  {
    chain: {
      format: 'seamscope.chain', version: 1, id: 'fixture-fallbacks', name: 'Fallbacks in turn, ending at a person',
      inputs: [{ name: 'question', schema: { type: 'string' }, trust: 'untrusted', required: true, example: 'How many days to appeal?' }],
      steps: [
        { id: 'draft', kind: 'model', name: 'Draft', position: { x: 0, y: 0 }, config: { bindings: { question: 'inputs.question' }, prompt: 'Answer: {question}', outputSchema: answerSchema, retries: 0, onFail: 'fallback:single_call' } },
        { id: 'single_call', kind: 'model', name: 'Single call', position: { x: 0, y: 100 }, config: { bindings: { question: 'inputs.question' }, prompt: 'Answer plainly: {question}', outputSchema: answerSchema, retries: 1, onFail: 'fallback:human' } },
        { id: 'human', kind: 'escalate', name: 'A person', position: { x: 0, y: 200 }, config: { bindings: { value: 'inputs.question' }, reason: 'Both drafts failed.' } },
        { id: 'final', kind: 'output', name: 'Answer', position: { x: 280, y: 0 }, config: { bindings: { value: 'steps.draft.answer' } } },
      ],
    },
    scenarios: [
      { name: 'the first draft succeeds', replies: [] },
      { name: 'the draft fails, its fallback answers', replies: bad(1), shows: ['draft failed invalid_json: the response is not valid JSON (Unexpected token', '-> single_call'] },
      { name: 'both fail, a person takes it', replies: bad(3), shows: ['-> human', 'run escalated at human'] },
    ],
  },
  {
    chain: {
      format: 'seamscope.chain', version: 1, id: 'fixture-map', name: 'Map with a failed unit, one at a time, then reduce',
      inputs: [{ name: 'tickets', schema: { type: 'array', items: { type: 'object' } }, trust: 'untrusted', required: true, example: [{ id: 't1', text: 'Refund order 12' }, { id: 't2', text: 'Where is order 7?' }, { id: 't3', text: 'Cancel it' }] }],
      steps: [
        { id: 'each', kind: 'map', name: 'Each ticket', position: { x: 0, y: 0 }, config: { bindings: { items: 'inputs.tickets' }, itemName: 'ticket', unitIdField: 'id', concurrency: 1, retries: 0, prompt: 'Summarise {ticket.text}', outputSchema: { type: 'object', properties: { summary: { type: 'string' } }, required: ['summary'], additionalProperties: false } } },
        { id: 'all', kind: 'reduce', name: 'Integrate', position: { x: 280, y: 0 }, config: { bindings: { collection: 'steps.each' }, prompt: 'Integrate: {collection}', outputSchema: answerSchema } },
        { id: 'final', kind: 'output', name: 'Out', position: { x: 560, y: 0 }, config: { bindings: { value: 'steps.all' } } },
      ],
    },
    scenarios: [{ name: 'all units succeed', replies: [] }, { name: 'the second unit fails and is reported by name', replies: [{ content: { summary: 'ok' } }, ...bad(1)], shows: ['each unit t2 error'] }],
  },
  {
    chain: {
      format: 'seamscope.chain', version: 1, id: 'fixture-stream-rule', name: 'Streamed call, a rule gate and a route on a number',
      inputs: [{ name: 'n', schema: { type: 'integer' }, trust: 'trusted', required: true, example: 2 }, { name: 'question', schema: { type: 'string' }, trust: 'trusted', required: true, example: 'Say hello' }],
      steps: [
        { id: 'talk', kind: 'model', name: 'Talk', position: { x: 0, y: 0 }, config: { bindings: { question: 'inputs.question', n: 'inputs.n' }, system: 'Be brief ({n}).', prompt: '{question}', outputSchema: answerSchema, stream: true, temperature: 0.7 } },
        { id: 'check', kind: 'gate', name: 'Rule', position: { x: 280, y: 0 }, config: { bindings: { value: 'steps.talk', expected: 'inputs.n' }, check: { type: 'rule', rule: { and: [{ '!!': { var: 'value.answer' } }, { '<': [{ var: 'expected' }, 5] }] }, message: 'no answer' }, onFail: 'abstain' } },
        // Reading the gate orders the router after it. Steps that read none of each other start together in the engine
        // and in a program alike, but once one has started, which of the others' successors the engine starts before a
        // halt depends on timing; a program starts none (the fault scenarios below keep halts to steps started together).
        { id: 'route', kind: 'router', name: 'On n', position: { x: 560, y: 0 }, config: { bindings: { value: 'inputs.n', checked: 'steps.check' }, routes: [{ equals: 1, to: 'one' }, { equals: 2, to: 'two' }], defaultTo: null } },
        { id: 'one', kind: 'output', name: 'One', position: { x: 840, y: 0 }, config: { bindings: { value: 'steps.check' } } },
        { id: 'two', kind: 'output', name: 'Two', position: { x: 840, y: 100 }, config: { bindings: { value: 'steps.check.answer' } } },
      ],
    },
    scenarios: [
      { name: 'streamed to the end', replies: [] },
      { name: 'a cut stream is retried', replies: [{ fault: 'cut_stream', afterChunks: 2 }], shows: ['talk transport retry 1'] },
      { name: 'a stream error, then a refusal', replies: [{ fault: 'stream_error', afterChunks: 1 }, { fault: 'refusal', message: 'I will not.' }], shows: ['talk attempt 1: refusal'] },
    ],
  },
  {
    // Template steps: text from bindings with no model call (a context built once, a final message).
    chain: templateChain(),
    scenarios: [
      { name: 'both templates render', replies: [] },
      { name: 'a schema violation, retried with feedback', replies: [{ content: { answer: 'Within 180 calendar days.' } }], shows: ['attempt 1: schema_violation', '+feedback'] },
    ],
  },
  {
    chain: {
      format: 'seamscope.chain', version: 1, id: 'fixture-template-missing', name: 'A template naming a field the input lacks',
      inputs: [{ name: 'ticket', schema: { type: 'object' }, trust: 'untrusted', required: true, example: { body: 'Refund order 12' } }],
      steps: [
        { id: 'note', kind: 'template', name: 'Note', position: { x: 0, y: 0 }, config: { bindings: { t: 'inputs.ticket' }, text: 'Ticket {t.id}: {t.body}' } },
        { id: 'final', kind: 'output', name: 'Out', position: { x: 280, y: 0 }, config: { bindings: { value: 'steps.note' } } },
      ],
    },
    scenarios: [{ name: 'the missing placeholder fails the step, named', replies: [], shows: ['note failed missing_input: the template has no value for {t.id}'] }],
  },
  {
    // Routes on an empty value: an optional input not given, and a field holding "" (Dify's if-else "empty").
    chain: {
      format: 'seamscope.chain', version: 1, id: 'fixture-route-empty', name: 'Routes on an empty or missing value',
      inputs: [
        { name: 'text', schema: { type: 'string' }, trust: 'untrusted', required: true, example: 'Bonjour' },
        { name: 'country', schema: { type: 'string' }, trust: 'untrusted', required: false },
        { name: 'ticket', schema: { type: 'object' }, trust: 'trusted', required: true, example: { id: 7, tier: '' } },
      ],
      steps: [
        { id: 'by_country', kind: 'router', name: 'Country given?', position: { x: 0, y: 0 }, config: { bindings: { value: 'inputs.country' }, routes: [{ when: 'empty', to: 'plain', label: 'no country' }], defaultTo: 'local' } },
        { id: 'plain', kind: 'template', name: 'Plain', position: { x: 280, y: 0 }, config: { bindings: { t: 'inputs.text' }, text: 'Translate: {t}' } },
        { id: 'local', kind: 'template', name: 'Local', position: { x: 280, y: 100 }, config: { bindings: { t: 'inputs.text', c: 'inputs.country' }, text: 'Translate for {c}: {t}' } },
        { id: 'by_tier', kind: 'router', name: 'Tier', position: { x: 0, y: 200 }, config: { bindings: { value: 'inputs.ticket' }, field: 'tier', routes: [{ equals: 'gold', to: 'gold' }, { when: 'empty', to: 'basic' }], defaultTo: 'other' } },
        { id: 'gold', kind: 'template', name: 'Gold', position: { x: 280, y: 200 }, config: { bindings: { t: 'inputs.ticket' }, text: 'Gold {t.id}' } },
        { id: 'basic', kind: 'template', name: 'Basic', position: { x: 280, y: 300 }, config: { bindings: { t: 'inputs.ticket' }, text: 'Basic {t.id}' } },
        { id: 'other', kind: 'template', name: 'Other', position: { x: 280, y: 400 }, config: { bindings: { t: 'inputs.ticket' }, text: 'Other {t.id}' } },
        { id: 'out_plain', kind: 'output', name: 'Out plain', position: { x: 560, y: 0 }, config: { bindings: { value: 'steps.plain' } } },
        { id: 'out_local', kind: 'output', name: 'Out local', position: { x: 560, y: 100 }, config: { bindings: { value: 'steps.local' } } },
        { id: 'out_basic', kind: 'output', name: 'Out basic', position: { x: 560, y: 300 }, config: { bindings: { value: 'steps.basic' } } },
      ],
    },
    scenarios: [{ name: 'a missing input and an empty field each take their empty route', replies: [], shows: ['by_country route undefined -> plain', 'by_tier route "" -> basic', 'out_basic succeeded'] }],
  },
  {
    // A chosen number of groups (from the planner): a balanced partition, not packing by the cap.
    chain: {
      format: 'seamscope.chain', version: 1, id: 'fixture-split-groups', name: 'Split into a chosen number of groups',
      inputs: [{
        name: 'clauses', schema: { type: 'array', items: { type: 'object' } }, trust: 'untrusted', required: true,
        example: [
          { id: '1.1', section: '1', text: 'The Supplier shall deliver the Goods within thirty (30) days of the Order.' },
          { id: '1.2', section: '1', text: 'Delivery is complete when the Buyer signs the delivery note.' },
          { id: '2.1', section: '2', text: 'The Buyer shall pay each invoice within sixty (60) days of receipt, in euro, by bank transfer to the account the Supplier names in writing, and late payment bears interest at the statutory rate.' },
          { id: '2.2', section: '2', text: 'Disputed amounts may be withheld.' },
          { id: '3.1', section: '3', text: 'Either party may end this Agreement on ninety (90) days written notice.' },
          { id: '3.2', section: '3', text: 'Clauses 2.1 and 4 survive the end of this Agreement.' },
          { id: '4', section: '4', text: 'This Agreement is governed by the laws of Ireland.' },
        ],
      }],
      steps: [
        { id: 'split', kind: 'split', name: 'Split', position: { x: 0, y: 0 }, config: { bindings: { units: 'inputs.clauses' }, outputCap: 4000, window: 0, expansion: 1.2, headroom: 0.6, groups: 3 } },
        { id: 'final', kind: 'output', name: 'Out', position: { x: 280, y: 0 }, config: { bindings: { value: 'steps.split' } } },
      ],
    },
    scenarios: [{ name: 'three groups, balanced, sections whole', replies: [] }],
  },
];

const routeTool = {
  name: 'route_ticket', description: 'Send the ticket to a queue',
  parameters: { type: 'object', properties: { queue: { type: 'string', enum: ['billing', 'tech'] }, note: { type: 'string' } }, required: ['queue', 'note'], additionalProperties: false },
};

/** A forced tool call: its arguments are the step output, retried with feedback like JSON. */
synthetic.push({
  chain: {
    format: 'seamscope.chain', version: 1, id: 'fixture-forced-tool', name: 'A forced tool call as the structured output',
    inputs: [{ name: 'ticket', schema: { type: 'string' }, trust: 'untrusted', required: true, example: 'I was charged twice.' }],
    steps: [
      { id: 'pick', kind: 'model', name: 'Pick', position: { x: 0, y: 0 }, config: { bindings: { ticket: 'inputs.ticket' }, prompt: 'Route: {ticket}', outputSchema: null, retries: 1, tools: [routeTool], toolChoice: { name: 'route_ticket' } } },
      { id: 'final', kind: 'output', name: 'Queue', position: { x: 280, y: 0 }, config: { bindings: { value: 'steps.pick.queue' } } },
    ],
  },
  scenarios: [
    { name: 'the default model calls the tool', replies: [] },
    {
      name: 'arguments outside the schema, then valid ones',
      replies: [{ content: '', toolCalls: [{ id: 'call_1', name: 'route_ticket', arguments: { queue: 'sales', note: 'x' } }] }, { content: '', toolCalls: [{ id: 'call_2', name: 'route_ticket', arguments: { queue: 'billing', note: 'twice' } }] }],
      shows: ['pick attempt 1: schema_violation'],
    },
    { name: 'text instead of the call, then the call', replies: [{ content: 'Billing, I think.' }, { content: '', reasoning: 'Charged twice: billing.', toolCalls: [{ id: 'call_3', name: 'route_ticket', arguments: '{"queue":"billing","note":"n"}' }] }], shows: ['pick attempt 1: no_tool_call'], settings: { structuredOutput: false } },
  ],
});
/** The same, streamed: the call arrives in `delta.tool_calls` fragments joined by index. */
synthetic.push({
  chain: {
    format: 'seamscope.chain', version: 1, id: 'fixture-forced-tool-stream', name: 'A forced tool call, streamed',
    inputs: [{ name: 'ticket', schema: { type: 'string' }, trust: 'untrusted', required: true, example: 'The app crashes.' }],
    steps: [
      { id: 'pick', kind: 'model', name: 'Pick', position: { x: 0, y: 0 }, config: { bindings: { ticket: 'inputs.ticket' }, prompt: 'Route: {ticket}', outputSchema: null, retries: 1, stream: true, tools: [routeTool], toolChoice: 'required' } },
      { id: 'final', kind: 'output', name: 'Queue', position: { x: 280, y: 0 }, config: { bindings: { value: 'steps.pick' } } },
    ],
  },
  scenarios: [
    { name: 'streamed call', replies: [{ content: '', reasoning: 'A crash: tech.', toolCalls: [{ id: 'call_s', name: 'route_ticket', arguments: { queue: 'tech', note: 'crash' } }] }] },
    { name: 'a tool-only reply to another tool name fails, then the call', replies: [{ content: '', toolCalls: [{ id: 'call_x', name: 'other_tool', arguments: {} }] }, { content: '', toolCalls: [{ id: 'call_y', name: 'route_ticket', arguments: { queue: 'tech', note: 'n' } }] }], shows: ['pick attempt 1: no_tool_call'] },
  ],
});

/**
 * The support-ticket chain as a person sketches it on the canvas: steps from the palette and
 * edges drawn with `connect`, so the bindings are the ones the canvas makes (the router's edge
 * binds `value`); only prompts, schemas and the route's label are typed in. With
 * `routerReads`, the edge into the router is bound under that name instead (the old bug).
 */
function sketchedTicketChain(routerReads?: string): Chain {
  let chain = addInput(createEmptyChain('fixture-sketched-ticket', 'Sketched support ticket'), 'ticket', { trust: 'untrusted', example: 'I was charged twice for order 1042 and will see a lawyer.' }).chain;
  for (const [kind, name] of [['model', 'Extract facts'], ['model', 'Classify'], ['router', 'Legal?'], ['escalate', 'To a person'], ['model', 'Draft reply'], ['output', 'Reply']] as const) {
    const added = addStep(chain, kind, { x: 0, y: 0 }, stepRegistry);
    chain = renameStep(added.chain, added.stepId, name);
  }
  chain = connectInput(chain, 'ticket', 'model_1', undefined, stepRegistry);
  chain = connect(chain, 'model_1', 'model_2', undefined, stepRegistry);
  chain = connect(chain, 'model_2', 'router_1', routerReads, stepRegistry);
  chain = connectBranch(chain, 'router_1', 'model_3', { kind: 'otherwise' }, stepRegistry); // chosen as "otherwise" in the label prompt
  chain = connectBranch(chain, 'router_1', 'escalate_1', { kind: 'label', equals: 'legal' }, stepRegistry); // typed in the label prompt
  chain = connect(chain, 'model_2', 'escalate_1', undefined, stepRegistry);
  chain = connect(chain, 'model_1', 'model_3', undefined, stepRegistry);
  chain = connect(chain, 'model_3', 'output_1', undefined, stepRegistry);
  const factsSchema = { type: 'object', properties: { request: { type: 'string' } }, required: ['request'], additionalProperties: false };
  // The intent is optional in the contract, so a reply without it reaches the router.
  const classifySchema = { type: 'object', properties: { intent: { enum: ['legal', 'refund'] } }, required: [], additionalProperties: false };
  const edits: [string, string, unknown][] = [
    ['model_1', 'outputSchema', factsSchema],
    ['model_2', 'outputSchema', classifySchema],
    ['router_1', 'field', 'intent'],
    ['escalate_1', 'reason', 'Legal tickets go to a person.'],
    ['model_3', 'outputSchema', { type: 'object', properties: { reply: { type: 'string' } }, required: ['reply'], additionalProperties: false }],
  ];
  for (const [id, key, value] of edits) chain = updateStepConfig(chain, id, key, value);
  return chain;
}

describe.concurrent('a router drawn on the canvas branches the same way in the engine and both programs', () => {
  const facts = { content: { request: 'refund for a double charge' } };
  const cases: { name: string; chain: Chain; replies: MockReply[]; engine: { status: string; decision?: string; error?: string } }[] = [
    { name: 'label "legal" takes the route', chain: sketchedTicketChain(), replies: [facts, { content: { intent: 'legal' } }], engine: { status: 'escalated', decision: 'router_1 route "legal" -> escalate_1' } },
    { name: 'another label takes "otherwise"', chain: sketchedTicketChain(), replies: [facts, { content: { intent: 'refund' } }, { content: { reply: 'Refunded.' } }], engine: { status: 'succeeded', decision: 'router_1 route "refund" -> model_3' } },
    { name: 'no label fails the router', chain: sketchedTicketChain(), replies: [facts, { content: {} }], engine: { status: 'failed', decision: 'router_1 failed missing_label: No label to branch on: "intent" is not in the value bound as "value"' } },
    // Bound under another name, the router reads nothing as "value": refused before any call, everywhere.
    { name: 'nothing bound as "value" refuses the run', chain: sketchedTicketChain('model_2'), replies: [facts, { content: { intent: 'legal' } }], engine: { status: 'failed', error: 'The chain cannot run: router_1: Router reads "value" but nothing is bound to it' } },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const parsed = parseChain(c.chain, stepRegistry);
      if (!parsed.ok) throw new Error(parsed.problems.map((p) => `${p.path} ${p.message}`).join('; '));
      const inputs = { ticket: 'I was charged twice for order 1042 and will see a lawyer.' };
      const runId = 'conformance-sketched-ticket';
      const [engine, ts, py] = await Promise.all([
        runEngine(parsed.chain, inputs, DEFAULT_SETTINGS, c.replies, runId),
        runExported(parsed.chain, 'ts', inputs, DEFAULT_SETTINGS, c.replies, runId),
        runExported(parsed.chain, 'py', inputs, DEFAULT_SETTINGS, c.replies, runId),
      ]);
      expect(engine.status).toBe(c.engine.status);
      if (c.engine.decision) expect(engine.decisions).toContain(c.engine.decision);
      if (c.engine.error) expect(engine.error).toContain(c.engine.error);
      expectSameRun(ts, engine, true, 'TypeScript');
      expectSameRun(py, engine, true, 'Python');
    }, 120_000);
  }

  it('the sketched router reads "value", so the canvas chain is the one the cases run', () => {
    expect((sketchedTicketChain().steps.find((s) => s.id === 'router_1')?.config as { bindings: unknown }).bindings).toEqual({ value: 'steps.model_2' });
  });
});

function expectShows(engine: Capture, scenario: { shows?: string[] }): void {
  for (const part of scenario.shows ?? []) expect(engine.decisions.join('\n'), `the engine should record "${part}"`).toContain(part);
}

function expectSameRun(exported: Capture, engine: Capture, sequential: boolean, lang: string): void {
  const where = `exported ${lang}\n${exported.log ?? ''}`;
  expect({ status: exported.status, error: exported.error }, where).toEqual({ status: engine.status, error: engine.error });
  expect(exported.output, where).toEqual(engine.output);
  // Concurrent calls (map units, independent steps) arrive in any order; their bodies must still match.
  if (sequential) expect(exported.bodies, where).toEqual(engine.bodies);
  else expect([...exported.bodies].sort(), where).toEqual([...engine.bodies].sort());
  expect(exported.decisions, where).toEqual(engine.decisions);
  // Keys come from the environment and are never written.
  expect(JSON.stringify(exported.events)).not.toContain(API_KEY);
  expect(exported.log ?? '').not.toContain(API_KEY);
}

describe.concurrent('exported programs conform to the engine on chains the demos do not cover', () => {
  for (const { chain, scenarios } of synthetic) {
    for (const scenario of scenarios) {
      it(`${chain.id}: ${scenario.name}`, async () => {
        const parsed = parseChain(chain, stepRegistry);
        if (!parsed.ok) throw new Error(parsed.problems.map((p) => `${p.path} ${p.message}`).join('; '));
        const inputs = Object.fromEntries(chain.inputs.map((i) => [i.name, i.example]));
        const runId = `conformance-${chain.id}`;
        const [engine, ts, py] = await Promise.all([
          runEngine(parsed.chain, inputs, DEFAULT_SETTINGS, scenario.replies, runId),
          runExported(parsed.chain, 'ts', inputs, DEFAULT_SETTINGS, scenario.replies, runId),
          runExported(parsed.chain, 'py', inputs, DEFAULT_SETTINGS, scenario.replies, runId),
        ]);
        expectShows(engine, scenario);
        expectSameRun(ts, engine, true, 'TypeScript');
        expectSameRun(py, engine, true, 'Python');
      }, 120_000);
    }
  }
});

/**
 * The fault families on branching chains (a router's branch, a fallback edge, a gate, abstain
 * and escalate terminals) and on parallel ones (map units three at once, independent steps
 * in flight together, a reduce and its on-fail after a failed unit). Replies to calls that
 * overlap are keyed to a marker in their prompt, so each run meets the same faults whatever
 * order its requests arrive in; what is compared does not depend on that order either: the
 * request bodies as a multiset, the sorted decisions, each step's (and unit's) status, output
 * and failure, and how the run ended.
 */
describe.concurrent('faults on branching and parallel chains: the engine and both programs agree', () => {
  for (const { chain, parallel, scenarios } of faultChains) {
    for (const scenario of scenarios) {
      it(`${chain.id}: ${scenario.name}`, async () => {
        const parsed = parseChain(chain, stepRegistry);
        if (!parsed.ok) throw new Error(parsed.problems.map((p) => `${p.path} ${p.message}`).join('; '));
        const inputs = Object.fromEntries(chain.inputs.map((i) => [i.name, i.example]));
        const runId = `conformance-${chain.id}`;
        const settings = { ...DEFAULT_SETTINGS, timeoutMs: scenario.timeoutMs };
        const [engine, ts, py] = await Promise.all([
          runEngine(parsed.chain, inputs, settings, scenario.replies, runId),
          runExported(parsed.chain, 'ts', inputs, settings, scenario.replies, runId),
          runExported(parsed.chain, 'py', inputs, settings, scenario.replies, runId),
        ]);
        expect(engine.status, engine.decisions.join('\n')).toBe(scenario.status);
        expectShows(engine, scenario);
        // Every scripted fault was met: a marker no prompt held would leave its reply queued.
        expect(engine.unused, 'scripted replies the engine never asked for').toBe(0);
        for (const [lang, run] of [['TypeScript', ts], ['Python', py]] as const) {
          expectSameRun(run, engine, !parallel, lang);
          expect(stepOutcomes(run.events), `exported ${lang}`).toEqual(stepOutcomes(engine.events));
          expect(run.unused, `exported ${lang}`).toBe(0);
        }
      }, 120_000);
    }
  }
});

describe('a webhook terminal', () => {
  it('posts the same body with the same idempotency key from the engine and both programs', async () => {
    const received: { target: string | undefined; body: string; key: string | undefined; team: string | undefined }[] = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ target: req.url, body: Buffer.concat(chunks).toString('utf8'), key: req.headers['idempotency-key'] as string | undefined, team: req.headers['x-team'] as string | undefined });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      const parsed = parseChain({
        format: 'seamscope.chain', version: 1, id: 'fixture-webhook', name: 'Answer, then send it on',
        inputs: [{ name: 'question', schema: { type: 'string' }, example: 'Hello?' }],
        steps: [
          { id: 'answer', kind: 'model', name: 'Answer', config: { bindings: { question: 'inputs.question' }, prompt: '{question}', outputSchema: answerSchema } },
          { id: 'send', kind: 'webhook', name: 'Send', config: { bindings: { value: 'steps.answer' }, url: `http://127.0.0.1:${port}/a b/../hook?q="x y"&r=é#frag ment`, headers: { 'x-team': 'support' } } },
        ],
      }, stepRegistry);
      if (!parsed.ok) throw new Error('fixture');
      const inputs = { question: 'Hello?' };
      const runId = 'conformance-webhook';
      const [engine, ts, py] = await Promise.all([
        runEngine(parsed.chain, inputs, DEFAULT_SETTINGS, [], runId),
        runExported(parsed.chain, 'ts', inputs, DEFAULT_SETTINGS, [], runId),
        runExported(parsed.chain, 'py', inputs, DEFAULT_SETTINGS, [], runId),
      ]);
      expectSameRun(ts, engine, true, 'TypeScript');
      expectSameRun(py, engine, true, 'Python');
      expect(engine.status).toBe('succeeded');
      expect(received).toHaveLength(3);
      expect(new Set(received.map((r) => JSON.stringify(JSON.parse(r.body)))).size).toBe(1);
      expect(new Set(received.map((r) => r.key)).size).toBe(1);
      expect(received.every((r) => r.team === 'support')).toBe(true);
      // The URL as fetch sends it (Python's urllib would send the space as written, or refuse it).
      expect(received.map((r) => r.target)).toEqual(Array(3).fill('/hook?q=%22x%20y%22&r=%C3%A9'));
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  }, 120_000);

  it('follows no redirect, in the engine and both programs: the step fails the same way and nothing reaches the other origin', async () => {
    const reachedElsewhere: string[] = [];
    const elsewhere = createServer((req, res) => {
      reachedElsewhere.push(req.url ?? '');
      res.writeHead(200).end('{}');
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    const target = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/hook`;
    let posted = 0;
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        posted++;
        res.writeHead(307, { location: target }).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const parsed = parseChain({
        format: 'seamscope.chain', version: 1, id: 'fixture-webhook-redirect', name: 'Answer, then send it on',
        inputs: [{ name: 'question', schema: { type: 'string' }, example: 'Hello?' }],
        steps: [
          { id: 'answer', kind: 'model', name: 'Answer', config: { bindings: { question: 'inputs.question' }, prompt: '{question}', outputSchema: answerSchema } },
          { id: 'send', kind: 'webhook', name: 'Send', config: { bindings: { value: 'steps.answer' }, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook` } },
        ],
      }, stepRegistry);
      if (!parsed.ok) throw new Error('fixture');
      const inputs = { question: 'Hello?' };
      const [engine, ts, py] = await Promise.all([
        runEngine(parsed.chain, inputs, DEFAULT_SETTINGS, [], 'conformance-redirect'),
        runExported(parsed.chain, 'ts', inputs, DEFAULT_SETTINGS, [], 'conformance-redirect'),
        runExported(parsed.chain, 'py', inputs, DEFAULT_SETTINGS, [], 'conformance-redirect'),
      ]);
      expectSameRun(ts, engine, true, 'TypeScript');
      expectSameRun(py, engine, true, 'Python');
      expect(engine.status).toBe('failed');
      expect(engine.error).toContain(`redirect to ${target}, which is not followed`);
      expect(posted).toBe(3);
      expect(reachedElsewhere).toEqual([]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
      await new Promise((resolve) => elsewhere.close(resolve));
    }
  }, 120_000);
});

describe.concurrent('exported programs conform to the engine', () => {
  it('covers every chain in public/demo/index.json', () => {
    expect(chains.length).toBeGreaterThanOrEqual(index.length);
  });

  it('runs every step kind in the registry somewhere (a new kind must join a conformance chain)', () => {
    const covered = new Set([...chains.map((c) => c.chain), ...synthetic.map((c) => c.chain), ...faultChains.map((c) => c.chain)].flatMap((c) => c.steps.map((s) => s.kind)));
    covered.add('webhook'); // its own test below, with a receiving server
    expect(stepRegistry.all().map((d) => d.kind).filter((k) => !covered.has(k))).toEqual([]);
  });

  for (const { file, chain } of chains) {
    const sequential = callsAreSequential(chain);
    for (const scenario of scenariosFor(file, chain)) {
      it(`${chain.id}: ${scenario.name}`, async () => {
        const settings = { ...DEFAULT_SETTINGS, ...scenario.settings };
        const inputs = await demoInputs(chain);
        const runId = `conformance-${chain.id}`;
        // One run goes through tsx, as the program's header says to run it; the rest run it compiled.
        const tsx = file === chains[0]?.file && scenario === scenariosFor(file, chain)[0];
        const [engine, ts, py] = await Promise.all([
          runEngine(chain, inputs, settings, scenario.replies, runId),
          runExported(chain, 'ts', inputs, settings, scenario.replies, runId, { tsx }),
          runExported(chain, 'py', inputs, settings, scenario.replies, runId),
        ]);
        expect(engine.bodies.length).toBeGreaterThan(0);
        expectShows(engine, scenario);
        expectSameRun(ts, engine, sequential, 'TypeScript');
        expectSameRun(py, engine, sequential, 'Python');
      }, 120_000);
    }
  }
});
