import { parseStep, type ParsedStep } from '../chain/parsed-step.ts';
import type { Chain, StepDef } from '../chain/schema.ts';
import { assembleStep } from './assemble.ts';
import { gateStep } from './gate.ts';
import { modelStep } from './model.ts';
import { mapStep } from './map.ts';
import { outputStep } from './output.ts';
import { reduceStep } from './reduce.ts';
import { retrieveStep } from './retrieve.ts';
import { createStepRegistry, type StepRegistry } from './registry.ts';
import type { StepDefinition } from './types.ts';
import { routerStep } from './router.ts';
import { splitStep } from './split.ts';
import { templateStep } from './template.ts';
import { abstainStep, escalateStep } from './terminals.ts';
import { webhookStep } from './webhook.ts';

/**
 * The step kinds and their registry: what each kind reads, runs and emits. The chain model and
 * the trace take this registry as an argument; the app passes its canvas registry instead.
 *
 * @example
 * import { stepRegistry } from '../src/steps/index.ts';
 * const model = stepRegistry.get('model');
 * const config = model?.config.parse({ prompt: 'Summarise {inputs.doc}' });
 */
/** Every built-in step kind. Adding a kind: one file in this folder plus one entry here. */
export const builtInSteps = [modelStep, mapStep, reduceStep, retrieveStep, splitStep, assembleStep, gateStep, routerStep, outputStep, abstainStep, escalateStep, webhookStep, templateStep] as const;
export type StepKind = (typeof builtInSteps)[number]['kind'];

type TypedStepOf<D> = D extends StepDefinition<infer K, infer C> ? ParsedStep<K, C> : never;
/**
 * A built-in step with its config parsed once by its kind, as a union derived from the list
 * above: `{ kind: 'model'; config: ModelConfig; … } | { kind: 'map'; config: MapConfig; … } | …`,
 * each with its branded `id: StepId` and its `def`. Narrowing on `kind` belongs in this folder;
 * elsewhere ask `def` (what it produces, fans out to, fails to).
 */
export type TypedStep = TypedStepOf<(typeof builtInSteps)[number]>;
/** The config type of one built-in kind: `StepConfig<'map'>` is MapConfig. */
export type StepConfig<K extends StepKind> = Extract<TypedStep, { kind: K }>['config'];

export const stepRegistry = createStepRegistry(builtInSteps);

/**
 * The step with its config parsed by its built-in kind, or null (an unknown kind, a config
 * that does not parse).
 *
 * @example
 * const typed = typedStep(chain.steps[0]);
 * if (typed?.kind === 'map') console.log(typed.config.concurrency); // MapConfig, no cast
 */
export function typedStep(step: StepDef): TypedStep | null {
  const parsed = parseStep(step, stepRegistry);
  // The registry holds exactly builtInSteps, each keyed by its own kind, and the config came
  // from that kind's own schema: the one place the erased registry type meets the union.
  return parsed as TypedStep | null;
}

/**
 * Whether a run of the chain counts tokens exactly somewhere (a budget, a split by size), as
 * each step's definition says: an export then ships the tokenizer.
 */
export function chainNeedsTokenizer(chain: Pick<Chain, 'steps'>, registry: StepRegistry = stepRegistry): boolean {
  return chain.steps.some((step) => {
    const parsed = parseStep(step, registry);
    return parsed?.def.needsTokenizer?.(parsed.config) ?? false;
  });
}

export type { StepRegistry } from './registry.ts';
export type { BranchChoice, ConfigSchema, ExpectedBinding, LabelledBranches, ModelContract, StepDefinition, FieldSpec, StepGroup, StepLintFinding, StepLintSubject, StepOutcome, StepProduces, StepRunContext } from './types.ts';
export { stepGroups } from './types.ts';
export { stepsNamingProfiles, type ModelConfig } from './model.config.ts';
export type { CountedUnit } from './grouping.ts';
export { splitConfigSchema, type SplitConfig } from './split.ts';
// Not re-exported here: what only a run, the planner or a step's panel uses (prompt assembly,
// dynamic enums, sectioning and grouping). Every module an index re-exports is placed in the
// chunk that loads the index, the first paint's, once anything uses it; app/ imports those
// from the entries eslint.config.js declares (model-prompt.ts, dynamic-enum.ts, split-units.ts).
