import { isRecord } from './http.ts';
import type { ToolCall, ToolChoice, ToolSpec } from './types.ts';

/**
 * Tool calls as both protocols deliver them, normalised to `ToolCall`: whole (OpenAI
 * `message.tool_calls`, Anthropic `tool_use` blocks) or in stream fragments joined by index
 * (OpenAI `delta.tool_calls[].index`, Anthropic `content_block` index with `input_json_delta`).
 */

/** Collects streamed fragments by index; `list()` gives the calls in index order. */
export class ToolCallAssembler {
  private readonly byIndex = new Map<number, ToolCall>();

  /** Starts or extends the call at `index`; later fragments only append to the arguments. */
  add(index: number, part: { id?: unknown; name?: unknown; arguments?: unknown }): void {
    let call = this.byIndex.get(index);
    if (!call) this.byIndex.set(index, (call = { id: '', name: '', arguments: '' }));
    if (typeof part.id === 'string' && part.id && !call.id) call.id = part.id;
    // Some compatible servers repeat the name on every fragment; it is one name, not a concatenation.
    if (typeof part.name === 'string' && part.name && !call.name) call.name = part.name;
    if (typeof part.arguments === 'string') call.arguments += part.arguments;
  }

  has(index: number): boolean {
    return this.byIndex.has(index);
  }

  list(): ToolCall[] {
    return [...this.byIndex.entries()].sort(([a], [b]) => a - b).map(([, call]) => call);
  }
}

/** OpenAI `message.tool_calls` (function calls only) as ToolCalls; empty when there are none. */
export function openAIToolCalls(value: unknown): ToolCall[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((c) => {
    if (!isRecord(c) || !isRecord(c.function)) return [];
    const fn = c.function;
    return [{ id: typeof c.id === 'string' ? c.id : '', name: typeof fn.name === 'string' ? fn.name : '', arguments: typeof fn.arguments === 'string' ? fn.arguments : '' }];
  });
}

/** An Anthropic `tool_use` block as a ToolCall: its `input` object becomes its JSON text. */
export function anthropicToolCall(block: Record<string, unknown>): ToolCall {
  return {
    id: typeof block.id === 'string' ? block.id : '',
    name: typeof block.name === 'string' ? block.name : '',
    arguments: block.input === undefined ? '{}' : JSON.stringify(block.input),
  };
}

/** `tools` and `tool_choice` in OpenAI's request shape. */
export function openAITools(tools: ToolSpec[], choice: ToolChoice | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {
    tools: tools.map((t) => ({
      type: 'function',
      function: { name: t.name, ...(t.description ? { description: t.description } : {}), parameters: t.parameters, ...(t.strict !== undefined ? { strict: t.strict } : {}) },
    })),
  };
  if (choice === 'required' || choice === 'none') out.tool_choice = choice;
  else if (choice && choice !== 'auto') out.tool_choice = { type: 'function', function: { name: choice.name } };
  return out;
}

/** `tools` and `tool_choice` in Anthropic's request shape (`required` is its `any`). */
export function anthropicTools(tools: ToolSpec[], choice: ToolChoice | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {
    tools: tools.map((t) => ({ name: t.name, ...(t.description ? { description: t.description } : {}), input_schema: t.parameters })),
  };
  if (choice === 'required') out.tool_choice = { type: 'any' };
  else if (choice === 'none') out.tool_choice = { type: 'none' };
  else if (choice && choice !== 'auto') out.tool_choice = { type: 'tool', name: choice.name };
  return out;
}
