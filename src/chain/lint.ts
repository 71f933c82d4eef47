import { unboundReads } from './unbound.ts';
import type { ModelContract, StepDefinition, StepRegistry } from '../steps/index.ts';
import { contractCards } from './contract-card.ts';
import { chainEdges } from './graph.ts';
import { formatPath } from './parse.ts';
import { parseRef } from './refs.ts';
import { chainSchemaFindings } from './schema-check.ts';
import { parseStep, type ParsedStep } from './parsed-step.ts';
import type { Chain } from './schema.ts';
import { findPlaceholders } from './template.ts';
import { isRecord, propertyOf } from '../files/json-value.ts';

/**
 * Design lint: what a reviewer of a prompt chain would flag before
 * it ever runs. Pure: reads the chain, returns findings with the step they belong to.
 */
export type LintSeverity = 'error' | 'warning' | 'info';

export interface LintFinding {
  code: string;
  severity: LintSeverity;
  message: string;
  stepId?: string;
}

const abstainFlag = /^(insufficient_evidence|abstain|cannot_answer|no_answer|needs_human|escalate)$/;

/** Every array node of a JSON Schema without a maxItems cap, with its path. */
function unboundedArrays(schema: unknown, path = '$'): string[] {
  if (!isRecord(schema)) return [];
  const s = schema;
  const found: string[] = [];
  if ((s.type === 'array' || (Array.isArray(s.type) && s.type.includes('array'))) && typeof s.maxItems !== 'number') found.push(path);
  for (const [name, child] of Object.entries(isRecord(s.properties) ? s.properties : {})) found.push(...unboundedArrays(child, `${path}.${name}`));
  if (s.items) found.push(...unboundedArrays(s.items, `${path}[]`));
  return found;
}

function booleanFlags(schema: unknown): string[] {
  const props = propertyOf(schema, 'properties');
  return Object.entries(isRecord(props) ? props : {}).filter(([name, p]) => propertyOf(p, 'type') === 'boolean' && abstainFlag.test(name)).map(([name]) => name);
}

/**
 * A required binding the step's kind reads by name that nothing is bound to: the step would
 * look up nothing at run time (a router drawn to read `model_2` and branching on undefined).
 */
/**
 * A step that must cover the whole document (a split for a rewrite) reading a ranking
 * (retrieval): a ranking keeps the top few sections and has no notion of coverage, so some
 * clauses would be rewritten never (a rewrite needs a partition, not a ranking).
 */
function partitionFromRanking(name: string, ref: string | undefined, producerOf: (ref: string) => StepDefinition | undefined): string | null {
  const producer = ref === undefined ? undefined : producerOf(ref);
  if (!ref || producer?.coverage?.kind !== 'ranking') return null;
  return `"${name}" reads ${parseRef(ref).name}, a ${producer.title.toLowerCase()} step that keeps only its top-ranked sections: a rewrite of the whole document needs every unit exactly once (a partition, not a ranking), so bind "${name}" to the document itself.`;
}

/** The model contract of a step that calls a model, else null. */
function contractOf(parsed: ParsedStep | undefined): ModelContract | null {
  return parsed?.def.produces.by === 'model' ? parsed.def.produces.contract(parsed.config) : null;
}

/**
 * Design lint. The rules every model call gets live here and ask the
 * step's definition what it produces; a kind's own rules are its definition's `lint`.
 */
export function lintChain(chain: Chain, registry: StepRegistry): LintFinding[] {
  const findings: LintFinding[] = [];
  const add = (f: LintFinding) => findings.push(f);
  const edges = chainEdges(chain, registry);
  const parsedById = new Map<string, ParsedStep>();
  for (const step of chain.steps) {
    const parsed = parseStep(step, registry);
    if (parsed) parsedById.set(step.id, parsed);
  }
  const untrusted = new Set(chain.inputs.filter((i) => i.trust === 'untrusted').map((i) => i.name));
  const producerOf = (ref: string) => {
    const { root, name } = parseRef(ref);
    return root === 'steps' ? parsedById.get(name)?.def : undefined;
  };
  const readsUntrusted = (ref: string) => {
    const { root, name } = parseRef(ref);
    return root === 'inputs' && untrusted.has(name);
  };
  // A step that passes its value through (a gate) is read as what it checked.
  const throughPassing = (ref: string): string => {
    for (let hops = 0; hops < 16; hops++) {
      const { root, name, path } = parseRef(ref);
      const parsed = root === 'steps' ? parsedById.get(name) : undefined;
      const produces = parsed?.def.produces;
      const inner = produces?.by === 'passThrough' ? parsed?.def.bindings(parsed.config)[produces.binding] : undefined;
      if (!inner) return ref;
      ref = [inner, ...path].join('.');
    }
    return ref;
  };
  const consumed = new Set([...parsedById.values()].flatMap(({ def, config }) => [...Object.values(def.bindings(config)), ...(def.consumes?.(config) ?? [])]).map(throughPassing));

  for (const step of chain.steps) {
    const parsed = parsedById.get(step.id);
    if (!parsed) continue;
    const { def, config } = parsed;
    const bindings = def.bindings(config);
    const contract = contractOf(parsed);
    if (contract) {
      const schema = contract.outputSchema;
      if (!schema) add({ code: 'no-output-schema', severity: 'warning', stepId: step.id, message: 'This model step has no output schema: its output is free prose that nothing validates.' });
      for (const path of unboundedArrays(schema)) add({ code: 'unbounded-array', severity: 'warning', stepId: step.id, message: `The array at ${path} has no maxItems: a selection step drifts towards returning most of the document.` });
      // A fan-out's units fail one by one, as data: the step itself does not abort on them.
      if ((def.onFail?.(config) ?? 'abort') === 'abort' && !def.units) add({ code: 'no-failure-path', severity: 'info', stepId: step.id, message: 'No failure path: when retries are spent the run aborts. Consider abstain, escalate or a fallback to the single-call path.' });
      for (const p of findPlaceholders(contract.system)) {
        const ref = bindings[p.binding];
        if (ref && readsUntrusted(ref)) add({ code: 'untrusted-in-system', severity: 'warning', stepId: step.id, message: `The untrusted input "${parseRef(ref).name}" is placed in the system message, where instructions live. Put it in the prompt, where it is framed as data.` });
      }
      for (const flag of booleanFlags(schema)) {
        if (!consumed.has(`steps.${step.id}.${flag}`)) add({ code: 'unconsumed-abstain-flag', severity: 'warning', stepId: step.id, message: `The flag "${flag}" is produced but no router or step reads it: an abstention nobody consumes is an answer anyway.` });
      }
      if (contract.inputBudget > 0 && !contract.truncate) {
        const declared = Object.values(bindings).map((ref) => {
          const { root, name } = parseRef(ref);
          const input = root === 'inputs' ? chain.inputs.find((i) => i.name === name) : undefined;
          const max = input?.schema.maxLength;
          return typeof max === 'number' ? Math.ceil(max / 4) : null;
        });
        const sized = declared.filter((d): d is number => d !== null).reduce((a, b) => a + b, 0);
        const unsized = declared.some((d) => d === null);
        if (unsized || sized > contract.inputBudget) add({ code: 'budget-may-overflow', severity: 'warning', stepId: step.id, message: unsized ? `Some inputs have no declared size, so the prompt can exceed its ${contract.inputBudget}-token budget and there is no truncation policy.` : `At the declared input sizes the prompt can reach ~${sized} tokens, over its ${contract.inputBudget}-token budget, with no truncation policy.` });
      }
    }
    for (const f of def.lint?.({ step, config, chain, producerOf, readsUntrusted }) ?? []) add({ ...f, stepId: step.id });
    const message = def.coverage?.kind === 'partition' ? partitionFromRanking(def.coverage.binding, bindings[def.coverage.binding], (ref) => producerOf(throughPassing(ref))) : null;
    if (message) add({ code: 'partition-from-ranking', severity: 'warning', stepId: step.id, message });
    for (const message of unboundReads(parsed)) add({ code: 'missing-binding', severity: 'error', stepId: step.id, message });
    if (def.terminal && edges.some((e) => e.source === step.id)) {
      // Sending data out (a webhook) before the end is worse than ending early.
      add({ code: 'side-effect-before-end', severity: def.egress ? 'error' : 'warning', stepId: step.id, message: 'A terminal step has steps after it: side effects belong at the end of the chain.' });
    }
  }
  // A schema edited into the chain after import is checked here too (Problems in the app).
  for (const f of chainSchemaFindings(chain, registry)) {
    add({ code: f.severity === 'error' ? 'invalid-schema' : 'format-not-enforced', severity: f.severity === 'error' ? 'error' : 'warning', ...(f.stepId ? { stepId: f.stepId } : {}), message: `${formatPath(f.path)}: ${f.message}` });
  }
  // The four decisions at every handoff (what crosses, its shape, its check, its failure path) into a model call: an unanswered one is a warning.
  for (const card of contractCards(chain, registry)) {
    if (!contractOf(parsedById.get(card.consumer))) continue;
    for (const question of card.unanswered) add({ code: 'boundary-unanswered', severity: 'warning', stepId: card.consumer, message: `${card.producer} → ${card.consumer}: ${question}` });
  }
  const modelSteps = [...parsedById.values()].filter((p) => contractOf(p));
  const hasFallback = [...parsedById.values()].some(({ def, config }) => def.onFail?.(config).startsWith('fallback:'));
  if (modelSteps.length >= 2 && !hasFallback && !chain.meta?.baseline) {
    add({ code: 'no-single-prompt-baseline', severity: 'info', message: 'This chain has no single-prompt baseline to compare against (a fallback step or meta.baseline naming one): a chain can score below the prompt it replaced.' });
  }
  return findings;
}
