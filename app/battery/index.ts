import type { BatterySuite } from '../../src/testing/index.ts';
import { b3DexieUpgrades } from './b3-dexie-upgrades.ts';

/** Battery suites that need the app's own libraries (Dexie), one line each; see src/testing/battery. */
export const appSuites: readonly BatterySuite[] = [
  b3DexieUpgrades,
];
