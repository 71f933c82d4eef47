import { gateStep } from './gate.ts';
import { modelStep } from './model.ts';
import { mapStep } from './map.ts';
import { outputStep } from './output.ts';
import { reduceStep } from './reduce.ts';
import { retrieveStep } from './retrieve.ts';
import { createStepRegistry } from './registry.ts';
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
export const builtInSteps = [modelStep, mapStep, reduceStep, retrieveStep, splitStep, gateStep, routerStep, outputStep, abstainStep, escalateStep, webhookStep, templateStep] as const;
export type StepKind = (typeof builtInSteps)[number]['kind'];

export const stepRegistry = createStepRegistry(builtInSteps);

export type { StepRegistry } from './registry.ts';
export type { ConfigSchema, ExpectedBinding, ModelContract, StepDefinition, FieldSpec, StepGroup, StepLintFinding, StepLintSubject, StepOutcome, StepProduces, StepRunContext } from './types.ts';
export { stepGroups } from './types.ts';
export { resolveDynamicEnums, sectionIdsOf } from './dynamic-enum.ts';
export { stepsNamingProfiles, type ModelConfig } from './model.config.ts';
export { assemblePrompt } from './model-prompt.ts';
