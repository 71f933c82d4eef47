import { b1Faults } from './b1-faults.ts';
import { b2Resume } from './b2-resume.ts';
import { b4HostileFiles } from './b4-hostile-files.ts';
import { b7ExportStrings } from './b7-exports.ts';
import { b8Malformed } from './b8-malformed.ts';
import { b9Budgets } from './b9-budgets.ts';
import { b10ReplayOffline } from './b10-replay-offline.ts';
import { b11Bounds } from './b11-bounds.ts';
import type { BatterySuite } from './types.ts';

export { suiteMet, type BatterySuite, type SuiteResult, type TargetCheck } from './types.ts';

/**
 * The core's battery suites (Node, no app libraries), one line each. Suites that need the
 * app's own libraries (Dexie) register in app/battery/index.ts; scripts/battery.ts runs both.
 */
export const coreSuites: readonly BatterySuite[] = [
  b1Faults,
  b2Resume,
  b4HostileFiles,
  b7ExportStrings,
  b8Malformed,
  b9Budgets,
  b10ReplayOffline,
  b11Bounds,
];
