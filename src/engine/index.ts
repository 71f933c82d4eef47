/**
 * The engine: runs a chain step by step through the registry and a model provider, emitting
 * trace events; forks a stored run to re-run from one step; validates outputs against schemas.
 *
 * @example
 * import { runChain } from '../src/engine/index.ts';
 * for await (const event of runChain(chain, { inputs, provider, registry: stepRegistry })) record(event);
 */
export { runChain, type RunOptions } from './run.ts';
export { planFork, rerunFromStep } from './fork.ts';
export { createSchemaValidator, type SchemaValidator } from './validate.ts';
