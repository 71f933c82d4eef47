import type { StepDefinition } from './types.ts';

/**
 * The step registry: every consumer (palette, inspector, canvas, runner, exporters, lint)
 * iterates it and none switches on step kinds. Registering a kind twice is an error.
 */
export interface StepRegistry {
  get(kind: string): StepDefinition<string, unknown> | undefined;
  all(): readonly StepDefinition<string, unknown>[];
}

// Definitions are invariant in their config type; the registry only hands configs back to the
// definition that parsed them, so erasing the type here is safe.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyStepDefinition = StepDefinition<string, any>;

export function createStepRegistry(definitions: readonly AnyStepDefinition[]): StepRegistry {
  const byKind = new Map<string, StepDefinition<string, unknown>>();
  for (const definition of definitions) {
    if (byKind.has(definition.kind)) throw new Error(`Step kind "${definition.kind}" is registered twice`);
    byKind.set(definition.kind, definition);
  }
  const list = [...byKind.values()];
  return { get: (kind) => byKind.get(kind), all: () => list };
}
