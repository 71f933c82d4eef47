import { gateStep } from './gate.ts';
import { modelStep } from './model.ts';
import { outputStep } from './output.ts';
import { createStepRegistry } from './registry.ts';
import { routerStep } from './router.ts';

/** Every built-in step kind. Adding a kind: one file in this folder plus one entry here. */
export const builtInSteps = [modelStep, gateStep, routerStep, outputStep] as const;
export type StepKind = (typeof builtInSteps)[number]['kind'];

export const stepRegistry = createStepRegistry(builtInSteps);

export type { StepDefinition, FieldSpec, StepGroup, StepOutcome, StepRunContext } from './types.ts';
export { stepGroups } from './types.ts';
