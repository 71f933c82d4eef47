import type { StepDefinition } from '../steps/index.ts';

/**
 * What a step reads that nothing is bound to: each required binding its kind expects (an
 * Output's `value`, a gate's `source`) that the config does not bind. Lint reports each as an
 * error and the engine refuses to start a chain with any (it would run and return nothing).
 */
export function unboundReads(parsed: { def: StepDefinition; config: unknown }): string[] {
  const { def, config } = parsed;
  if (!def.expectedBindings) return [];
  const bound = def.bindings(config);
  return def.expectedBindings(config)
    .filter((b) => b.required && !Object.hasOwn(bound, b.name))
    .map((b) => `${def.title} reads "${b.name}" but nothing is bound to it: connect ${b.connect}`);
}
