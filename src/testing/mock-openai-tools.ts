import { Invalid, isObject, openAITypeName, strictSchemaProblem } from './mock-validate.ts';
import { openAIError } from './mock-openai-error.ts';
import type { MockTool, MockToolChoice } from './mock-types.ts';

/**
 * Tool use in OpenAI Chat Completions requests: the `tools` list (strict schemas held to the
 * strict-mode rules), `tool_choice`, and the order of tool messages, with the real error shapes.
 */

function invalid(message: string, param: string | null = null, code: string | null = null): Invalid {
  return new Invalid(400, openAIError(message, param, code));
}

export function checkTools(tools: unknown): MockTool[] {
  if (tools === undefined || tools === null) return [];
  if (!Array.isArray(tools)) throw invalid(`Invalid type for 'tools': expected an array, but got ${openAITypeName(tools)} instead.`, 'tools', 'invalid_type');
  return tools.map((tool: unknown, i) => {
    const at = `tools[${i}]`;
    if (!isObject(tool)) throw invalid(`Invalid type for '${at}': expected an object, but got ${openAITypeName(tool)} instead.`, at, 'invalid_type');
    if (tool.type !== 'function') throw invalid(`Invalid value: '${String(tool.type)}'. Supported values are: 'function' and 'custom'.`, `${at}.type`, 'invalid_value');
    const fn = tool.function;
    if (!isObject(fn)) throw invalid(`Missing required parameter: '${at}.function'.`, `${at}.function`, 'missing_required_parameter');
    if (typeof fn.name !== 'string') throw invalid(`Missing required parameter: '${at}.function.name'.`, `${at}.function.name`, 'missing_required_parameter');
    if (!/^[a-zA-Z0-9_-]{1,64}$/.test(fn.name)) {
      throw invalid(`Invalid '${at}.function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`, `${at}.function.name`, 'invalid_value');
    }
    const params = fn.parameters ?? { type: 'object', properties: {} };
    if (!isObject(params)) throw invalid(`Invalid type for '${at}.function.parameters': expected an object, but got ${openAITypeName(params)} instead.`, `${at}.function.parameters`, 'invalid_type');
    if (fn.strict === true) {
      // The same subset rules as a strict response_format (llm-protocol-facts.json strict_subset_rules).
      const problem = strictSchemaProblem(params);
      if (problem) throw invalid(`Invalid schema for function '${fn.name}': ${problem}`, `${at}.function.parameters`, 'invalid_function_parameters');
    }
    return { name: fn.name, schema: params };
  });
}

export function checkToolChoice(choice: unknown, tools: MockTool[]): MockToolChoice {
  if (choice === undefined || choice === null) return { type: 'auto' };
  if (typeof choice === 'string') {
    if (choice !== 'none' && choice !== 'auto' && choice !== 'required') {
      throw invalid(`Invalid value: '${choice}'. Supported values are: 'none', 'auto', and 'required'.`, 'tool_choice', 'invalid_value');
    }
    if (choice !== 'none' && tools.length === 0) throw invalid("Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.", 'tool_choice');
    return { type: choice };
  }
  if (!isObject(choice)) throw invalid(`Invalid type for 'tool_choice': expected one of a string or an object, but got ${openAITypeName(choice)} instead.`, 'tool_choice', 'invalid_type');
  if (tools.length === 0) throw invalid("Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.", 'tool_choice');
  const name = isObject(choice.function) ? choice.function.name : undefined;
  if (choice.type !== 'function' || typeof name !== 'string') throw invalid("Missing required parameter: 'tool_choice.function.name'.", 'tool_choice.function.name', 'missing_required_parameter');
  if (!tools.some((t) => t.name === name)) throw invalid(`Invalid value for 'tool_choice': function '${name}' not found in 'tools'.`, 'tool_choice');
  return { type: 'tool', name };
}

/** What the order check needs of each request message. */
export interface ToolTurn {
  role: string;
  toolCallIds: string[];
  toolCallId: string | null;
}

/**
 * A `tool` message must answer a tool call of the assistant message before it, and every call
 * of that assistant message must be answered before the next non-tool message (wording as
 * the API answers, typo "preceeding" included).
 */
export function checkToolOrder(turns: ToolTurn[]): void {
  let open: string[] = [];
  let answered: string[] = [];
  let openedAt = -1;
  const closeOpen = (i: number) => {
    const missing = open.filter((id) => !answered.includes(id));
    if (missing.length > 0) {
      throw invalid(`An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${missing.join(', ')}`, `messages.[${i}].role`);
    }
    open = [];
    answered = [];
    openedAt = -1;
  };
  turns.forEach((turn, i) => {
    if (turn.role === 'tool') {
      if (openedAt < 0 || turn.toolCallId === null || !open.includes(turn.toolCallId)) {
        throw invalid("Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.", `messages.[${i}].role`);
      }
      answered.push(turn.toolCallId);
      return;
    }
    if (openedAt >= 0) closeOpen(i);
    if (turn.role === 'assistant' && turn.toolCallIds.length > 0) {
      open = turn.toolCallIds;
      openedAt = i;
    }
  });
  if (openedAt >= 0) closeOpen(turns.length);
}
