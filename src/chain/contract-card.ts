import type { StepRegistry } from '../steps/index.ts';
import { chainEdges, type ChainEdge } from './graph.ts';
import { parseRef } from './refs.ts';
import { parseStep, type ParsedStep } from './parsed-step.ts';
import type { Chain, StepDef } from './schema.ts';
import { isRecord, propertyOf } from '../files/json-value.ts';

/**
 * The boundary contract card (the four decisions at every handoff: what crosses, its shape, its check, its failure path), derived from the
 * chain for one data edge: what the intermediate carries, whether it is validated and by what,
 * whether the consumer also holds the source, and what happens when it arrives wrong.
 */
export interface ContractCard {
  edgeId: string;
  producer: string;
  consumer: string;
  carries: { kind: 'typed' | 'prose' | 'code'; fields: string[]; provenance: string[]; summary: string };
  validated: { by: string[]; summary: string };
  consumerHoldsSource: { holds: boolean; sources: string[]; summary: string };
  whenWrong: { policy: string; summary: string };
  /** The decisions the chain leaves unanswered (each one is also a lint warning). */
  unanswered: string[];
}

const provenanceField = /^(section_ids?|sections?|quote|quotes|citations?|source_ids?|chunk_ids?|clause_ids?|evidence|line|page)$/;

function fieldNames(schema: unknown, prefix = ''): string[] {
  const properties = propertyOf(schema, 'properties');
  if (!isRecord(schema) || !isRecord(properties)) return [];
  const out: string[] = [];
  for (const [name, child] of Object.entries(properties)) {
    out.push(`${prefix}${name}`);
    out.push(...fieldNames(child, `${prefix}${name}.`));
    const items = propertyOf(child, 'items');
    if (items) out.push(...fieldNames(items, `${prefix}${name}[].`));
  }
  return out;
}

function inputsRead(parsed: ParsedStep | null): string[] {
  if (!parsed) return [];
  return Object.values(parsed.def.bindings(parsed.config)).map(parseRef).filter((r) => r.root === 'inputs').map((r) => r.name);
}

/**
 * What every card of one chain needs, derived once: each step parsed by its kind, and, per
 * producer, the checks that read it. Building this per card made contractCards() quadratic
 * (~12 s at 1,000 steps).
 */
export interface ContractIndex {
  edges: ChainEdge[];
  byId: Map<string, StepDef>;
  parsed: Map<string, ParsedStep | null>;
  checksReading: Map<string, ParsedStep[]>;
}

export function contractIndex(chain: Chain, registry: StepRegistry): ContractIndex {
  const edges = chainEdges(chain, registry);
  const byId = new Map(chain.steps.map((s) => [s.id, s]));
  const parsed = new Map(chain.steps.map((s) => [s.id, parseStep(s, registry)]));
  const checksReading = new Map<string, ParsedStep[]>();
  for (const e of edges) {
    const target = parsed.get(e.target);
    if (e.kind !== 'data' || !target?.def.checks) continue;
    const list = checksReading.get(e.source) ?? [];
    list.push(target);
    checksReading.set(e.source, list);
  }
  return { edges, byId, parsed, checksReading };
}

/** How a check names itself on a card: `gate "quotes" (quoteContainment)`. */
function checkLabel(check: ParsedStep): string {
  return `${check.kind} "${check.step.name || check.id}" (${check.def.checks?.(check.config) ?? 'check'})`;
}

export function contractCard(chain: Chain, edge: ChainEdge, registry: StepRegistry, index: ContractIndex = contractIndex(chain, registry)): ContractCard {
  const producerStep = index.byId.get(edge.source);
  const consumerStep = index.byId.get(edge.target);
  if (!producerStep || !consumerStep) throw new Error(`the edge ${edge.id} joins steps the chain does not have`);
  const producer = index.parsed.get(edge.source) ?? null;
  const consumer = index.parsed.get(edge.target) ?? null;
  const def = producer?.def ?? registry.get(producerStep.kind);
  const schema = producer ? producer.def.outputSchema(producer.config) : def?.outputSchema(def.defaults());
  const fields = fieldNames(schema);
  const provenance = fields.filter((f) => provenanceField.test(f.split(/[.[\]]+/).filter(Boolean).pop() ?? ''));
  const isModel = def?.produces.by === 'model';
  const contract = producer?.def.produces.by === 'model' ? producer.def.produces.contract(producer.config) : null;
  const carries: ContractCard['carries'] = !isModel
    ? { kind: 'code', fields, provenance, summary: `Computed in code by a ${producerStep.kind} step.` }
    : schema
      ? { kind: 'typed', fields, provenance, summary: provenance.length ? `Typed fields with provenance (${provenance.join(', ')}).` : `Typed fields (${fields.slice(0, 6).join(', ') || 'none declared'}) without provenance.` }
      : { kind: 'prose', fields: [], provenance: [], summary: 'Free prose of unspecified length.' };

  const validators: string[] = [];
  const retries = contract?.retries ?? 1;
  if (isModel && schema) validators.push(`JSON Schema, with ${retries} retr${retries === 1 ? 'y' : 'ies'} on failure`);
  if (consumer?.def.checks) validators.push(checkLabel(consumer));
  for (const check of index.checksReading.get(producerStep.id) ?? []) {
    if (check.id !== consumerStep.id) validators.push(checkLabel(check));
  }
  const validated = { by: validators, summary: validators.length ? `Validated by ${validators.join('; ')}.` : 'Not validated: whatever comes back is passed on.' };

  const producerSources = inputsRead(producer);
  const consumerSources = inputsRead(consumer);
  const shared = producerSources.filter((s) => consumerSources.includes(s));
  const consumerHoldsSource = {
    holds: shared.length > 0, sources: shared,
    summary: shared.length ? `Yes: ${consumerStep.id} also reads ${shared.map((s) => `inputs.${s}`).join(', ')}.` : producerSources.length ? `No: ${consumerStep.id} never sees ${producerSources.map((s) => `inputs.${s}`).join(', ')}.` : 'There is no source document upstream.',
  };

  const policy = (producer && producer.def.onFail?.(producer.config)) ?? (isModel ? 'abort' : 'n/a');
  const whenWrong = {
    policy,
    summary: policy === 'abort' ? 'Undefined for the consumer: the run aborts.' : policy === 'n/a' ? 'Computed in code; failures stop the run.' : policy.startsWith('fallback:') ? `Falls back to ${policy.slice(9)}.` : `The run ${policy === 'abstain' ? 'abstains and says why' : 'escalates to a person'}.`,
  };

  const unanswered: string[] = [];
  if (carries.kind === 'prose') unanswered.push('What the intermediate carries is unspecified (no output schema).');
  if (isModel && validators.length === 0) unanswered.push('The intermediate is not validated.');
  if (isModel && !consumerHoldsSource.holds && producerSources.length > 0 && carries.provenance.length === 0) unanswered.push('The consumer cannot check the intermediate against the source: it neither holds the source nor gets provenance.');
  if (isModel && policy === 'abort') unanswered.push('No defined behaviour when the intermediate arrives wrong (abstain, escalate or fall back).');
  return { edgeId: edge.id, producer: producerStep.id, consumer: consumerStep.id, carries, validated, consumerHoldsSource, whenWrong, unanswered };
}

/** Cards for every data edge, in time linear in the chain. */
export function contractCards(chain: Chain, registry: StepRegistry): ContractCard[] {
  const index = contractIndex(chain, registry);
  return index.edges.filter((e) => e.kind === 'data').map((e) => contractCard(chain, e, registry, index));
}
