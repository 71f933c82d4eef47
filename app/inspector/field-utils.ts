import { isContainer } from '../../src/files/index.ts';
import type { StepDef } from '../../src/chain/index.ts';

/** Reads a dotted key path from a step's config (own properties only). */
export function readConfig(step: StepDef, key: string): unknown {
  let current: unknown = step.config;
  for (const part of key.split('.')) {
    if (!isContainer(current) || !Object.hasOwn(current, part)) return undefined;
    current = Reflect.get(current, part);
  }
  return current;
}

export function asRecord(value: unknown): Record<string, string> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, string>) : {};
}
