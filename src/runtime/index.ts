/**
 * The runtime an exported TypeScript program runs on: the engine itself (its scheduler, the
 * step registry, the OpenAI-compatible and Anthropic clients, the trace), behind a small API.
 * The export ships it as one esbuild bundle of this entry (`seamscope-runtime/index.js`, no
 * dependencies) with declarations generated from this folder (src/export/runtime-build.ts).
 *
 * @example
 * import * as rt from './seamscope-runtime/index.js';
 * const result = await rt.runChain(CHAIN, { question: 'How many days?' }, {
 *   endpoint: { model: 'gpt-4.1-mini' }, steps: { answer: (step) => step.run(ANSWER) },
 * });
 * console.log(result.status, result.output);
 */
export { createProvider, resolveSettings, runChain, stepKinds } from './run.ts';
export { main, readInputs, runIfMain } from './main.ts';
export type {
  ChainDefinition, EndpointSettings, ModelProvider, ProgramRunOptions, Protocol, RunOptions, RunProgram, RunResult, RunStatus, Step, StepConfig, StepFunction,
  StepOutcome, TraceEvent,
} from './api.ts';
/** Bumped when the API above changes incompatibly. */
export const RUNTIME_VERSION = 2;
