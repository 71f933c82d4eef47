import type { StepRegistry } from '../steps/index.ts';
import { parseRef } from './refs.ts';
import { remapStepTargets } from './step-targets.ts';
import { findPlaceholders, renamePlaceholders } from './template.ts';
import type { Chain, ChainInput, RunBudget, StepDef } from './schema.ts';
import { isContainer, isRecord } from '../files/json-value.ts';

/**
 * Pure edits of a chain: each takes a chain and returns a new one (or the same object when
 * nothing changed, so callers can skip a re-render or an autosave). The UI store only calls
 * these; nothing here knows about React, the canvas or storage. Step kinds are never named:
 * where an edit needs to know a kind's shape it asks the registry (its `fields`, `bindings`
 * and `branches`).
 */

export interface XY {
  x: number;
  y: number;
}

const identifierPattern = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `base_1`, `base_2`, … — the first one not in `taken`. */
export function freshId(base: string, taken: ReadonlySet<string>): string {
  const stem = identifierPattern.test(base) ? base : 'step';
  for (let n = 1; ; n++) {
    const candidate = `${stem}_${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}

function mapStep(chain: Chain, stepId: string, update: (step: StepDef) => StepDef): Chain {
  let changed = false;
  const steps = chain.steps.map((step) => {
    if (step.id !== stepId) return step;
    const next = update(step);
    if (next !== step) changed = true;
    return next;
  });
  return changed ? { ...chain, steps } : chain;
}

/** The config key of the step's `bindings` field, from the registry; null when it reads nothing. */
export function bindingsKey(step: StepDef, registry: StepRegistry): string | null {
  return registry.get(step.kind)?.fields.find((f) => f.kind === 'bindings')?.key ?? null;
}

function getIn(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const key of path) {
    if (!isContainer(current) || !Object.hasOwn(current, key)) return undefined;
    current = Reflect.get(current, key);
  }
  return current;
}

function writableKey(key: string): string {
  if (key === '__proto__' || key === 'constructor' || key === 'prototype') throw new Error(`Refusing to write the key "${key}"`);
  return key;
}

/** Immutable set along a dotted path; creates plain objects on the way, copies arrays. */
function setIn(value: unknown, path: readonly string[], next: unknown): unknown {
  const [key, ...rest] = path;
  if (key === undefined) return next;
  writableKey(key);
  if (Array.isArray(value)) {
    const copy = [...value];
    copy[Number(key)] = setIn(copy[Number(key)], rest, next);
    return copy;
  }
  return setConfigIn(isRecord(value) ? value : {}, path, next);
}

/** `setIn` on a step config (an object), so the result is one too. */
function setConfigIn(config: Record<string, unknown>, path: readonly string[], next: unknown): Record<string, unknown> {
  const [key, ...rest] = path;
  if (key === undefined) throw new Error('An empty key path');
  return { ...config, [writableKey(key)]: setIn(config[key], rest, next) };
}

/** A config a kind produced (its defaults, a connectTo result): configs are objects. */
function configRecord(value: unknown, kind: string): Record<string, unknown> {
  if (!isRecord(value)) throw new Error(`The step kind "${kind}" made a config that is not an object`);
  return value;
}

function readBindings(step: StepDef, registry: StepRegistry): { key: string; bindings: Record<string, string> } | null {
  const key = bindingsKey(step, registry);
  if (!key) return null;
  const raw = getIn(step.config, key.split('.'));
  const bindings = raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, string>) : {};
  return { key, bindings };
}

function writeBindings(step: StepDef, key: string, bindings: Record<string, string>): StepDef {
  return { ...step, config: setConfigIn(step.config, key.split('.'), bindings) };
}

/** Adds a step of `kind` with the registry's defaults and a fresh id such as `model_2`. */
export function addStep(chain: Chain, kind: string, position: XY, registry: StepRegistry): { chain: Chain; stepId: string } {
  const def = registry.get(kind);
  if (!def) throw new Error(`Unknown step kind "${kind}"`);
  const taken = new Set([...chain.steps.map((s) => s.id), ...chain.inputs.map((i) => i.name)]);
  const stepId = freshId(kind, taken);
  const number = stepId.slice(stepId.lastIndexOf('_') + 1);
  const step: StepDef = {
    id: stepId,
    kind,
    name: `${def.title} ${number}`,
    position: { x: Math.round(position.x), y: Math.round(position.y) },
    config: configRecord(structuredClone(def.defaults()), kind),
  };
  return { chain: { ...chain, steps: [...chain.steps, step] }, stepId };
}

/** Every string leaf in a value, with its path. */
function stringLeaves(value: unknown, path: string[] = [], out: { path: string[]; value: string }[] = []): { path: string[]; value: string }[] {
  if (typeof value === 'string') out.push({ path, value });
  else if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) stringLeaves(child, [...path, key], out);
  }
  return out;
}

function countBranchesTo(registry: StepRegistry, step: StepDef, config: unknown, target: string): number | null {
  const def = registry.get(step.kind);
  const parsed = def?.config.safeParse(config);
  if (!def || !parsed?.success) return null;
  return def.branches(parsed.data).filter((b) => b.to === target).length;
}

/** Removes the path's value: the enclosing array item when there is one, else the key (or null). */
function dropAt(config: Record<string, unknown>, path: string[]): Record<string, unknown>[] {
  const candidates: Record<string, unknown>[] = [];
  // Candidate 1: drop the nearest enclosing array item (a route, a list entry).
  for (let i = path.length - 1; i >= 1; i--) {
    const arrayPath = path.slice(0, i);
    const array = getIn(config, arrayPath);
    if (Array.isArray(array)) {
      const index = Number(path[i]);
      candidates.push(setConfigIn(config, arrayPath, array.filter((_, j) => j !== index)));
      break;
    }
  }
  // Candidate 2: null the value (an optional target such as "otherwise go to").
  candidates.push(setConfigIn(config, path, null));
  // Candidate 3: "fallback:<id>" style policies fall back to the safe default.
  candidates.push(setConfigIn(config, path, 'abort'));
  return candidates;
}

/**
 * Removes the control edges (branches, fallbacks) from `step` to `target`. Kinds are not
 * named: each string in the config that mentions the target is tried out of the way in a few
 * shapes, and a change is kept only if the config still parses and has fewer branches there.
 */
export function removeBranchesTo(step: StepDef, target: string, registry: StepRegistry): StepDef {
  let config = step.config;
  for (let guard = 0; guard < 100; guard++) {
    const before = countBranchesTo(registry, step, config, target);
    if (!before) break;
    const mentions = stringLeaves(config).filter((leaf) => leaf.value === target || leaf.value.endsWith(`:${target}`));
    let improved = false;
    for (const mention of mentions) {
      for (const candidate of dropAt(config, mention.path)) {
        const after = countBranchesTo(registry, step, candidate, target);
        if (after !== null && after < before) {
          config = candidate;
          improved = true;
          break;
        }
      }
      if (improved) break;
    }
    if (!improved) break;
  }
  return config === step.config ? step : { ...step, config };
}

/** Removes a step and every binding and branch that points at it. */
export function removeStep(chain: Chain, stepId: string, registry: StepRegistry): Chain {
  if (!chain.steps.some((s) => s.id === stepId)) return chain;
  const steps = chain.steps
    .filter((s) => s.id !== stepId)
    .map((step) => {
      const read = readBindings(step, registry);
      let next = step;
      if (read) {
        const kept = Object.entries(read.bindings).filter(([, ref]) => !readsStep(ref, stepId));
        if (kept.length !== Object.keys(read.bindings).length) next = writeBindings(step, read.key, Object.fromEntries(kept));
      }
      return removeBranchesTo(next, stepId, registry);
    });
  return { ...chain, steps };
}

function readsStep(ref: string, stepId: string): boolean {
  try {
    const parsed = parseRef(ref);
    return parsed.root === 'steps' && parsed.name === stepId;
  } catch {
    return false;
  }
}

function readsInput(ref: string, name: string): boolean {
  try {
    const parsed = parseRef(ref);
    return parsed.root === 'inputs' && parsed.name === name;
  } catch {
    return false;
  }
}

export function moveStep(chain: Chain, stepId: string, position: XY): Chain {
  return mapStep(chain, stepId, (step) =>
    step.position.x === position.x && step.position.y === position.y ? step : { ...step, position: { x: Math.round(position.x), y: Math.round(position.y) } },
  );
}

/** Moves several steps in one edit (auto layout, a multi-node drag); unchanged when nothing moves. */
export function moveSteps(chain: Chain, positions: ReadonlyMap<string, XY>): Chain {
  let changed = false;
  const steps = chain.steps.map((step) => {
    const to = positions.get(step.id);
    if (!to) return step;
    const x = Math.round(to.x);
    const y = Math.round(to.y);
    if (step.position.x === x && step.position.y === y) return step;
    changed = true;
    return { ...step, position: { x, y } };
  });
  return changed ? { ...chain, steps } : chain;
}

/** Moves input nodes on the canvas (an input placed by hand stays where it was put). */
export function moveInputs(chain: Chain, positions: ReadonlyMap<string, XY>): Chain {
  let changed = false;
  const inputs = chain.inputs.map((input) => {
    const to = positions.get(input.name);
    if (!to) return input;
    const position = { x: Math.round(to.x), y: Math.round(to.y) };
    if (input.position?.x === position.x && input.position.y === position.y) return input;
    changed = true;
    return { ...input, position };
  });
  return changed ? { ...chain, inputs } : chain;
}

/** Changes the display name (not the id, which bindings refer to). */
export function renameStep(chain: Chain, stepId: string, name: string): Chain {
  return mapStep(chain, stepId, (step) => (step.name === name ? step : { ...step, name }));
}

/** Sets one config value by dotted key path, e.g. `prompt` or `check.quotesPath`. */
export function updateStepConfig(chain: Chain, stepId: string, keyPath: string, value: unknown): Chain {
  const path = keyPath.split('.').filter(Boolean);
  if (path.length === 0) throw new Error('An empty key path');
  return mapStep(chain, stepId, (step) =>
    Object.is(getIn(step.config, path), value) ? step : { ...step, config: setConfigIn(step.config, path, value) },
  );
}

/** Sets (or replaces) the binding `name` → `ref` on a step that has a bindings field (a router's branch targets follow, as with connect). */
export function setBinding(chain: Chain, stepId: string, name: string, ref: string, registry: StepRegistry): Chain {
  const next = mapStep(chain, stepId, (step) => {
    const read = readBindings(step, registry);
    if (!read || read.bindings[name] === ref) return step;
    return writeBindings(step, read.key, { ...read.bindings, [name]: ref });
  });
  return next === chain ? chain : bindBranchTargets(next, stepId, registry);
}

export function removeBinding(chain: Chain, stepId: string, name: string, registry: StepRegistry): Chain {
  return mapStep(chain, stepId, (step) => {
    const read = readBindings(step, registry);
    if (!read || !Object.prototype.hasOwnProperty.call(read.bindings, name)) return step;
    const { [name]: _removed, ...rest } = read.bindings;
    return writeBindings(step, read.key, rest);
  });
}

/** Renames a binding, keeping its place in the list. */
/** Renames a binding of one step; the step's template placeholders that read it follow. */
export function renameBinding(chain: Chain, stepId: string, from: string, to: string, registry: StepRegistry): Chain {
  if (from === to) return chain;
  return mapStep(chain, stepId, (step) => renameBindingOf(step, from, to, registry));
}

function renameBindingOf(step: StepDef, from: string, to: string, registry: StepRegistry): StepDef {
  const read = readBindings(step, registry);
  if (!read || !(from in read.bindings) || to in read.bindings) return step;
  let next = writeBindings(step, read.key, Object.fromEntries(Object.entries(read.bindings).map(([k, v]) => [k === from ? to : k, v])));
  for (const field of registry.get(step.kind)?.fields ?? []) {
    if (field.kind !== 'textarea' || !field.template) continue;
    const text = getIn(next.config, field.key.split('.'));
    if (typeof text === 'string') next = { ...next, config: setConfigIn(next.config, field.key.split('.'), renamePlaceholders(text, from, to)) };
  }
  return next;
}

const stepIdPattern = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** Why `to` cannot be the new id of step `from`, in words; null when it can. */
export function stepIdProblem(chain: Chain, from: string, to: string): string | null {
  if (to === from) return null;
  if (!stepIdPattern.test(to)) return 'Letters, digits and _, starting with a letter or _ (at most 64)';
  if (chain.steps.some((s) => s.id === to)) return `Another step is already called "${to}"`;
  if (chain.inputs.some((i) => i.name === to)) return `An input is already called "${to}"`;
  return null;
}

/**
 * Gives a step a new id, and everything that names it follows: `steps.<id>` refs in every
 * step, route targets and fallbacks, and in each reader a binding still named after the old id
 * (as drawing an edge names it) together with the placeholders that read that binding.
 * Unchanged when the new id is not allowed (see stepIdProblem).
 */
export function renameStepId(chain: Chain, from: string, to: string, registry: StepRegistry): Chain {
  if (from === to || !chain.steps.some((s) => s.id === from) || stepIdProblem(chain, from, to)) return chain;
  const ids = new Map([[from, to]]);
  const exists = () => true;
  const steps = chain.steps.map((step) => {
    // Steps that never mention the id keep their identity (caches keyed by config stay warm).
    if (step.id !== from && !JSON.stringify(step.config).includes(from)) return step;
    let next: StepDef = { ...step, id: step.id === from ? to : step.id, config: remapStepTargets(step.config, ids, exists) };
    const read = readBindings(next, registry);
    if (read) {
      const rewired = Object.fromEntries(Object.entries(read.bindings).map(([name, ref]) => [name, readsStep(ref, from) ? ['steps', to, ...parseRef(ref).path].join('.') : ref]));
      next = writeBindings(next, read.key, rewired);
      if (readsStep(read.bindings[from] ?? '', from)) next = renameBindingOf(next, from, to, registry);
    }
    return next;
  });
  return { ...chain, steps };
}

function uniqueName(preferred: string, bindings: Record<string, string>): string {
  let name = preferred;
  for (let n = 2; Object.hasOwn(bindings, name); n++) name = `${preferred}_${n}`;
  return name;
}

/**
 * The name an edge drawn into `target` binds, and the target with any template rename it
 * brings. In turn: the first binding the kind reads by name that is still unbound (a router's
 * `value`); else a template placeholder that names nothing — renamed after the source while it
 * is the kind's own default text (`{text}` → `{ticket}`), kept as typed otherwise, since then
 * the person chose the name; else the source's own name.
 */
function bindingForEdge(target: StepDef, bindings: Record<string, string>, sourceName: string, registry: StepRegistry): { name: string; step: StepDef } {
  const def = registry.get(target.kind);
  const parsed = def?.config.safeParse(target.config);
  if (!def || !parsed?.success) return { name: uniqueName(sourceName, bindings), step: target };
  const open = def.expectedBindings?.(parsed.data).find((b) => !Object.hasOwn(bindings, b.name));
  if (open) return { name: open.name, step: target };
  const known = new Set([...Object.keys(bindings), ...(def.templateNames?.(parsed.data) ?? [])]);
  for (const field of def.fields) {
    if (field.kind !== 'textarea' || !field.template) continue;
    const path = field.key.split('.');
    const text = getIn(target.config, path);
    const dangling = typeof text === 'string' ? findPlaceholders(text).find((p) => !known.has(p.binding)) : undefined;
    if (typeof text !== 'string' || !dangling) continue;
    if (text !== getIn(def.defaults(), path)) return { name: dangling.binding, step: target };
    const name = uniqueName(sourceName, bindings);
    return { name, step: { ...target, config: setConfigIn(target.config, path, renamePlaceholders(text, dangling.binding, name)) } };
  }
  return { name: uniqueName(sourceName, bindings), step: target };
}

/**
 * The step after a branch reads what the branch carries, in the first binding its kind reads by
 * name that is still open (an Output's `value`); a binding the person made is kept.
 */
export function bindAfterBranch(chain: Chain, targetId: string, carried: string, registry: StepRegistry): Chain {
  return mapStep(chain, targetId, (target) => {
    const read = readBindings(target, registry);
    const def = registry.get(target.kind);
    const parsed = def?.config.safeParse(target.config);
    if (!read || !def || !parsed?.success || Object.values(read.bindings).includes(carried)) return target;
    const open = def.expectedBindings?.(parsed.data).find((b) => !Object.hasOwn(read.bindings, b.name));
    return open ? writeBindings(target, read.key, { ...read.bindings, [open.name]: carried }) : target;
  });
}

/**
 * Once a step whose edges are labelled branches (a router) reads its value, the steps its
 * branches lead to that read nothing there yet read it too: an Output drawn after a branch
 * before the router was connected returns the branch's value all the same.
 */
function bindBranchTargets(chain: Chain, sourceId: string, registry: StepRegistry): Chain {
  const source = chain.steps.find((s) => s.id === sourceId);
  const def = source ? registry.get(source.kind) : undefined;
  const parsed = def?.config.safeParse(source?.config);
  if (!def?.labelledBranches || !parsed?.success) return chain;
  const carried = def.labelledBranches.carries(parsed.data);
  if (!carried) return chain;
  let next = chain;
  for (const target of new Set(def.branches(parsed.data).map((b) => b.to))) next = bindAfterBranch(next, target, carried, registry);
  return next;
}

function connectRef(chain: Chain, ref: string, sourceName: string, bindingName: string | undefined, targetId: string, registry: StepRegistry): Chain {
  return mapStep(chain, targetId, (target) => {
    const read = readBindings(target, registry);
    if (!read || Object.values(read.bindings).includes(ref)) return target;
    const { name, step } = bindingName === undefined
      ? bindingForEdge(target, read.bindings, sourceName, registry)
      : { name: uniqueName(bindingName, read.bindings), step: target };
    return writeBindings(step, read.key, { ...read.bindings, [name]: ref });
  });
}

/**
 * Makes `targetId` read the output of `sourceId` (`steps.<source>`), under the name the target
 * reads (see bindingForEdge) or `bindingName` when given. An edge from a step whose edges are
 * labelled branches (a router) is no reading: it needs its label first (connectBranch in
 * branch-edit.ts), so here it changes nothing.
 */
export function connect(chain: Chain, sourceId: string, targetId: string, bindingName: string | undefined, registry: StepRegistry): Chain {
  const source = chain.steps.find((s) => s.id === sourceId);
  if (sourceId === targetId || !source || !chain.steps.some((s) => s.id === targetId)) return chain;
  if (registry.get(source.kind)?.labelledBranches && bindingName === undefined) return chain;
  return bindBranchTargets(connectRef(chain, `steps.${sourceId}`, sourceId, bindingName, targetId, registry), targetId, registry);
}

/** Makes `targetId` read the chain input `inputName` (`inputs.<name>`). */
export function connectInput(chain: Chain, inputName: string, targetId: string, bindingName: string | undefined, registry: StepRegistry): Chain {
  if (!chain.inputs.some((i) => i.name === inputName)) return chain;
  return bindBranchTargets(connectRef(chain, `inputs.${inputName}`, inputName, bindingName, targetId, registry), targetId, registry);
}

/** Removes the binding behind a data edge. */
export function disconnect(chain: Chain, targetId: string, bindingName: string, registry: StepRegistry): Chain {
  return removeBinding(chain, targetId, bindingName, registry);
}

/** Removes a branch edge (a route or fallback from `sourceId` to `targetId`). */
export function removeBranch(chain: Chain, sourceId: string, targetId: string, registry: StepRegistry): Chain {
  return mapStep(chain, sourceId, (step) => removeBranchesTo(step, targetId, registry));
}

/** Adds a chain input (a string by default) with a fresh name such as `input_1`. */
export function addInput(chain: Chain, name?: string, patch: Partial<Omit<ChainInput, 'name'>> = {}): { chain: Chain; name: string } {
  const taken = new Set([...chain.inputs.map((i) => i.name), ...chain.steps.map((s) => s.id)]);
  const chosen = name && !taken.has(name) ? name : freshId(name ?? 'input', taken);
  const input: ChainInput = { name: chosen, schema: { type: 'string' }, trust: 'trusted', required: true, ...patch };
  return { chain: { ...chain, inputs: [...chain.inputs, input] }, name: chosen };
}

/** Removes an input and every binding that reads it. */
export function removeInput(chain: Chain, name: string, registry: StepRegistry): Chain {
  if (!chain.inputs.some((i) => i.name === name)) return chain;
  const steps = chain.steps.map((step) => {
    const read = readBindings(step, registry);
    if (!read) return step;
    const kept = Object.entries(read.bindings).filter(([, ref]) => !readsInput(ref, name));
    return kept.length === Object.keys(read.bindings).length ? step : writeBindings(step, read.key, Object.fromEntries(kept));
  });
  return { ...chain, inputs: chain.inputs.filter((i) => i.name !== name), steps };
}

/** Updates an input; a new name is carried into every binding that reads it. */
export function updateInput(chain: Chain, name: string, patch: Partial<ChainInput>, registry: StepRegistry): Chain {
  const current = chain.inputs.find((i) => i.name === name);
  if (!current) return chain;
  const renamed = patch.name !== undefined && patch.name !== name;
  if (renamed && chain.inputs.some((i) => i.name === patch.name)) return chain;
  const inputs = chain.inputs.map((i) => (i.name === name ? { ...i, ...patch } : i));
  if (!renamed) return { ...chain, inputs };
  const steps = chain.steps.map((step) => {
    const read = readBindings(step, registry);
    if (!read || !Object.values(read.bindings).some((ref) => readsInput(ref, name))) return step;
    const rewritten = Object.fromEntries(
      Object.entries(read.bindings).map(([k, ref]) => [k, readsInput(ref, name) ? `inputs.${patch.name}${ref.slice(`inputs.${name}`.length)}` : ref]),
    );
    return writeBindings(step, read.key, rewritten);
  });
  return { ...chain, inputs, steps };
}

/** A new, empty chain. */
/**
 * Sets one limit of the chain's run budget, or removes it (undefined); a budget with no
 * limits left is removed, so a chain without one stays as it was.
 */
export function setBudgetLimit(chain: Chain, key: keyof RunBudget, value: number | undefined): Chain {
  if (chain.budget?.[key] === value) return chain;
  const budget: RunBudget = { ...chain.budget };
  if (value === undefined) delete budget[key];
  else budget[key] = value;
  const { budget: _old, ...rest } = chain;
  return Object.keys(budget).length ? { ...rest, budget } : rest;
}

export function createEmptyChain(id: string, name = 'Untitled chain'): Chain {
  return { format: 'seamscope.chain', version: 1, id, name, inputs: [], steps: [] };
}
