import { stepRegistry } from '../steps/index.ts';
import type { StepRegistry } from '../steps/registry.ts';
import { bindingsKey, freshId, type XY } from './edit.ts';
import { parseRef } from './refs.ts';
import type { Chain, StepDef } from './schema.ts';

/**
 * Copy and paste of steps. A fragment carries the steps as they are; pasting gives them fresh
 * ids, rewires references between pasted steps to the copies, keeps references to steps that
 * exist in the destination, and drops the ones that would dangle.
 */
export interface ChainFragment {
  format: 'seamscope.fragment';
  version: 1;
  steps: StepDef[];
}

export function copySteps(chain: Chain, ids: readonly string[]): ChainFragment {
  const wanted = new Set(ids);
  return { format: 'seamscope.fragment', version: 1, steps: structuredClone(chain.steps.filter((s) => wanted.has(s.id))) };
}

export function isFragment(value: unknown): value is ChainFragment {
  return !!value && typeof value === 'object' && (value as ChainFragment).format === 'seamscope.fragment' && Array.isArray((value as ChainFragment).steps);
}

/** Rewrites a step-id string: a direct id (route targets) or `fallback:<id>`. */
function remapId(value: string, ids: ReadonlyMap<string, string>, exists: (id: string) => boolean): string | null {
  const fallback = value.startsWith('fallback:') ? value.slice(9) : null;
  const id = fallback ?? value;
  const mapped = ids.get(id) ?? (exists(id) ? id : null);
  if (mapped === null) return fallback !== null ? 'abort' : null;
  return fallback !== null ? `fallback:${mapped}` : mapped;
}

function remapConfig(config: unknown, ids: ReadonlyMap<string, string>, exists: (id: string) => boolean, key = ''): unknown {
  if (Array.isArray(config)) return config.map((v) => remapConfig(v, ids, exists, key));
  if (config && typeof config === 'object') {
    return Object.fromEntries(Object.entries(config).map(([k, v]) => [k, remapConfig(v, ids, exists, k)]));
  }
  // Only the keys that name steps: route targets, the default route and on-fail fallbacks.
  if (typeof config === 'string' && (key === 'to' || key === 'defaultTo' || (key === 'onFail' && config.startsWith('fallback:')))) {
    return remapId(config, ids, exists) ?? (key === 'defaultTo' ? null : config);
  }
  return config;
}

export function pasteSteps(chain: Chain, fragment: ChainFragment, offset: XY = { x: 40, y: 40 }, registry: StepRegistry = stepRegistry): { chain: Chain; pasted: string[] } {
  const taken = new Set(chain.steps.map((s) => s.id));
  const ids = new Map<string, string>();
  for (const step of fragment.steps) {
    const base = step.id.replace(/_\d+$/, '');
    const id = freshId(base, taken);
    taken.add(id);
    ids.set(step.id, id);
  }
  const existing = new Set(chain.steps.map((s) => s.id));
  const inputs = new Set(chain.inputs.map((i) => i.name));
  const exists = (id: string) => existing.has(id);
  const pasted = fragment.steps.map((step): StepDef => {
    const config = remapConfig(step.config, ids, exists) as Record<string, unknown>;
    const key = bindingsKey(step, registry);
    if (key && config[key] && typeof config[key] === 'object') {
      const bindings: Record<string, string> = {};
      for (const [name, ref] of Object.entries(config[key] as Record<string, string>)) {
        const { root, name: target, path } = parseRef(ref);
        if (root === 'inputs' && inputs.has(target)) bindings[name] = ref;
        if (root === 'steps') {
          const mapped = ids.get(target) ?? (exists(target) ? target : null);
          if (mapped) bindings[name] = ['steps', mapped, ...path].join('.');
        }
      }
      config[key] = bindings;
    }
    return { ...step, id: ids.get(step.id) as string, config, position: { x: step.position.x + offset.x, y: step.position.y + offset.y } };
  });
  return { chain: { ...chain, steps: [...chain.steps, ...pasted] }, pasted: pasted.map((s) => s.id) };
}
