/**
 * The engine: runs a chain step by step through the registry and a model provider, emitting
 * trace events; forks a stored run to re-run from one step; validates outputs against schemas.
 *
 * @example
 * import { runChain } from '../src/engine/index.ts';
 * import { createMemoryRunRepository } from '../src/trace/index.ts';
 * import { demoProfile, runModelSettings } from '../src/providers/index.ts';
 * const run = await runChain({ chain, inputs: { question }, provider, model: runModelSettings(demoProfile),
 *   repo: createMemoryRunRepository(), onEvent: (event) => console.log(event.type) });
 * console.log(run.status);
 */
export { runChain, type RunOptions } from './run.ts';
export { planFork, rerunFromStep } from './fork.ts';
export { rerunSpan, type SpanRerunOptions } from './rerun-span.ts';
export { createSchemaValidator, type SchemaValidator } from './validate.ts';
