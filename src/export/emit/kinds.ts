import type { KindEmitter } from './context.ts';
import { gateEmitter, retrieveEmitter, routerEmitter, splitEmitter } from './kinds-control.ts';
import { mapEmitter, modelEmitter, reduceEmitter } from './kinds-model.ts';
import { abstainEmitter, escalateEmitter, outputEmitter, webhookEmitter } from './kinds-terminal.ts';

/**
 * The code emitters, keyed by step kind. A test checks that every kind in the step registry
 * has one for each language, so a new kind cannot be forgotten here. (The step definitions in
 * src/steps could carry these as an `emit` field instead; they live here until that moves.)
 */
export const kindEmitters: Readonly<Record<string, KindEmitter>> = {
  model: modelEmitter,
  map: mapEmitter,
  reduce: reduceEmitter,
  retrieve: retrieveEmitter,
  split: splitEmitter,
  gate: gateEmitter,
  router: routerEmitter,
  output: outputEmitter,
  abstain: abstainEmitter,
  escalate: escalateEmitter,
  webhook: webhookEmitter,
};
