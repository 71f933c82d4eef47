import type { ToolCall, ToolChoice, ToolSpec } from '../providers/types.ts';
import type { AttemptRecord } from '../trace/events.ts';
import type { ModelConfig, Tool } from './model.config.ts';
import { isStrictCompatible, parseModelJson } from './model-prompt.ts';

/**
 * Tools on a model step. A step runs no tool; it can force one (`toolChoice: required` or a
 * named tool) to get structured output from models without `json_schema`: the forced call's
 * arguments are the step's output, judged like a JSON answer. A reply that is only tool calls
 * on a step that forces none is a failure that names the calls, never an empty answer.
 */

const specsByConfig = new WeakMap<ModelConfig, { tools: ToolSpec[]; choice: ToolChoice | undefined }>();

/** The tools and choice sent with every call of a config (made once per config). */
export function toolRequest(cfg: ModelConfig): { tools?: ToolSpec[]; toolChoice?: ToolChoice } {
  if (!cfg.tools || cfg.tools.length === 0) return {};
  let spec = specsByConfig.get(cfg);
  if (!spec) {
    const tools = cfg.tools.map((t) => ({ name: t.name, ...(t.description ? { description: t.description } : {}), parameters: t.parameters, strict: isStrictCompatible(t.parameters) }));
    specsByConfig.set(cfg, (spec = { tools, choice: cfg.toolChoice ?? undefined }));
  }
  return { tools: spec.tools, ...(spec.choice !== undefined ? { toolChoice: spec.choice } : {}) };
}

/** How a tool call reads in the replayed assistant turn before feedback (plain text: no protocol's tool-turn rules apply). */
export function describeToolCalls(calls: ToolCall[]): string {
  return calls.map((c) => `(called tool ${c.name} with ${c.arguments || '{}'})`).join('\n');
}

/**
 * Judges a reply to a step that forces a tool: the call's arguments must be JSON that
 * satisfies the tool's parameters. Fills output, failure and errors of the record.
 */
export function judgeForcedTool(record: AttemptRecord, forced: Tool[], validate: (schema: Record<string, unknown>, value: unknown) => string[]): void {
  const names = forced.map((t) => t.name);
  const call = (record.toolCalls ?? []).find((c) => names.includes(c.name));
  if (!call) {
    const other = record.toolCalls?.length ? `it called ${record.toolCalls.map((c) => c.name).join(', ')}` : `it answered in text: ${(record.text ?? '').slice(0, 200) || '(empty)'}`;
    record.failure = 'no_tool_call';
    record.errors = [`the step requires a call to ${names.join(' or ')}, but ${other}`];
    return;
  }
  const parsed = parseModelJson(call.arguments);
  if (!parsed.ok) {
    record.failure = 'invalid_json';
    record.errors = [`the arguments of ${call.name}: ${parsed.error}`];
    return;
  }
  record.output = parsed.value;
  const tool = forced.find((t) => t.name === call.name)!;
  record.errors = validate(tool.parameters, parsed.value);
  if (record.errors.length > 0) record.failure = 'schema_violation';
}

/** A reply that only calls tools, on a step that forces none: named, so it is never an empty answer. */
export function unexpectedToolCalls(record: AttemptRecord): boolean {
  if (!record.toolCalls?.length || record.text?.trim()) return false;
  record.failure = 'tool_call';
  record.errors = [`the model called ${record.toolCalls.map((c) => c.name).join(', ')} instead of answering; this step runs no tools (force one to use its arguments as the output)`];
  return true;
}
