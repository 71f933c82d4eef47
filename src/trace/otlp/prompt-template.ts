import { isRecord } from '../../files/json-value.ts';
import type { PromptTemplate } from '../span-tree.ts';
import { parseJsonValue } from './guard.ts';

/**
 * The prompt template an instrumentation recorded beside a call: OpenInference's
 * `llm.prompt_template.template`, `.variables` (a JSON object, usually sent as a JSON string)
 * and `.version`, as `setPromptTemplate` in @arizeai/openinference-core writes them. Langfuse
 * exports name a linked prompt (promptName, promptVersion) but not its text, so they have none.
 * Values come from a file: non-string variables are kept as their JSON text, sizes are capped.
 */
const MAX_TEMPLATE = 200_000;
const MAX_VARIABLES = 200;
/** Names that would reach an object's prototype if a later reader assigned them. */
const RESERVED = new Set(['__proto__', 'constructor', 'prototype']);

export function promptTemplateOf(attrs: Record<string, unknown>): PromptTemplate | undefined {
  const template = attrs['llm.prompt_template.template'];
  if (typeof template !== 'string' || template === '' || template.length > MAX_TEMPLATE) return undefined;
  const raw = attrs['llm.prompt_template.variables'];
  const parsed = typeof raw === 'string' ? parseJsonValue(raw) : raw;
  const variables: Record<string, string> = {};
  if (isRecord(parsed)) {
    for (const [name, value] of Object.entries(parsed).slice(0, MAX_VARIABLES)) {
      if (!/^[A-Za-z_][\w.-]{0,199}$/.test(name) || RESERVED.has(name)) continue;
      const text = typeof value === 'string' ? value : JSON.stringify(value);
      if (text !== undefined && text.length <= MAX_TEMPLATE) variables[name] = text;
    }
  }
  const version = attrs['llm.prompt_template.version'];
  return { template, variables, ...(typeof version === 'string' && version && version.length <= 200 ? { version } : {}) };
}
