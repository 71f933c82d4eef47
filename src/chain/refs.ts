import type { Ref } from './schema.ts';
import { isContainer } from '../files/json-value.ts';

/** A parsed reference: `inputs.question` or `steps.select.relevant_sections.0.quote`. */
export interface ParsedRef {
  root: 'inputs' | 'steps';
  name: string;
  path: string[];
}

export function parseRef(ref: Ref): ParsedRef {
  const [root, name, ...path] = ref.split('.');
  if ((root !== 'inputs' && root !== 'steps') || !name) throw new Error(`Not a reference: ${ref}`);
  return { root, name, path };
}

/** The step a ref reads from, or null for a chain input. */
export function refStep(ref: Ref): string | null {
  const parsed = parseRef(ref);
  return parsed.root === 'steps' ? parsed.name : null;
}

/**
 * Walks a dotted path through objects and arrays. Only own properties count, so a path
 * such as `constructor` or `__proto__` never reaches the prototype chain.
 */
export function getPath(value: unknown, path: readonly string[]): unknown {
  let current: unknown = value;
  for (const key of path) {
    if (!isContainer(current) || !Object.hasOwn(current, key)) return undefined;
    current = Reflect.get(current, key);
  }
  return current;
}

export interface RefScope {
  inputs: Record<string, unknown>;
  outputs: ReadonlyMap<string, unknown>;
}

/** Resolves a ref against the chain inputs and the outputs of finished steps. */
export function resolveRef(ref: Ref, scope: RefScope): unknown {
  return resolveParsedRef(parseRef(ref), scope);
}

/** resolveRef for a ref already parsed (the engine parses each step's refs once per plan). */
export function resolveParsedRef({ root, name, path }: ParsedRef, scope: RefScope): unknown {
  if (root === 'inputs') return Object.prototype.hasOwnProperty.call(scope.inputs, name) ? getPath(scope.inputs[name], path) : undefined;
  return scope.outputs.has(name) ? getPath(scope.outputs.get(name), path) : undefined;
}
