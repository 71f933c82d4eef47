import type { BranchChoice, StepRegistry } from '../steps/index.ts';
import { isRecord } from '../files/json-value.ts';
import { bindAfterBranch } from './edit.ts';
import { parseStep, type ParsedStep } from './parsed-step.ts';
import { parseRef } from './refs.ts';
import type { Chain, Ref } from './schema.ts';

/**
 * Branch edges as a person draws them: a branch from a router-like step (one whose kind has
 * `labelledBranches`) exists only with a label the person chose, or as an explicit "otherwise";
 * the step a branch leads to reads the value the branch carries unless the person bound
 * another. Kinds are never named: the registry's `labelledBranches` says what a branch is.
 */

/** What the label prompt of a new branch offers: the values the label's schema allows, and what is taken. */
export interface BranchLabelOptions {
  /** Where the label is read, for the prompt's caption (`steps.classify.intent`); null when nothing is bound. */
  readsFrom: string | null;
  /** The values the schema at the label allows (its enum, const or boolean), in schema order; empty when it names none. */
  values: unknown[];
  /** Whether the label's schema allows a string, so typed text stays text. */
  allowsText: boolean;
  /** Label values other routes already branch on. */
  taken: unknown[];
  /** The step the otherwise branch goes to now, or null. */
  otherwise: string | null;
}

function labelled(chain: Chain, stepId: string, registry: StepRegistry) {
  const step = chain.steps.find((s) => s.id === stepId);
  const parsed = step ? parseStep(step, registry) : null;
  const branches = parsed?.def.labelledBranches;
  return parsed && branches ? { parsed, branches } : null;
}

/** Whether an edge drawn from the step is a labelled branch (so the canvas asks for its label first). */
export function drawsLabelledBranches(chain: Chain, stepId: string, registry: StepRegistry): boolean {
  return labelled(chain, stepId, registry) !== null;
}

function typesOf(schema: Record<string, unknown>): string[] {
  const t = schema.type;
  return typeof t === 'string' ? [t] : Array.isArray(t) ? t.filter((x): x is string => typeof x === 'string') : [];
}

/** One level down a JSON Schema: a property, or the items of an array for a numeric or `[*]` step. */
function childSchema(schema: Record<string, unknown>, key: string): Record<string, unknown> | null {
  const props = schema.properties;
  if (isRecord(props) && isRecord(props[key])) return props[key];
  const items = schema.items;
  if (isRecord(items) && (/^\d+$/.test(key) || key === '[*]' || key === '*')) return items;
  for (const alt of [schema.anyOf, schema.oneOf].flat()) {
    const found = isRecord(alt) ? childSchema(alt, key) : null;
    if (found) return found;
  }
  return null;
}

function schemaOfStep(parsed: ParsedStep, chain: Chain, registry: StepRegistry, seen: Set<string>): Record<string, unknown> | null {
  const { produces } = parsed.def;
  // A pass-through (a gate) hands on what it reads: its schema is its reading's.
  if (produces.by === 'passThrough') {
    const ref = parsed.def.bindings(parsed.config)[produces.binding];
    return ref ? schemaAtRef(chain, ref, registry, seen) : null;
  }
  return parsed.def.outputSchema(parsed.config);
}

/** The JSON Schema of what a ref reads, as the chain declares it; null when nothing says. */
export function schemaAtRef(chain: Chain, ref: Ref, registry: StepRegistry, seen: Set<string> = new Set()): Record<string, unknown> | null {
  let parsedRef;
  try {
    parsedRef = parseRef(ref);
  } catch {
    return null;
  }
  const { root, name, path } = parsedRef;
  if (seen.has(`${root}.${name}`)) return null;
  seen.add(`${root}.${name}`);
  let schema: Record<string, unknown> | null;
  if (root === 'inputs') schema = chain.inputs.find((i) => i.name === name)?.schema ?? null;
  else {
    const step = chain.steps.find((s) => s.id === name);
    const parsed = step ? parseStep(step, registry) : null;
    schema = parsed ? schemaOfStep(parsed, chain, registry, seen) : null;
  }
  for (const key of path) schema = schema ? childSchema(schema, key) : null;
  return schema && isRecord(schema) ? schema : null;
}

/** The values a schema allows when it lists them: enum, const, a union of those, or a boolean. */
export function allowedValues(schema: Record<string, unknown> | null): unknown[] {
  if (!schema) return [];
  if (Array.isArray(schema.enum)) return schema.enum.filter((v) => v === null || typeof v !== 'object');
  if ('const' in schema) return [schema.const];
  const alts = [schema.anyOf, schema.oneOf].flat().filter(isRecord);
  if (alts.length) return [...new Set(alts.flatMap((alt) => allowedValues(alt)))];
  return typesOf(schema).includes('boolean') ? [true, false] : [];
}

/** What the label prompt offers for a new branch from `sourceId`; null when its edges are not labelled branches. */
export function branchLabelOptions(chain: Chain, sourceId: string, registry: StepRegistry): BranchLabelOptions | null {
  const found = labelled(chain, sourceId, registry);
  if (!found) return null;
  const { parsed, branches } = found;
  const source = branches.labelSource(parsed.config);
  const readsFrom = source ? [source.ref, ...source.field.split('.').filter(Boolean)].join('.') : null;
  const schema = readsFrom ? schemaAtRef(chain, readsFrom, registry) : null;
  const taken = branches.taken(parsed.config);
  const types = schema ? typesOf(schema) : [];
  return { readsFrom, values: allowedValues(schema), allowsText: types.length === 0 || types.includes('string'), taken: taken.labels, otherwise: taken.otherwise };
}

/** A value shown as a person types it: strings as they are, others as JSON. */
export function labelText(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
}

/**
 * The label value typed text stands for: an allowed value it spells, else text when the schema
 * allows text, else a JSON scalar it parses as (a number, true/false), else the text itself.
 */
export function parseBranchLabel(text: string, options: Pick<BranchLabelOptions, 'values' | 'allowsText'>): unknown {
  const trimmed = text.trim();
  const known = options.values.find((v) => labelText(v) === trimmed);
  if (known !== undefined) return known;
  if (options.allowsText) return trimmed;
  try {
    const parsed: unknown = JSON.parse(trimmed);
    return parsed === null || typeof parsed !== 'object' ? parsed : trimmed;
  } catch {
    return trimmed;
  }
}

/** Why a branch on `choice` cannot be drawn, in words; null when it can. */
export function branchChoiceProblem(options: BranchLabelOptions, choice: BranchChoice): string | null {
  if (choice.kind === 'otherwise') return null;
  const { equals } = choice;
  if (equals === undefined || equals === null || (typeof equals === 'string' && equals.trim() === '')) return 'Type the label this branch is taken on, or choose otherwise.';
  if (options.taken.some((v) => JSON.stringify(v) === JSON.stringify(equals))) return `"${labelText(equals)}" already has a route.`;
  // The schema lists every label the step can produce: a route on another would never be taken.
  if (options.values.length && !options.values.some((v) => JSON.stringify(v) === JSON.stringify(equals))) {
    return `"${labelText(equals)}" is not a value ${options.readsFrom ?? 'the label'} can take: choose ${options.values.map(labelText).join(', ')} or otherwise.`;
  }
  return null;
}

/**
 * Draws a branch from `sourceId` to `targetId` on the chosen label (or as "otherwise"), and the
 * target reads the value the branch carries unless it already reads something there. The same
 * chain back when the source draws no labelled branches or the choice makes none (see
 * branchChoiceProblem).
 *
 * @example
 * chain = connectBranch(chain, 'route', 'billing_reply', { kind: 'label', equals: 'billing' }, stepRegistry);
 * chain = connectBranch(chain, 'route', 'general_reply', { kind: 'otherwise' }, stepRegistry);
 */
export function connectBranch(chain: Chain, sourceId: string, targetId: string, choice: BranchChoice, registry: StepRegistry): Chain {
  const found = labelled(chain, sourceId, registry);
  if (!found || sourceId === targetId || !chain.steps.some((s) => s.id === targetId)) return chain;
  const next = found.branches.add(found.parsed.config, targetId, choice);
  if (next === found.parsed.config || !isRecord(next)) return chain;
  const steps = chain.steps.map((s) => (s.id === sourceId ? { ...s, config: next } : s));
  const carried = found.branches.carries(next);
  const drawn = { ...chain, steps };
  return carried ? bindAfterBranch(drawn, targetId, carried, registry) : drawn;
}

/** A branch that deleting some steps would remove: from a step that stays, into one that goes. */
export interface BranchInto {
  from: string;
  to: string;
  label: string;
}

/** The branches (routes, otherwise, fallbacks) from steps that stay into the steps in `stepIds`. */
export function branchesInto(chain: Chain, stepIds: readonly string[], registry: StepRegistry): BranchInto[] {
  const gone = new Set(stepIds);
  const found: BranchInto[] = [];
  for (const step of chain.steps) {
    if (gone.has(step.id)) continue;
    const parsed = parseStep(step, registry);
    if (!parsed) continue;
    for (const b of parsed.def.branches(parsed.config)) if (gone.has(b.to)) found.push({ from: step.id, to: b.to, label: b.label });
  }
  return found;
}
