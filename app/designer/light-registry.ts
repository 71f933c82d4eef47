import type { StepDefinition, StepRegistry } from '../../src/steps/index.ts';

/**
 * The step registry with configs read as they are, no zod parse: for the first paint of a large
 * chain only (use-canvas-elements.ts), where parsing every step's config for its edges and its
 * card's size cost more than React Flow's whole render. Right after that paint the canvas derives
 * everything again from the parsed configs, so what this reads differently (an invalid config,
 * which the parse refuses and the card then says so, or a default the raw config leaves out)
 * shows for a moment at most.
 *
 * A raw config is taken as it is only when the definition reads it without throwing and gives
 * back what the canvas draws from: string bindings, branches with a target and a label, summary
 * lines. Anything else goes to the real parse (remembered per config by the registry underneath).
 */
type Def = StepDefinition<string, unknown>;
type SafeParse = Def['config']['safeParse'];

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function readsAsIs(def: Def, config: Record<string, unknown>): boolean {
  try {
    const bindings = def.bindings(config);
    if (!isRecord(bindings) || !Object.values(bindings).every((ref) => typeof ref === 'string')) return false;
    const branches = def.branches(config);
    if (!Array.isArray(branches) || !branches.every((b) => isRecord(b) && typeof b.to === 'string' && typeof b.label === 'string')) return false;
    const lines = def.summary(config);
    return Array.isArray(lines) && lines.every((line) => typeof line === 'string');
  } catch {
    return false;
  }
}

function light(def: Def): Def {
  const base = def.config;
  const verdicts = new WeakMap<object, boolean>();
  const safeParse = ((value: unknown) => {
    if (!isRecord(value)) return base.safeParse(value);
    let asIs = verdicts.get(value);
    if (asIs === undefined) verdicts.set(value, (asIs = readsAsIs(def, value)));
    return asIs ? { success: true, data: value } : base.safeParse(value);
  }) as SafeParse;
  const config = Object.create(base) as Def['config'];
  Object.defineProperties(config, { safeParse: { value: safeParse } });
  return { ...def, config };
}

export function createLightRegistry(registry: StepRegistry): StepRegistry {
  const byKind = new Map<string, Def>();
  for (const def of registry.all()) byKind.set(def.kind, light(def));
  const list = [...byKind.values()];
  return { get: (kind) => byKind.get(kind), all: () => list };
}
