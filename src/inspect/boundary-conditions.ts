import { chainEdges, parseRef, parseStep, type Chain, type LintFinding, type ParsedStep } from '../chain/index.ts';
import type { StepRegistry } from '../steps/index.ts';
import { conditionsNeeded, describeCondition, type NeededCondition } from './condition-needs.ts';

/**
 * Which named conditions each handoff must carry, from the chain and its documents alone: for a
 * data edge whose producer reads a source document and whose consumer is asked a question the
 * producer's output must answer, the condition clauses of the document that question turns on.
 * The boundary contract card shows them; the lint of a summarising step names them when its
 * prompt does not ask to keep them.
 */
export interface BoundaryConditions {
  /** The data edge, as the contract card names it (`data:summarise->answer:summary`); behind a gate, the gate's edge to the consumer. */
  edgeId: string;
  /** The step that wrote what the consumer reads: through a gate that passes it on, the step before the gate. */
  producer: string;
  consumer: string;
  /** The consumer's questions: the examples of the inputs it reads that are not documents (plus any given). */
  questions: string[];
  /**
   * The dataset the questions beyond the inputs' examples came from, and how many they are (the
   * dataset the chain is evaluated on: "from dataset “Handbook questions”, 12 questions"); null
   * when there are none.
   */
  fromDataset: { name: string; questions: number } | null;
  conditions: NeededCondition[];
  /** The consumer reads the document itself, so a condition the handoff drops is still within its reach. */
  consumerHoldsSource: boolean;
  /** The producer is a model step told to summarise (or condense, shorten, paraphrase) what it reads. */
  summarises: boolean;
  /** Its prompt asks to keep conditions (exceptions, definitions, qualifications…). */
  asksToKeepConditions: boolean;
}

export interface ConditionOptions {
  /** More questions per input name (a dataset's), beside each input's example. */
  questions?: Readonly<Record<string, readonly string[]>>;
  /** The dataset `questions` came from, by its name (the card and the lint say where the questions came from). */
  datasetName?: string;
}

/** A prompt that asks for a shorter text than it was given. */
const summarisingRe = /\b(?:summar(?:y|ies|is\w*|iz\w*)|condens\w*|compress\w*|abridg\w*|shorten\w*|digest|gist|paraphras\w*|tl;?dr|in brief|briefly|key points|overview)\b/i;
/** An output field that holds such a text. */
const summaryFieldRe = /^(?:summary|summaries|digest|gist|abstract|overview|brief|key_points|tldr)$/i;
/** A prompt that asks for the conditions to be kept: "preserve every … named condition", "keep exceptions and definitions". */
const keepConditionsRe = /\b(?:preserv\w*|keep\w*|retain\w*|includ\w*|quot\w*|copy|cop(?:y|ies)|state|stating|list|mention|never (?:drop|omit|leave out))\b[^.\n]{0,80}?\b(?:conditions?|exceptions?|qualifications?|qualifiers?|caveats?|definitions?|prerequisites?|exclusions?|limitations?|restrictions?|provisos?|unless)\b/i;

export function asksToKeepConditions(text: string): boolean {
  return keepConditionsRe.test(text);
}

function inputsRead(parsed: ParsedStep): string[] {
  return Object.values(parsed.def.bindings(parsed.config)).map(parseRef).filter((r) => r.root === 'inputs').map((r) => r.name);
}

function modelInstructions(parsed: ParsedStep): string | null {
  if (parsed.def.produces.by !== 'model') return null;
  const contract = parsed.def.produces.contract(parsed.config);
  return `${contract.system}\n${contract.prompt}`;
}

function summarises(parsed: ParsedStep, instructions: string): boolean {
  if (summarisingRe.test(instructions)) return true;
  if (parsed.def.produces.by !== 'model') return false;
  const properties = parsed.def.produces.contract(parsed.config).outputSchema?.properties;
  return typeof properties === 'object' && properties !== null && Object.keys(properties).some((k) => summaryFieldRe.test(k));
}

/**
 * The conditions each data edge must carry. `documents` maps input names to their texts (a
 * chain's `meta.inputFiles`, loaded); an edge whose producer reads none of them, or whose
 * consumer has no question, needs nothing and is left out.
 *
 * @example
 * boundaryConditions(chain, stepRegistry, { document: handbook })
 * // → [{ edgeId: 'data:summarise->answer:summary', conditions: [{ text: "where a delay could seriously harm the member's health", … }], … }]
 */
export function boundaryConditions(chain: Chain, registry: StepRegistry, documents: Readonly<Record<string, string>>, opts: ConditionOptions = {}): BoundaryConditions[] {
  const parsed = new Map<string, ParsedStep>();
  for (const step of chain.steps) {
    const p = parseStep(step, registry);
    if (p) parsed.set(step.id, p);
  }
  const isDocument = (name: string) => Object.hasOwn(documents, name) && typeof documents[name] === 'string';
  const exampleOf = (name: string): string[] => {
    const input = chain.inputs.find((i) => i.name === name);
    return typeof input?.example === 'string' && input.example.trim() ? [input.example] : [];
  };
  const givenFor = (name: string): readonly string[] => (opts.questions && Object.hasOwn(opts.questions, name) ? (opts.questions[name] ?? []) : []).filter((q) => typeof q === 'string' && q.trim() !== '');
  // A step that passes a value through (a gate checking the summary) is no producer of its own:
  // what its consumer reads is what the step before it wrote. Followed back to that step.
  const writer = (id: string): string => {
    let at = id;
    for (let hops = 0; hops < parsed.size; hops++) {
      const step = parsed.get(at);
      if (step?.def.produces.by !== 'passThrough') return at;
      const ref = step.def.bindings(step.config)[step.def.produces.binding];
      const from = ref === undefined ? null : parseRef(ref);
      if (from?.root !== 'steps' || !parsed.has(from.name)) return at;
      at = from.name;
    }
    return at;
  };
  const out: BoundaryConditions[] = [];
  for (const edge of chainEdges(chain, registry)) {
    const producerId = edge.kind === 'data' ? writer(edge.source) : edge.source;
    const producer = parsed.get(producerId);
    const consumer = parsed.get(edge.target);
    if (edge.kind !== 'data' || !producer || !consumer || consumer.def.produces.by === 'passThrough') continue;
    const sources = inputsRead(producer).filter(isDocument);
    if (sources.length === 0) continue;
    const consumerInputs = inputsRead(consumer);
    const asked = consumerInputs.filter((n) => !isDocument(n));
    const examples = new Set(asked.flatMap(exampleOf));
    const given = [...new Set(asked.flatMap(givenFor))].filter((q) => !examples.has(q));
    const questions = [...examples, ...given];
    if (questions.length === 0) continue;
    const conditions = conditionsNeeded(sources.map((name) => ({ name, text: documents[name] as string })), questions);
    const instructions = modelInstructions(producer);
    out.push({
      edgeId: edge.id, producer: producerId, consumer: edge.target, questions, conditions,
      fromDataset: given.length > 0 ? { name: opts.datasetName ?? 'unnamed', questions: given.length } : null,
      consumerHoldsSource: consumerInputs.some((n) => sources.includes(n)),
      summarises: instructions !== null && summarises(producer, instructions),
      asksToKeepConditions: instructions !== null && asksToKeepConditions(instructions),
    });
  }
  return out;
}

const MAX_NAMED = 3;

/**
 * The lint of a summarising step: it hands a summary to a step whose question turns on named
 * conditions of the document, and its prompt does not ask to keep them. A summary that keeps
 * every number and drops "unless…" or "where…" reads well and answers wrong.
 */
export function conditionLint(chain: Chain, registry: StepRegistry, documents: Readonly<Record<string, string>>, opts: ConditionOptions = {}): LintFinding[] {
  return boundaryConditions(chain, registry, documents, opts)
    .filter((b) => b.summarises && !b.asksToKeepConditions && !b.consumerHoldsSource && b.conditions.length > 0)
    .map((b) => {
      const named = b.conditions.slice(0, MAX_NAMED).map(describeCondition).join('; ');
      const more = b.conditions.length > MAX_NAMED ? ` and ${b.conditions.length - MAX_NAMED} more` : '';
      const from = b.fromDataset ? ` (${b.fromDataset.questions === b.questions.length ? 'all' : b.fromDataset.questions} from dataset “${b.fromDataset.name}”)` : '';
      const asked = b.questions.length === 1 ? `is asked “${b.questions[0]}”${from}` : `is asked ${b.questions.length} questions${from}`;
      const count = b.conditions.length === 1 ? 'a condition' : `${b.conditions.length} conditions`;
      return {
        code: 'summary-drops-conditions', severity: 'warning', stepId: b.producer,
        message: `Step "${b.consumer}" ${asked}, which turn${b.questions.length === 1 ? 's' : ''} on ${count} in the document: ${named}${more}. ` +
          `This summary is not told to keep conditions, and "${b.consumer}" never sees the document: a summary that drops one still reads well, and the answer comes out wrong. ` +
          'Ask it to keep every exception, condition and definition in its own words.',
      };
    });
}
