import type { Chain } from '../../src/chain/index.ts';

/**
 * Which field an edit typed into, so the history can merge a burst of keystrokes into one undo
 * step (`step:<id>:config.prompt`, `chain.name`, …). Returns undefined for anything that is not a
 * single-field edit (a move, a new step, a binding change): those are always their own undo step.
 * Cheap: it compares object identities, and chains share every part an edit did not touch.
 */
export function coalesceKeyFor(prev: Chain, next: Chain): string | undefined {
  if (prev.id !== next.id || (prev.inputs !== next.inputs && prev.steps !== next.steps)) return undefined;
  if (prev.steps === next.steps && prev.inputs === next.inputs) {
    if (prev.name !== next.name && prev.description === next.description) return 'chain.name';
    if (prev.description !== next.description && prev.name === next.name) return 'chain.description';
    return undefined;
  }
  if (prev.name !== next.name || prev.description !== next.description) return undefined;
  if (prev.steps !== next.steps) return stepKey(prev, next);
  return inputKey(prev, next);
}

function single<T>(a: readonly T[], b: readonly T[]): number | null {
  if (a.length !== b.length) return null;
  let found: number | null = null;
  for (let i = 0; i < a.length; i++) {
    if (a[i] === b[i]) continue;
    if (found !== null) return null;
    found = i;
  }
  return found;
}

function stepKey(prev: Chain, next: Chain): string | undefined {
  const i = single(prev.steps, next.steps);
  const a = i === null ? undefined : prev.steps[i];
  const b = i === null ? undefined : next.steps[i];
  if (!a || !b || a.id !== b.id || a.kind !== b.kind || a.position !== b.position) return undefined;
  if (a.config === b.config) {
    if (a.name !== b.name && a.description === b.description) return `step:${a.id}:name`;
    if (a.description !== b.description && a.name === b.name) return `step:${a.id}:description`;
    return undefined;
  }
  if (a.name !== b.name || a.description !== b.description) return undefined;
  const keys = new Set([...Object.keys(a.config), ...Object.keys(b.config)]);
  const changed = [...keys].filter((k) => a.config[k] !== b.config[k]);
  const key = changed.length === 1 ? changed[0] : undefined;
  // Bindings are picked, not typed, and a checkbox is one click: neither merges.
  if (!key || key === 'bindings' || typeof b.config[key] === 'boolean') return undefined;
  return `step:${a.id}:config.${key}`;
}

function inputKey(prev: Chain, next: Chain): string | undefined {
  const i = single(prev.inputs, next.inputs);
  const a = i === null ? undefined : prev.inputs[i];
  const b = i === null ? undefined : next.inputs[i];
  if (!a || !b || a.name !== b.name) return undefined;
  const changed = (Object.keys({ ...a, ...b }) as (keyof typeof a)[]).filter((k) => a[k] !== b[k]);
  return changed.length === 1 && changed[0] === 'description' ? `input:${a.name}:description` : undefined;
}
