import type { StepRegistry } from '../steps/index.ts';
import { bindingsKey, freshId, type XY } from './edit.ts';
import { parseRef } from './refs.ts';
import type { Chain, StepDef } from './schema.ts';
import { remapStepTargets } from './step-targets.ts';

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

export function pasteSteps(chain: Chain, fragment: ChainFragment, offset: XY = { x: 40, y: 40 }, registry: StepRegistry): { chain: Chain; pasted: string[] } {
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
    const config = remapStepTargets(step.config, ids, exists);
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
