import * as z from 'zod';
import { CHAIN_VERSION } from './versions.ts';

/**
 * The chain file (`*.chain.json`), at CHAIN_VERSION (versions.ts). One source of truth for the graph: each step
 * names what it reads (its bindings); the canvas draws those reads as edges; router branches
 * and fallbacks are the only other edges, and they live in the router's / step's config.
 */

export const CHAIN_FORMAT = 'seamscope.chain';
export { CHAIN_VERSION };

/** Step ids and input names double as template names and code identifiers later. */
export const identifier = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'must start with a letter or _ and use only letters, digits and _ (max 64)');

/**
 * A reference to a value: `inputs.<name>[.<path>]` or `steps.<id>[.<path>]`.
 * Paths walk object keys or array indices, e.g. `steps.select.relevant_sections.0.quote`.
 */
export const refSchema = z
  .string()
  .regex(/^(inputs|steps)\.[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*$/, 'must look like inputs.<name> or steps.<id>[.field]');

export const jsonSchemaObject = z.record(z.string(), z.unknown());

export const positionSchema = z.object({ x: z.number().finite(), y: z.number().finite() });

export const chainInputSchema = z.object({
  name: identifier,
  description: z.string().max(2000).optional(),
  /** JSON Schema of the value, e.g. `{ "type": "string" }`. */
  schema: jsonSchemaObject,
  /** Untrusted inputs (and everything derived from them) are framed as data in every prompt. */
  trust: z.enum(['trusted', 'untrusted']).default('trusted'),
  required: z.boolean().default(true),
  /** Shown in the Run dialog and used by the CLI when no value is given. */
  example: z.unknown().optional(),
  /** Where the person put the input's node on the canvas; absent means placed beside its readers. */
  position: positionSchema.optional(),
});

export const stepSchema = z.object({
  id: identifier,
  kind: z.string().min(1).max(64),
  name: z.string().max(200),
  description: z.string().max(4000).optional(),
  position: positionSchema.default({ x: 0, y: 0 }),
  /** Validated by the step kind's own config schema from the registry. */
  config: z.record(z.string(), z.unknown()).default({}),
});

/**
 * What one run of the chain may spend. A chain file can carry its own limits (one from
 * elsewhere can then never run away with a person's account); the CLI or the app can only
 * tighten them.
 */
export const runBudgetSchema = z.strictObject({
  /** Steps started, fallbacks included. */
  maxSteps: z.number().int().min(1).max(1_000_000).optional(),
  /** Model requests sent, retries and map units included. */
  maxRequests: z.number().int().min(1).max(10_000_000).optional(),
  /** Input plus output tokens, as the endpoints reported them. */
  maxTokens: z.number().int().min(1).max(1e12).optional(),
  /** Spend in US dollars at the profile's prices. */
  maxCostUsd: z.number().positive().max(1e9).optional(),
  /** Wall clock from the run's start; calls still in flight at the deadline are cancelled. */
  maxTimeMs: z.number().int().min(1).max(7 * 24 * 3600 * 1000).optional(),
});

export const chainSchema = z.object({
  format: z.literal(CHAIN_FORMAT),
  version: z.literal(CHAIN_VERSION),
  id: z.string().min(1).max(128),
  name: z.string().min(1).max(200),
  description: z.string().max(8000).optional(),
  inputs: z.array(chainInputSchema).max(200),
  steps: z.array(stepSchema).max(20000),
  budget: runBudgetSchema.optional(),
  /** Free-form notes a designer keeps with the chain (never secrets). */
  meta: z.record(z.string(), z.unknown()).optional(),
});

export type ChainInput = z.infer<typeof chainInputSchema>;
export type StepDef = z.infer<typeof stepSchema>;
export type Chain = z.infer<typeof chainSchema>;
export type RunBudget = z.infer<typeof runBudgetSchema>;
export type Ref = string;
