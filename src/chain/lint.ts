import type { StepRegistry } from '../steps/index.ts';
import { contractCards } from './contract-card.ts';
import { chainEdges } from './graph.ts';
import { formatPath } from './parse.ts';
import { parseRef } from './refs.ts';
import { chainSchemaFindings } from './schema-check.ts';
import type { Chain, StepDef } from './schema.ts';
import { findPlaceholders } from './template.ts';

/**
 * Design lint from the source articles: what a reviewer of a prompt chain would flag before
 * it ever runs. Pure: reads the chain, returns findings with the step they belong to.
 */
export type LintSeverity = 'error' | 'warning' | 'info';

export interface LintFinding {
  code: string;
  severity: LintSeverity;
  message: string;
  stepId?: string;
}

const modelKinds = new Set(['model', 'map', 'reduce']);
const abstainFlag = /^(insufficient_evidence|abstain|cannot_answer|no_answer|needs_human|escalate)$/;

function config(step: StepDef): Record<string, unknown> {
  return step.config as Record<string, unknown>;
}

/** Every array node of a JSON Schema without a maxItems cap, with its path. */
function unboundedArrays(schema: unknown, path = '$'): string[] {
  if (!schema || typeof schema !== 'object') return [];
  const s = schema as Record<string, unknown>;
  const found: string[] = [];
  if ((s.type === 'array' || (Array.isArray(s.type) && s.type.includes('array'))) && typeof s.maxItems !== 'number') found.push(path);
  for (const [name, child] of Object.entries((s.properties as Record<string, unknown>) ?? {})) found.push(...unboundedArrays(child, `${path}.${name}`));
  if (s.items) found.push(...unboundedArrays(s.items, `${path}[]`));
  return found;
}

function booleanFlags(schema: unknown): string[] {
  const props = (schema as { properties?: Record<string, { type?: unknown }> } | null)?.properties ?? {};
  return Object.entries(props).filter(([name, p]) => p?.type === 'boolean' && abstainFlag.test(name)).map(([name]) => name);
}

/**
 * A required binding the step's kind reads by name that nothing is bound to: the step would
 * look up nothing at run time (a router drawn to read `model_2` and branching on undefined).
 */
function missingBindings(step: StepDef, registry: StepRegistry): string[] {
  const def = registry.get(step.kind);
  const parsed = def?.config.safeParse(step.config);
  if (!def?.expectedBindings || !parsed?.success) return [];
  const bound = def.bindings(parsed.data);
  return def.expectedBindings(parsed.data)
    .filter((b) => b.required && !Object.hasOwn(bound, b.name))
    .map((b) => `${def.title} reads "${b.name}" but nothing is bound to it: connect ${b.connect}`);
}

export function lintChain(chain: Chain, registry: StepRegistry): LintFinding[] {
  const findings: LintFinding[] = [];
  const add = (f: LintFinding) => findings.push(f);
  const edges = chainEdges(chain, registry);
  const byId = new Map(chain.steps.map((s) => [s.id, s]));
  const untrusted = new Set(chain.inputs.filter((i) => i.trust === 'untrusted').map((i) => i.name));
  const allRefs = chain.steps.flatMap((s) => Object.values((config(s).bindings as Record<string, string>) ?? {}));
  // A gate passes its value through, so reading a gate is reading what it checked.
  const throughGates = (ref: string): string => {
    for (let hops = 0; hops < 16; hops++) {
      const { root, name, path } = parseRef(ref);
      const step = root === 'steps' ? byId.get(name) : undefined;
      const inner = step?.kind === 'gate' ? (config(step).bindings as Record<string, string> | undefined)?.value : undefined;
      if (!inner) return ref;
      ref = [inner, ...path].join('.');
    }
    return ref;
  };
  const routedFields = new Set(chain.steps.filter((s) => s.kind === 'router').map((s) => {
    const value = (config(s).bindings as Record<string, string> | undefined)?.value;
    return value ? `${throughGates(value)}.${String(config(s).field ?? '')}` : '';
  }));

  for (const step of chain.steps) {
    const cfg = config(step);
    const bindings = (cfg.bindings as Record<string, string>) ?? {};
    const schema = cfg.outputSchema;
    if (modelKinds.has(step.kind)) {
      if (!schema) add({ code: 'no-output-schema', severity: 'warning', stepId: step.id, message: 'This model step has no output schema: its output is free prose that nothing validates.' });
      for (const path of unboundedArrays(schema)) add({ code: 'unbounded-array', severity: 'warning', stepId: step.id, message: `The array at ${path} has no maxItems: a selection step drifts towards returning most of the document.` });
      if (cfg.onFail === 'abort' && step.kind !== 'map') add({ code: 'no-failure-path', severity: 'info', stepId: step.id, message: 'No failure path: when retries are spent the run aborts. Consider abstain, escalate or a fallback to the single-call path.' });
      const system = typeof cfg.system === 'string' ? cfg.system : '';
      for (const p of findPlaceholders(system)) {
        const ref = bindings[p.binding];
        if (ref && parseRef(ref).root === 'inputs' && untrusted.has(parseRef(ref).name)) add({ code: 'untrusted-in-system', severity: 'warning', stepId: step.id, message: `The untrusted input "${parseRef(ref).name}" is placed in the system message, where instructions live. Put it in the prompt, where it is framed as data.` });
      }
      for (const flag of booleanFlags(schema)) {
        const consumed = routedFields.has(`steps.${step.id}.${flag}`) || allRefs.some((r) => throughGates(r) === `steps.${step.id}.${flag}`);
        if (!consumed) add({ code: 'unconsumed-abstain-flag', severity: 'warning', stepId: step.id, message: `The flag "${flag}" is produced but no router or step reads it: an abstention nobody consumes is an answer anyway.` });
      }
      if (typeof cfg.inputBudget === 'number' && cfg.inputBudget > 0 && !cfg.truncate) {
        const declared = Object.values(bindings).map((ref) => {
          const { root, name } = parseRef(ref);
          const input = root === 'inputs' ? chain.inputs.find((i) => i.name === name) : undefined;
          const max = (input?.schema as { maxLength?: unknown } | undefined)?.maxLength;
          return typeof max === 'number' ? Math.ceil(max / 4) : null;
        });
        const sized = declared.filter((d): d is number => d !== null).reduce((a, b) => a + b, 0);
        const unsized = declared.some((d) => d === null);
        if (unsized || sized > cfg.inputBudget) add({ code: 'budget-may-overflow', severity: 'warning', stepId: step.id, message: unsized ? `Some inputs have no declared size, so the prompt can exceed its ${cfg.inputBudget}-token budget and there is no truncation policy.` : `At the declared input sizes the prompt can reach ~${sized} tokens, over its ${cfg.inputBudget}-token budget, with no truncation policy.` });
      }
    }
    if (step.kind === 'reduce') {
      const source = bindings.collection ? parseRef(bindings.collection) : null;
      const producer = source?.root === 'steps' ? byId.get(source.name) : undefined;
      if (!producer || producer.kind !== 'map' || (source?.path.length ?? 0) > 0) add({ code: 'reduce-reads-raw-units', severity: 'error', stepId: step.id, message: 'The integration step must read a map step’s typed collection (bind "collection" to steps.<map>), never the raw units.' });
    }
    if (step.kind === 'model') {
      for (const ref of Object.values(bindings)) {
        const { root, name } = parseRef(ref);
        if (root === 'steps' && byId.get(name)?.kind === 'map') add({ code: 'map-read-without-reduce', severity: 'warning', stepId: step.id, message: `This step reads the map "${name}" directly; a reduce step integrates only the ok units and names the failed ones.` });
      }
    }
    if (step.kind === 'router') {
      const value = bindings.value ? parseRef(bindings.value) : null;
      if (value?.root === 'inputs' && untrusted.has(value.name)) add({ code: 'route-on-untrusted-text', severity: 'error', stepId: step.id, message: 'This router branches on untrusted input directly: control flow must change only through a schema field a model step produced.' });
    }
    const def = registry.get(step.kind);
    for (const message of missingBindings(step, registry)) add({ code: 'missing-binding', severity: 'error', stepId: step.id, message });
    if (def?.terminal && edges.some((e) => e.source === step.id)) {
      add({ code: 'side-effect-before-end', severity: step.kind === 'webhook' ? 'error' : 'warning', stepId: step.id, message: 'A terminal step has steps after it: side effects belong at the end of the chain.' });
    }
  }
  // A schema edited into the chain after import is checked here too (Problems in the app).
  for (const f of chainSchemaFindings(chain, registry)) {
    add({ code: f.severity === 'error' ? 'invalid-schema' : 'format-not-enforced', severity: f.severity === 'error' ? 'error' : 'warning', ...(f.stepId ? { stepId: f.stepId } : {}), message: `${formatPath(f.path)}: ${f.message}` });
  }
  // Seed 000's four decisions at every handoff between model steps: an unanswered one is a warning.
  for (const card of contractCards(chain, registry)) {
    const consumer = byId.get(card.consumer);
    if (!consumer || !modelKinds.has(consumer.kind)) continue;
    for (const question of card.unanswered) add({ code: 'boundary-unanswered', severity: 'warning', stepId: card.consumer, message: `${card.producer} → ${card.consumer}: ${question}` });
  }
  const modelSteps = chain.steps.filter((s) => modelKinds.has(s.kind));
  const hasFallback = chain.steps.some((s) => String(config(s).onFail ?? '').startsWith('fallback:'));
  if (modelSteps.length >= 2 && !hasFallback && !chain.meta?.baseline) {
    add({ code: 'no-single-prompt-baseline', severity: 'info', message: 'This chain has no single-prompt baseline to compare against (a fallback step or meta.baseline naming one): a chain can score below the prompt it replaced.' });
  }
  return findings;
}
