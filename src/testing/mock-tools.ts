import { generateDemoOutput } from '../providers/demo-model.ts';
import type { MockCall, MockReply, MockTool, MockToolCallOut, MockToolCallReply } from './mock-types.ts';

/**
 * Tool use in the mock, shared by both protocols: which tool a forced `tool_choice` names, the
 * default answer to it, and scripted tool calls made ready to render.
 */

/** The tool a request forces, or null when the model may answer in text. */
export function forcedTool(call: MockCall): MockTool | null {
  const choice = call.toolChoice;
  if (choice.type === 'tool') return call.tools.find((t) => t.name === choice.name) ?? null;
  // `required` / `any`: the model must call some tool; the mock calls the first one.
  if (choice.type === 'required') return call.tools[0] ?? null;
  return null;
}

/**
 * The default answer when nothing is scripted: a forced tool is called with arguments made by
 * the same generator that fills `json_schema` answers, so they satisfy the tool's schema;
 * otherwise the demo model's text (or JSON for a schema).
 */
export function defaultReply(call: MockCall): MockReply {
  const tool = forcedTool(call);
  if (tool) return { content: '', toolCalls: [{ name: tool.name, arguments: generateDemoOutput(call.messages, tool.schema) }] };
  return { content: generateDemoOutput(call.messages, call.schema) };
}

/** Scripted tool calls with ids assigned and arguments as JSON text. */
export function toolCallsOut(calls: MockToolCallReply[] | undefined, newId: () => string): MockToolCallOut[] {
  return (calls ?? []).map((c) => ({
    id: c.id ?? newId(),
    name: c.name,
    arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments),
  }));
}
