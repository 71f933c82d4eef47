import type { StepDefinition } from '../../src/steps/index.ts';
import { stepRegistry } from '../../src/steps/index.ts';
import type { StepRegistry } from '../../src/steps/index.ts';

/**
 * The step registry with each kind's config parse remembered per config object. Chains are
 * immutable, so a step's config object only changes when that step's settings do: moving a
 * node, selecting it or editing another step then costs no zod parse at all. The canvas, the
 * contract cards and the background analysis derive edges and summaries many times per
 * revision; this turns each repeat into a WeakMap hit. Results are shared: treat them as
 * read-only (everything that reads configs already does).
 */
type Def = StepDefinition<string, unknown>;

function remember(def: Def): Def {
  const base = def.config;
  const safe = new WeakMap<object, ReturnType<typeof base.safeParse>>();
  const config = Object.create(base) as typeof base;
  const safeParse = (value: unknown) => {
    if (value === null || typeof value !== 'object') return base.safeParse(value);
    let result = safe.get(value);
    if (!result) {
      result = base.safeParse(value);
      safe.set(value, result);
    }
    return result;
  };
  const parse = (value: unknown) => {
    const result = safeParse(value);
    return result.success ? result.data : base.parse(value);
  };
  Object.defineProperties(config, { safeParse: { value: safeParse }, parse: { value: parse } });
  return { ...def, config };
}

export function createRememberingRegistry(registry: StepRegistry): StepRegistry {
  const byKind = new Map<string, Def>();
  for (const def of registry.all()) byKind.set(def.kind, remember(def));
  const list = [...byKind.values()];
  return { get: (kind) => byKind.get(kind), all: () => list };
}

export const canvasRegistry = createRememberingRegistry(stepRegistry);
