/**
 * Test helpers the app's tests and the battery share: chain fixtures, a scripted model
 * provider, hostile files, the v2 format fixture and the battery's suite types. Everything
 * here runs in the browser too; the Node-only helpers (the mock model server, the export
 * conformance harness) are imported by path from Node tests.
 *
 * @example
 * import { createScriptedProvider, twoStepChain } from '../src/testing/index.ts';
 * const provider = createScriptedProvider(['a summary', { text: 'the answer' }]);
 * const chain = twoStepChain();
 */
export { routedChain, twoStepChain } from './chain-fixtures.ts';
export { createScriptedProvider } from './scripted-provider.ts';
export { formatV2 } from './format-v2.ts';
export { hostileCases } from './hostile-files.ts';
export { CaseClock, suiteMet, withTimeout, type BatterySuite, type SuiteOptions, type SuiteResult } from './battery/types.ts';
