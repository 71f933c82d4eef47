import type { StepDef } from '../../src/chain/index.ts';

/** Reads a dotted key path from a step's config (own properties only). */
export function readConfig(step: StepDef, key: string): unknown {
  let current: unknown = step.config;
  for (const part of key.split('.')) {
    if (current === null || typeof current !== 'object' || !Object.prototype.hasOwnProperty.call(current, part)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

export function asRecord(value: unknown): Record<string, string> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, string>) : {};
}
