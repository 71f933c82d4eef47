import type { $ZodError } from 'zod/v4/core';
import type { StepRegistry } from '../steps/index.ts';
import { chainEdges, topologicalOrder } from './graph.ts';
import { checkRelativePath } from '../files/relative-path.ts';
import { parseStrictJson } from '../files/strict-json.ts';
import { checkDeclaredSizes, DEFAULT_CHAIN_LIMITS, type ChainLimits } from './declared-sizes.ts';
import { migrateChain } from './migrate.ts';
import { getPath, parseRef } from './refs.ts';
import { CHAIN_FORMAT, CHAIN_VERSION, chainSchema, type Chain } from './schema.ts';
import { chainSchemaFindings } from './schema-check.ts';
import { findPlaceholders } from './template.ts';
import { isContainer, isRecord } from '../files/json-value.ts';

/**
 * Reads a chain file. Every problem comes back with a JSON path and a plain message — never a
 * stack trace — and nothing is returned unless the whole file is sound, so callers can refuse
 * to store a bad file without having touched anything.
 */
export interface ChainProblem {
  path: string;
  message: string;
}

export type ParseChainResult = { ok: true; chain: Chain } | { ok: false; problems: ChainProblem[] };

/**
 * A chain read back from anywhere: `chain` is set whenever the value is a chain at all (its
 * format, version and envelope read, migrated to this version); `problems` are what stops it
 * from running (a config that does not parse, a reference to nothing, a broken schema).
 */
export type RestoreChainResult = { ok: true; chain: Chain; problems: ChainProblem[] } | { ok: false; problems: ChainProblem[] };

export const MAX_CHAIN_BYTES = 10 * 1024 * 1024;
const MAX_DEPTH = 64;
const MAX_NODES = 2_000_000;

export function formatPath(path: readonly PropertyKey[]): string {
  let out = '$';
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : /^[A-Za-z_][A-Za-z0-9_]*$/.test(String(key)) ? `.${String(key)}` : `[${JSON.stringify(String(key))}]`;
  return out;
}

/** Depth, size and prototype-key limits, checked iteratively so hostile nesting can't overflow the stack. */
function checkShape(root: unknown): ChainProblem[] {
  const stack: { value: unknown; path: PropertyKey[] }[] = [{ value: root, path: [] }];
  let nodes = 0;
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const { value, path } = item;
    if (!isContainer(value)) continue;
    if (++nodes > MAX_NODES) return [{ path: '$', message: `the file has more than ${MAX_NODES} values` }];
    if (path.length > MAX_DEPTH) return [{ path: formatPath(path), message: `nesting is deeper than ${MAX_DEPTH} levels` }];
    for (const key of Object.keys(value)) {
      if (key === '__proto__') return [{ path: formatPath([...path, key]), message: 'the key "__proto__" is not allowed' }];
      stack.push({ value: Reflect.get(value, key), path: [...path, Array.isArray(value) ? Number(key) : key] });
    }
  }
  return [];
}

function zodProblems(error: $ZodError, prefix: PropertyKey[] = []): ChainProblem[] {
  return error.issues.map((issue) => ({ path: formatPath([...prefix, ...issue.path]), message: issue.message }));
}

/** Checks that need the whole chain: unique ids, refs that resolve, branch targets, cycles, placeholders. */
function checkReferences(chain: Chain, registry: StepRegistry): ChainProblem[] {
  const problems: ChainProblem[] = [];
  const inputNames = new Set<string>();
  chain.inputs.forEach((input, i) => {
    if (inputNames.has(input.name)) problems.push({ path: `$.inputs[${i}].name`, message: `the input name "${input.name}" is used twice` });
    inputNames.add(input.name);
  });
  const stepIds = new Set<string>();
  chain.steps.forEach((step, i) => {
    if (stepIds.has(step.id)) problems.push({ path: `$.steps[${i}].id`, message: `the step id "${step.id}" is used twice` });
    stepIds.add(step.id);
  });
  chain.steps.forEach((step, i) => {
    const def = registry.get(step.kind);
    if (!def) return;
    const bindings = def.bindings(step.config);
    for (const [name, ref] of Object.entries(bindings)) {
      const { root, name: target } = parseRef(ref);
      const path = `$.steps[${i}].config.bindings.${name}`;
      if (root === 'inputs' && !inputNames.has(target)) problems.push({ path, message: `reads the input "${target}", which the chain does not declare` });
      if (root === 'steps' && !stepIds.has(target)) problems.push({ path, message: `reads the step "${target}", which does not exist` });
      if (root === 'steps' && target === step.id) problems.push({ path, message: 'a step cannot read its own output' });
    }
    def.branches(step.config).forEach((branch) => {
      if (!stepIds.has(branch.to)) problems.push({ path: `$.steps[${i}].config`, message: `the branch "${branch.label}" goes to "${branch.to}", which does not exist` });
    });
    const names = new Set([...Object.keys(bindings), ...(def.templateNames?.(step.config) ?? [])]);
    // Every text the kind's editor marks as a template (a prompt, a system message, a template step's text).
    for (const field of def.fields) {
      if (field.kind !== 'textarea' || !field.template) continue;
      const template = getPath(step.config, field.key.split('.'));
      if (typeof template !== 'string') continue;
      for (const p of findPlaceholders(template)) {
        if (!names.has(p.binding)) problems.push({ path: `$.steps[${i}].config.${field.key}`, message: `the placeholder {${p.name}} names nothing: bind "${p.binding}" in the step's reads` });
      }
    }
  });
  const { cycle } = topologicalOrder(chain.steps.map((s) => s.id), chainEdges(chain, registry));
  if (cycle.length > 0) problems.push({ path: '$.steps', message: `the steps ${cycle.join(', ')} form a cycle` });
  return problems;
}

/**
 * `meta.inputFiles` (input name → file beside the chain): each entry must name a file inside
 * the chain's folder, checked here so validate and every import refuse it before anything is
 * read; the CLI checks the real path again when it reads the file (symlinks).
 */
function checkInputFiles(chain: Chain): ChainProblem[] {
  const files = chain.meta?.inputFiles;
  if (files === undefined) return [];
  if (files === null || typeof files !== 'object' || Array.isArray(files)) return [{ path: '$.meta.inputFiles', message: 'must be an object of input name → file name' }];
  const problems: ChainProblem[] = [];
  for (const [name, file] of Object.entries(files)) {
    const check = checkRelativePath(file);
    if (!check.ok) problems.push({ path: formatPath(['meta', 'inputFiles', name]), message: `names ${JSON.stringify(file)}, which is refused: ${check.reason}; a chain may only name files inside its own folder` });
  }
  return problems;
}

/**
 * Reads a chain from any place it is stored (a file, the library, a run's snapshot, an exported
 * program): the one load path, so an old chain is migrated (migrate.ts) and checked the same
 * way everywhere. `limits` overrides the bounds on declared sizes (declared-sizes.ts). A chain
 * the library saved mid-edit may have problems and still opens (`ok` with `problems`); a file
 * to import, validate or run must have none (parseChain).
 *
 * @example
 * const restored = restoreChain(record.chain);
 * if (!restored.ok) throw new Error(restored.problems[0].message); else open(restored.chain);
 */
export function restoreChain(input: string | unknown, registry: StepRegistry, limits: Partial<ChainLimits> = {}): RestoreChainResult {
  let raw: unknown = input;
  if (typeof input === 'string') {
    if (input.length > MAX_CHAIN_BYTES) return { ok: false, problems: [{ path: '$', message: `the file is ${(input.length / 1048576).toFixed(1)} MB; chain files are limited to ${MAX_CHAIN_BYTES / 1048576} MB` }] };
    // Strict: a key written twice or a number that overflows to Infinity is refused with its path.
    const read = parseStrictJson(input, { maxDepth: MAX_DEPTH + 1 });
    if (!read.ok && read.code === 'depth') return { ok: false, problems: [{ path: formatPath(read.path.slice(0, 8)), message: `nesting is deeper than ${MAX_DEPTH} levels` }] };
    if (!read.ok) return { ok: false, problems: [{ path: formatPath(read.path), message: `the file is not valid JSON: ${read.message}` }] };
    raw = read.value;
  }
  const shape = checkShape(raw);
  if (shape.length > 0) return { ok: false, problems: shape };
  if (!isRecord(raw)) return { ok: false, problems: [{ path: '$', message: 'a chain file is a JSON object' }] };
  const record = raw;
  if (record.format !== CHAIN_FORMAT) return { ok: false, problems: [{ path: '$.format', message: `must be "${CHAIN_FORMAT}" (this is not a Seamscope chain file)` }] };
  const migrated = migrateChain(record);
  if (!migrated.ok) return { ok: false, problems: [{ path: '$.version', message: migrated.message }] };

  const envelope = chainSchema.safeParse(migrated.value);
  if (!envelope.success) return { ok: false, problems: zodProblems(envelope.error) };
  const chain = envelope.data;
  const problems: ChainProblem[] = [];
  chain.steps = chain.steps.map((step, i) => {
    const def = registry.get(step.kind);
    if (!def) {
      problems.push({ path: `$.steps[${i}].kind`, message: `unknown step kind "${step.kind}" (known: ${registry.all().map((d) => d.kind).join(', ')})` });
      return step;
    }
    const config = def.config.safeParse(step.config);
    if (!config.success) {
      problems.push(...zodProblems(config.error, ['steps', i, 'config']));
      return step;
    }
    // Stored with its defaults filled in; consumers get it typed through parseStep.
    if (!isRecord(config.data)) {
      problems.push({ path: `$.steps[${i}].config`, message: `the step kind "${step.kind}" parsed its config to something other than an object` });
      return step;
    }
    return { ...step, config: config.data };
  });
  const found = (list: ChainProblem[]): RestoreChainResult => ({ ok: true, chain, problems: list });
  if (problems.length > 0) return found(problems);
  // Before any reference checks: a declared size over its limit is refused however sound the rest is.
  const sizeProblems = checkDeclaredSizes(chain, registry, { ...DEFAULT_CHAIN_LIMITS, ...limits }, formatPath);
  if (sizeProblems.length > 0) return found(sizeProblems);
  const refProblems = [...checkReferences(chain, registry), ...checkInputFiles(chain)];
  if (refProblems.length > 0) return found(refProblems);
  // Every schema compiles before the chain is accepted, so none fails after a paid call.
  const schemaErrors = chainSchemaFindings(chain, registry).filter((f) => f.severity === 'error');
  return found(schemaErrors.map((f) => ({ path: formatPath(f.path), message: f.message })));
}

/**
 * Parses and validates a chain file (text or an already-parsed value) that must be sound:
 * restoreChain, refusing any problem. What validate, import and run call.
 *
 * @example
 * const result = parseChain(await file.text());
 * if (!result.ok) showProblems(result.problems); else save(result.chain);
 */
export function parseChain(input: string | unknown, registry: StepRegistry, limits: Partial<ChainLimits> = {}): ParseChainResult {
  const restored = restoreChain(input, registry, limits);
  if (!restored.ok || restored.problems.length > 0) return { ok: false, problems: restored.problems };
  return { ok: true, chain: restored.chain };
}

export { CHAIN_VERSION, DEFAULT_CHAIN_LIMITS, type ChainLimits };
