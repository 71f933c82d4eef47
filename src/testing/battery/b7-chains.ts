import { parseChain } from '../../chain/parse.ts';
import type { Chain } from '../../chain/schema.ts';
import { findPlaceholders } from '../../chain/template.ts';
import type { MockReply } from '../mock-server.ts';
import { stepRegistry } from '../../steps/index.ts';

/**
 * The chains of battery B7: one shape, every place a chain holds text filled from the
 * adversarial strings. A place that takes free text gets the string as it is (clipped to the
 * place's declared maximum); a place the schema constrains gets the string made valid the
 * least possible way (a property name with its lone surrogates replaced, a dotted path with
 * its dots replaced, a header value with what HTTP cannot carry replaced; in the webhook URL
 * the string goes raw into the path, the query and the fragment). Step ids, input names, the map's
 * item name and the schema name must be identifiers, so those carry names that are keywords
 * or prototype members in one of the languages (`constructor`, `__proto__`, `None`, `class`…).
 *
 * The shape runs end to end on scripted replies: `ask` (a schema violation, whose feedback
 * names the hostile property, then a valid answer), `each` (a map over two items, one at a
 * time), `sum` (reduce), two gates, a router on the hostile enum value, then a terminal. Chains
 * take four endings in turn (`ending`): the route to the output; the route to the webhook
 * (hostile header value, path and query, posted to the suite's capture server); no route
 * matching, so the router's default abstains with the hostile reason; and the rule gate
 * failing with the hostile message. Every other chain runs with structured output off (the
 * contract, hostile names and descriptions included, goes into the prompt text), and every
 * third streams its first call. The escalate step is a fallback no run takes: its text is
 * compiled and imported only.
 */
export interface Place {
  name: string;
  /** The place's declared maximum length, when it has one. */
  max?: number;
  /** The place may not be empty (the list holds an empty string: whitespace trimmed to nothing); it gets a space instead. */
  nonEmpty?: boolean;
}

/** Every text place the shape fills, in the order the builder draws strings. */
export const B7_PLACES: readonly Place[] = [
  { name: 'chain id', max: 128, nonEmpty: true },
  { name: 'chain name', max: 200, nonEmpty: true },
  { name: 'chain description', max: 8000 },
  { name: 'meta key' },
  { name: 'meta value' },
  { name: 'meta nested value' },
  { name: 'input description', max: 2000 },
  { name: 'input schema description' },
  { name: 'input schema title' },
  { name: 'input schema default' },
  { name: 'input example' },
  { name: 'input enum value' },
  { name: 'input property name' },
  { name: 'input property description' },
  { name: 'input item field name (map unitIdField)', max: 200 },
  { name: 'input item value' },
  { name: 'step name', max: 200 },
  { name: 'step description', max: 4000 },
  { name: 'model system prompt' },
  { name: 'model prompt' },
  { name: 'model name', max: 200 },
  { name: 'model profile name', max: 100 },
  { name: 'output schema description' },
  { name: 'output property name', max: 200 },
  { name: 'output property description' },
  { name: 'output property title' },
  { name: 'output enum value' },
  { name: 'map system prompt' },
  { name: 'map prompt' },
  { name: 'map output description' },
  { name: 'reduce system prompt' },
  { name: 'reduce prompt' },
  { name: 'gate rule literal' },
  { name: 'gate rule message', max: 500, nonEmpty: true },
  { name: 'gate schema description' },
  { name: 'gate schema property name' },
  { name: 'router route label', max: 100 },
  { name: 'router route value (string)' },
  { name: 'router route value (object key)' },
  { name: 'router route value (object value)' },
  { name: 'abstain reason', max: 2000 },
  { name: 'escalate reason', max: 2000 },
  { name: 'webhook header value', max: 500 },
  { name: 'webhook URL path', max: 600 },
  { name: 'webhook URL query', max: 600 },
  { name: 'webhook URL fragment', max: 600 },
  { name: 'scripted reply text' },
];

/** Constrained places: the identifiers each chain draws from, in turn. */
const TRICKY_IDS = ['constructor', '__proto__', 'toString', 'prototype', 'hasOwnProperty', 'valueOf', 'None', 'True', 'class', 'def',
  'lambda', 'await', 'yield', 'self', 'rt', 'CHAIN', 'run', 'print', 'import', 'null', 'undefined', 'NaN', '__init__', 'str'];

/** The steps of the shape, by role; each chain gives them ids from TRICKY_IDS. */
const STEP_ROLES = ['ask', 'each', 'sum', 'rule', 'shape', 'route', 'final', 'refuse', 'human', 'hook'] as const;

export interface FilledPlace {
  place: string;
  /** Index into the string list. */
  index: number;
  /** Whether the whole string went in (not clipped, not made valid). */
  whole: boolean;
}

export const B7_ENDINGS = ['routed', 'webhook', 'unmatched', 'gate failed'] as const;
export type B7Ending = (typeof B7_ENDINGS)[number];

export interface B7Chain {
  chain: Chain;
  ending: B7Ending;
  /** Whether the runs send the contract in the prompt instead of as `response_format`. */
  structuredOutput: boolean;
  inputs: Record<string, unknown>;
  replies: MockReply[];
  filled: FilledPlace[];
}

/** Replaces lone surrogates with U+FFFD: a JSON Schema property name must be well-formed. */
function wellFormed(s: string): string {
  return s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}

/** A header value HTTP can carry as written (headerValueProblem): other characters become `?`, no space at either end. */
function headerValue(s: string): string {
  return s.replace(/[^\t\x20-\x7e\x80-\xff]/g, '?').replace(/^[\t ]+|[\t ]+$/g, '');
}

const clip = (s: string, max: number | undefined) => (max !== undefined && s.length > max ? s.slice(0, max) : s);

/**
 * Chain `k`: place `j` gets string `pick(j)` where the caller decides the order (a bijection
 * per round, so each round places every string once).
 */
export function buildB7Chain(k: number, strings: readonly string[], pick: (placeIndex: number) => number, webhookOrigin = 'http://127.0.0.1:9'): B7Chain {
  const filled: FilledPlace[] = [];
  const ending = B7_ENDINGS[k % B7_ENDINGS.length] as B7Ending;
  const text = (name: string, transform: (s: string) => string = (s) => s): string => {
    const j = B7_PLACES.findIndex((p) => p.name === name);
    const place = B7_PLACES[j];
    if (!place) throw new Error(`unknown place ${name}`);
    const index = pick(j);
    const raw = strings[index] as string;
    const value = transform(clip(raw, place.max)) || (place.nonEmpty ? ' ' : '');
    filled.push({ place: name, index, whole: value === raw });
    return value;
  };
  // Identifiers: names that are keywords or prototype members in one of the languages, in turn.
  const tricky = (i: number) => TRICKY_IDS[(k * 5 + i) % TRICKY_IDS.length] as string;
  const [inQ, inChoice, inRecord, inItems] = [0, 1, 2, 3].map(tricky) as [string, string, string, string];
  const sid = Object.fromEntries(STEP_ROLES.map((role, i) => [role, tricky(i + 4)])) as Record<(typeof STEP_ROLES)[number], string>;
  const itemName = tricky(14);
  const schemaName = tricky(15);
  const stepName = () => text('step name');
  const stepDescription = () => text('step description');

  const chainId = text('chain id');
  const chainName = text('chain name');
  const chainDescription = text('chain description');
  const metaKey = text('meta key');
  const meta = { notes: text('meta value'), [metaKey]: [text('meta nested value'), { deep: metaKey }] };

  const enumValues = [text('input enum value'), `second ${k}`];
  const inPropName = text('input property name', wellFormed);
  const unitField = text('input item field name (map unitIdField)', (s) => wellFormed(s).replace(/\./g, '_'));
  const itemValue = text('input item value');
  const example = text('input example');
  const inputs = [
    {
      name: inQ, description: text('input description'), trust: k % 2 ? 'untrusted' : 'trusted', example,
      schema: { type: 'string', description: text('input schema description'), title: text('input schema title'), default: text('input schema default') },
    },
    { name: inChoice, schema: { enum: enumValues }, example: enumValues[0] },
    {
      name: inRecord, trust: 'untrusted',
      schema: { type: 'object', properties: { [inPropName]: { type: 'string', description: text('input property description') } }, required: [inPropName] },
      example: { [inPropName]: example },
    },
    {
      name: inItems, trust: 'untrusted',
      schema: { type: 'array', items: { type: 'object', properties: { [unitField]: { type: 'string' }, text: { type: 'string' } }, required: [unitField, 'text'] } },
      example: [{ [unitField]: `u1 ${itemValue}`, text: itemValue }, { [unitField]: `u2 ${itemValue}`, text: example }],
    },
  ];

  const outProp = text('output property name', (s) => wellFormed(s).replace(/\./g, '_'));
  // The router's labels: to the output, to the webhook, and one no route takes.
  const outEnum = [text('output enum value'), `other ${k}`, `third ${k}`];
  const answerSchema = {
    type: 'object', description: text('output schema description'),
    properties: {
      answer: { type: 'string', description: text('output property description'), title: text('output property title') },
      [outProp]: { enum: outEnum },
    },
    required: ['answer', outProp], additionalProperties: false,
  };
  const unitSchema = { type: 'object', description: text('map output description'), properties: { summary: { type: 'string' } }, required: ['summary'], additionalProperties: false };

  // Placeholders the hostile text happens to hold (`{x}`, `\N{BULLET}`) are bound too, to the question.
  const bind = (templates: string[], fixed: Record<string, string>): Record<string, string> => {
    const found = findPlaceholders(templates.join('\n')).map((p) => p.binding).filter((b) => /^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(b) && !(b in fixed));
    return { ...Object.fromEntries(found.map((b) => [b, `inputs.${inQ}`])), ...fixed };
  };
  const askSystem = `${text('model system prompt')} {q}`;
  const askPrompt = `${text('model prompt')}\n{q}\n{choice}\n{record}`;
  const mapSystem = text('map system prompt');
  const mapPrompt = `${text('map prompt')} {${itemName}.text} {q}`;
  const sumSystem = text('reduce system prompt');
  const sumPrompt = `${text('reduce prompt')} {collection}`;

  const ruleLiteral = text('gate rule literal');
  const gateProp = text('gate schema property name', wellFormed);
  const routeKey = text('router route value (object key)');
  const steps = [
    {
      id: sid.ask, kind: 'model', name: stepName(), description: stepDescription(),
      config: {
        bindings: bind([askSystem, askPrompt], { q: `inputs.${inQ}`, choice: `inputs.${inChoice}`, record: `inputs.${inRecord}` }),
        system: askSystem, prompt: askPrompt, outputSchema: answerSchema, schemaName, model: text('model name'), profile: text('model profile name'),
        retries: 1, onFail: `fallback:${sid.human}`, stream: k % 3 === 2,
      },
    },
    {
      id: sid.each, kind: 'map', name: stepName(), description: stepDescription(),
      config: {
        bindings: bind([mapSystem, mapPrompt], { items: `inputs.${inItems}`, q: `steps.${sid.ask}.answer` }), itemName, schemaName, unitIdField: unitField, concurrency: 1, retries: 0,
        system: mapSystem, prompt: mapPrompt, outputSchema: unitSchema,
      },
    },
    {
      id: sid.sum, kind: 'reduce', name: stepName(),
      config: { bindings: bind([sumSystem, sumPrompt], { collection: `steps.${sid.each}` }), system: sumSystem, prompt: sumPrompt, outputSchema: answerSchema },
    },
    {
      id: sid.rule, kind: 'gate', name: stepName(),
      config: {
        bindings: { value: `steps.${sid.sum}` },
        check: { type: 'rule', rule: { and: [{ '!=': [{ var: 'value.answer' }, ruleLiteral] }, { '!': { in: [ruleLiteral, ['', `${ruleLiteral}!`]] } }] }, message: text('gate rule message') },
        onFail: 'abstain',
      },
    },
    {
      id: sid.shape, kind: 'gate', name: stepName(),
      config: {
        bindings: { value: `steps.${sid.ask}`, after: `steps.${sid.rule}` },
        check: { type: 'jsonSchema', schema: { type: 'object', description: text('gate schema description'), properties: { [gateProp]: { type: 'string' } }, required: ['answer'] } },
      },
    },
    {
      id: sid.route, kind: 'router', name: stepName(),
      config: {
        bindings: { value: `steps.${sid.ask}`, checked: `steps.${sid.shape}` }, field: outProp,
        routes: [
          { equals: outEnum[0], to: sid.final, label: text('router route label') },
          { equals: outEnum[1], to: sid.hook },
          { equals: text('router route value (string)'), to: sid.refuse },
          { equals: { [routeKey]: [text('router route value (object value)'), 1.5, null, true] }, to: sid.refuse },
        ],
        defaultTo: sid.refuse,
      },
    },
    { id: sid.final, kind: 'output', name: stepName(), config: { bindings: { value: `steps.${sid.sum}` } } },
    { id: sid.refuse, kind: 'abstain', name: stepName(), config: { bindings: { value: `steps.${sid.ask}` }, reason: text('abstain reason') } },
    { id: sid.human, kind: 'escalate', name: stepName(), config: { bindings: { value: `inputs.${inQ}` }, reason: text('escalate reason') } },
    {
      id: sid.hook, kind: 'webhook', name: stepName(),
      config: { bindings: { value: `steps.${sid.sum}` }, url: `${webhookOrigin}/hook/${text('webhook URL path')}?q=${text('webhook URL query')}#${text('webhook URL fragment')}`, headers: { 'x-b7': text('webhook header value', headerValue) } },
    },
  ];
  const raw = { format: 'seamscope.chain', version: 1, id: chainId, name: chainName, description: chainDescription, inputs, steps, meta };
  const parsed = parseChain(raw, stepRegistry);
  if (!parsed.ok) throw new Error(`B7 chain ${k} does not parse: ${parsed.problems.map((p) => `${p.path} ${p.message}`).slice(0, 5).join('; ')}`);

  const replyText = text('scripted reply text');
  // The label the router reads: the route's value, or (unmatched) the enum's other value.
  const valid = { answer: replyText, [outProp]: outEnum[{ routed: 0, webhook: 1, unmatched: 2, 'gate failed': 0 }[ending]] };
  // The rule gate fails when the reduce answers with the rule's own literal.
  const sumAnswer = ending === 'gate failed' ? ruleLiteral : `${replyText} (sum)`;
  const replies: MockReply[] = [
    // A schema violation first: the retry's request carries feedback naming the hostile property.
    { content: { answer: replyText, unexpected: replyText } },
    { content: valid },
    { content: { summary: replyText } },
    { content: { summary: `${replyText}\n2` } },
    { content: { answer: sumAnswer, [outProp]: outEnum[2] } },
  ];
  const runInputs = Object.fromEntries(parsed.chain.inputs.map((i) => [i.name, i.example]));
  return { chain: parsed.chain, ending, structuredOutput: k % 2 === 0, inputs: runInputs, replies, filled };
}
