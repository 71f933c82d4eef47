import * as z from './zod-mini.ts';
import { CHAIN_VERSION } from './versions.ts';

/**
 * The chain file (`*.chain.json`), at CHAIN_VERSION (versions.ts). One source of truth for the graph: each step
 * names what it reads (its bindings); the canvas draws those reads as edges; router branches
 * and fallbacks are the only other edges, and they live in the router's / step's config.
 */

export const CHAIN_FORMAT = 'seamscope.chain';
export { CHAIN_VERSION };

/** Step ids and input names double as template names and code identifiers later. */
export const identifier = z.string().check(z.regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'must start with a letter or _ and use only letters, digits and _ (max 64)'));

/**
 * A reference to a value: `inputs.<name>[.<path>]` or `steps.<id>[.<path>]`.
 * Paths walk object keys or array indices, e.g. `steps.select.relevant_sections.0.quote`.
 */
export const refSchema = z.string().check(z.regex(/^(inputs|steps)\.[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*$/, 'must look like inputs.<name> or steps.<id>[.field]'));

export const jsonSchemaObject = z.record(z.string(), z.unknown());

export const positionSchema = z.object({ x: z.number(), y: z.number() });

export const chainInputSchema = z.object({
  name: identifier,
  description: z.optional(z.string().check(z.maxLength(2000))),
  /** JSON Schema of the value, e.g. `{ "type": "string" }`. */
  schema: jsonSchemaObject,
  /** Untrusted inputs (and everything derived from them) are framed as data in every prompt. */
  trust: z._default(z.enum(['trusted', 'untrusted']), 'trusted'),
  required: z._default(z.boolean(), true),
  /** Shown in the Run dialog and used by the CLI when no value is given. */
  example: z.optional(z.unknown()),
  /** Where the person put the input's node on the canvas; absent means placed beside its readers. */
  position: z.optional(positionSchema),
});

export const stepSchema = z.object({
  id: identifier,
  kind: z.string().check(z.minLength(1), z.maxLength(64)),
  name: z.string().check(z.maxLength(200)),
  description: z.optional(z.string().check(z.maxLength(4000))),
  position: z._default(positionSchema, { x: 0, y: 0 }),
  /** Validated by the step kind's own config schema from the registry. */
  config: z._default(z.record(z.string(), z.unknown()), {}),
});

/**
 * What one run of the chain may spend. A chain file can carry its own limits (one from
 * elsewhere can then never run away with a person's account); the CLI or the app can only
 * tighten them.
 */
export const runBudgetSchema = z.strictObject({
  /** Steps started, fallbacks included. */
  maxSteps: z.optional(z.number().check(z.int(), z.minimum(1), z.maximum(1_000_000))),
  /** Model requests sent, retries and map units included. */
  maxRequests: z.optional(z.number().check(z.int(), z.minimum(1), z.maximum(10_000_000))),
  /** Input plus output tokens, as the endpoints reported them. */
  maxTokens: z.optional(z.number().check(z.int(), z.minimum(1), z.maximum(1e12))),
  /** Spend in US dollars at the profile's prices. */
  maxCostUsd: z.optional(z.number().check(z.positive(), z.maximum(1e9))),
  /** Wall clock from the run's start; calls still in flight at the deadline are cancelled. */
  maxTimeMs: z.optional(z.number().check(z.int(), z.minimum(1), z.maximum(7 * 24 * 3600 * 1000))),
});

export const chainSchema = z.object({
  format: z.literal(CHAIN_FORMAT),
  version: z.literal(CHAIN_VERSION),
  id: z.string().check(z.minLength(1), z.maxLength(128)),
  name: z.string().check(z.minLength(1), z.maxLength(200)),
  description: z.optional(z.string().check(z.maxLength(8000))),
  inputs: z.array(chainInputSchema).check(z.maxLength(200)),
  steps: z.array(stepSchema).check(z.maxLength(20000)),
  budget: z.optional(runBudgetSchema),
  /** Free-form notes a designer keeps with the chain (never secrets). */
  meta: z.optional(z.record(z.string(), z.unknown())),
});

export type ChainInput = z.infer<typeof chainInputSchema>;
export type StepDef = z.infer<typeof stepSchema>;
export type Chain = z.infer<typeof chainSchema>;
export type RunBudget = z.infer<typeof runBudgetSchema>;
export type Ref = string;
