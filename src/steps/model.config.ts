import * as z from '../chain/zod-mini.ts';
import { jsonSchemaObject } from '../chain/schema.ts';
import { bindingsField, onFailSchema } from './common.ts';
import type { ModelContract } from './types.ts';
import { propertyOf } from '../files/json-value.ts';

/** A tool a model step declares (OpenAI function / Anthropic custom tool). */
export const toolSchema = z.object({
  name: z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/)),
  description: z._default(z.string().check(z.maxLength(10_000)), ''),
  parameters: jsonSchemaObject,
});

/** Config of a `model` step: a prompt template, an output contract and the call parameters. */
export const modelConfigSchema = z.object({
  bindings: bindingsField(),
  /** Optional system message; placeholders allowed. */
  system: z._default(z.string().check(z.maxLength(200_000)), ''),
  /** The user message template: `{binding}` or `{binding.field}` placeholders, replaced (never formatted). */
  prompt: z.string().check(z.maxLength(200_000)),
  /** JSON Schema the output must satisfy; null means free text (a lint warning). */
  outputSchema: z._default(z.nullable(jsonSchemaObject), null),
  schemaName: z._default(z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/)), 'output'),
  /**
   * The endpoint profile this step calls, by the profile's name (names travel with a chain; a
   * colleague makes a profile of the same name). Empty: the run's profile.
   */
  profile: z._default(z.string().check(z.maxLength(100)), ''),
  /** Overrides the profile's model name when set. */
  model: z._default(z.string().check(z.maxLength(200)), ''),
  temperature: z._default(z.number().check(z.minimum(0), z.maximum(2)), 0),
  maxTokens: z._default(z.number().check(z.int(), z.minimum(1), z.maximum(1_000_000)), 1024),
  /** Validation retries (with the errors sent back as feedback) after the first attempt. */
  retries: z._default(z.number().check(z.int(), z.minimum(0), z.maximum(5)), 1),
  onFail: onFailSchema,
  stream: z._default(z.boolean(), false),
  /** Input budget in tokens for the assembled prompt; 0 means no budget. */
  inputBudget: z._default(z.number().check(z.int(), z.minimum(0), z.maximum(10_000_000)), 0),
  /**
   * What to cut when the assembled prompt is over budget: one binding, from its end or start.
   * Without a policy an over-budget prompt fails the step rather than being cut silently.
   */
  truncate: z._default(z.nullable(z.object({ binding: z.string().check(z.minLength(1)), from: z._default(z.enum(['end', 'start']), 'end') })), null),
  /**
   * Tools the model may call. This step runs no tool: a call is the answer. Absent or null (not
   * an empty default) so configs saved before tools existed stay byte-identical.
   */
  tools: z.nullish(z.array(toolSchema).check(z.maxLength(64))),
  /**
   * `required` or `{name}` forces a tool call; its arguments are then the step's output,
   * validated against that tool's parameters like a JSON answer (and retried with feedback).
   */
  toolChoice: z.nullish(z.union([z.enum(['auto', 'required']), z.object({ name: z.string().check(z.minLength(1)) })])),
});

export type ModelConfig = z.infer<typeof modelConfigSchema>;
export type Tool = NonNullable<ModelConfig['tools']>[number];

// Which tool a config forces is read by the designer (summaries, contracts), so it lives with the
// config, not in model-tools.ts: that module (and the prompt assembly it reads) loads with a run.
/** The tool a config forces, or null; with `required` and several tools, any of them. */
export function forcedTools(cfg: ModelConfig): Tool[] | null {
  const tools = cfg.tools ?? [];
  const choice = cfg.toolChoice;
  if (tools.length === 0 || !choice || choice === 'auto') return null;
  if (choice === 'required') return tools;
  const named = tools.find((t) => t.name === choice.name);
  return named ? [named] : null;
}

/** The schema of a forced tool's arguments: the step's output schema then. */
export function forcedToolSchema(cfg: ModelConfig): Record<string, unknown> | null {
  const forced = forcedTools(cfg);
  return forced?.length === 1 ? forced[0]!.parameters : null;
}

/** What lint and contract cards read of a model, map or reduce step's call. */
export function modelContract(cfg: ModelConfig): ModelContract {
  return { outputSchema: forcedToolSchema(cfg) ?? cfg.outputSchema, system: cfg.system, prompt: cfg.prompt, retries: cfg.retries, inputBudget: cfg.inputBudget, truncate: cfg.truncate };
}

/** A model call counts tokens exactly only to keep a budget. */
export const budgetNeedsTokenizer = (cfg: ModelConfig): boolean => cfg.inputBudget > 0;

/** The endpoint profile a step's config names, or null for the run's profile. Any kind, valid or not. */
export function namedProfile(config: unknown): string | null {
  const name = propertyOf(config, 'profile');
  return typeof name === 'string' && name !== '' ? name : null;
}

/** Steps that name an endpoint profile, in chain order. */
export function stepsNamingProfiles(chain: { steps: readonly { id: string; config: unknown }[] }): { stepId: string; profile: string }[] {
  return chain.steps.flatMap((s) => {
    const profile = namedProfile(s.config);
    return profile ? [{ stepId: s.id, profile }] : [];
  });
}
