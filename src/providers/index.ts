/**
 * Model endpoints: endpoint profiles and their checks, the chat types, provider errors, the
 * key scrubber and the token estimate.
 *
 * One declared heavier entry sits beside this one: `src/providers/profiles.ts`
 * (`createProviderForProfile`), which carries the OpenAI and Anthropic clients and the demo
 * model. The app loads it with `import()` when a run starts or a connection is tested, so it
 * stays off first paint; re-exporting it here would pull it into every importer of this file.
 *
 * @example
 * import { baseUrlProblem, demoProfile } from '../src/providers/index.ts';
 * const problem = baseUrlProblem('http://localhost:11434/v1');
 * const { createProviderForProfile } = await import('../src/providers/profiles.ts');
 * const provider = createProviderForProfile(demoProfile);
 */
export { baseUrlProblem, demoProfile, endpointProfileSchema, runModelSettings, type EndpointProfile } from './profile.ts';
export { ProviderError } from './errors.ts';
export { shapeScrubber } from './scrub.ts';
export { estimateTokens, loadTokenCounter } from './tokenizer.ts';
export type { ChatMessage, ModelProvider } from './types.ts';
