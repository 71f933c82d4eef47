import { Invalid, isObject } from './mock-validate.ts';
import { anthropicError } from './mock-anthropic-shape.ts';
import type { MockCall, MockTool, MockToolChoice } from './mock-types.ts';

/**
 * Request validation of the Anthropic Messages API as the mock applies it: headers (version,
 * auth, browser opt-in), then the body. Messages are checked per API version:
 *
 * - 2023-01-01 and 2023-06-01 differ only in the legacy Text Completions stream format
 *   (Anthropic's versioning page); the Messages API behaves the same under both.
 * - 2026-10-21 (sent by @anthropic-ai/sdk 1.x, see node_modules/@anthropic-ai/sdk/client.mjs)
 *   rejects `temperature`, `top_p` and `top_k` ("temperature: Extra inputs are not permitted",
 *   even at their defaults), `document` blocks directly in assistant messages, and non-empty
 *   `citations` on text blocks in user messages (Anthropic's migration guide
 *   platform.claude.com/docs/en/api/migration-2026-10-21; the error wording for the last two
 *   is ours, as the guide gives none).
 * Consecutive turns of one role are combined into one turn (the SDK's `messages` doc), not refused.
 */

export const API_VERSIONS = ['2023-01-01', '2023-06-01', '2026-10-21'] as const;
export type AnthropicApiVersion = (typeof API_VERSIONS)[number];
export const CURRENT_VERSION: AnthropicApiVersion = '2026-10-21';

function invalid(message: string): Invalid {
  return new Invalid(400, anthropicError('invalid_request_error', message));
}

const KNOWN_FIELDS = new Set([
  'model', 'max_tokens', 'messages', 'system', 'temperature', 'top_p', 'top_k', 'stop_sequences', 'stream', 'tools', 'tool_choice',
  'thinking', 'output_config', 'metadata', 'service_tier', 'cache_control', 'container', 'inference_geo', 'mcp_servers', 'context_management',
  // Added in the body params of @anthropic-ai/sdk 1.x.
  'diagnostics', 'speed', 'user_profile_id', 'workspace_id',
]);
const SAMPLING = ['temperature', 'top_p', 'top_k'];

export function checkHeaders(headers: Record<string, string | undefined>, apiKey: string | undefined): AnthropicApiVersion {
  // The real API refuses calls from a web page unless the page opts in with this header.
  if (headers.origin && headers['anthropic-dangerous-direct-browser-access'] !== 'true') {
    throw new Invalid(401, anthropicError('authentication_error', "CORS requests must set 'anthropic-dangerous-direct-browser-access' header"));
  }
  if (apiKey !== undefined) {
    // SDK 1.x sends the key as `Authorization: Bearer`; older clients send `x-api-key`.
    // With both present the API reads x-api-key (observed and reported with the 2026-10-21 release).
    const bearer = /^Bearer\s+(.+)$/i.exec(headers.authorization ?? '')?.[1];
    const given = headers['x-api-key'] ?? bearer;
    if (!given) throw new Invalid(401, anthropicError('authentication_error', 'x-api-key header is required'));
    if (given !== apiKey) throw new Invalid(401, anthropicError('authentication_error', headers['x-api-key'] ? 'invalid x-api-key' : 'invalid authorization bearer token'));
  }
  const version = headers['anthropic-version'];
  if (!version) throw invalid('anthropic-version: header is required');
  if (!(API_VERSIONS as readonly string[]).includes(version)) throw invalid(`anthropic-version: invalid version "${version}"`);
  return version as AnthropicApiVersion;
}

/** Text of blocks, for the protocol-neutral call (tool results and tool inputs included, so `match` can key on them). */
function blocksText(content: unknown, at: string, role: string, version: AnthropicApiVersion): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) throw invalid(`${at}: Input should be a valid list`);
  return content
    .map((block: unknown, i) => {
      if (!isObject(block)) throw invalid(`${at}.${i}: Input should be a valid dictionary`);
      if (typeof block.type !== 'string') throw invalid(`${at}.${i}.type: Field required`);
      if (version === '2026-10-21' && role === 'assistant' && block.type === 'document') {
        throw invalid(`${at}.${i}: document blocks are not allowed in assistant messages`);
      }
      if (block.type === 'tool_use') return JSON.stringify(block.input ?? {});
      if (block.type === 'tool_result') return typeof block.content === 'string' ? block.content : Array.isArray(block.content) ? blocksText(block.content, `${at}.${i}.content`, role, version) : '';
      if (block.type !== 'text') return '';
      if (typeof block.text !== 'string') throw invalid(`${at}.${i}.text: Input should be a valid string`);
      if (block.text === '') throw invalid('messages: text content blocks must be non-empty');
      if (version === '2026-10-21' && role === 'user' && Array.isArray(block.citations) && block.citations.length > 0) {
        throw invalid(`${at}.${i}.citations: citations are not allowed on text blocks in user messages`);
      }
      return block.text;
    })
    .join('');
}

function blocksOf(content: unknown): Record<string, unknown>[] {
  return Array.isArray(content) ? content.filter(isObject) : [];
}

interface Turn {
  role: 'user' | 'assistant';
  content: string;
  toolUseIds: string[];
  toolResultIds: string[];
  /** The index of the first request message the turn came from, for error paths. */
  at: number;
}

/**
 * Every tool_use in an assistant turn needs its tool_result in the next user turn, and a
 * tool_result needs its tool_use in the turn before (wording as the API answers it).
 */
function checkToolPairs(turns: Turn[]): void {
  turns.forEach((turn, i) => {
    const next = turns[i + 1];
    if (turn.role === 'assistant' && turn.toolUseIds.length > 0 && next) {
      const missing = turn.toolUseIds.filter((id) => !next.toolResultIds.includes(id));
      if (missing.length > 0) {
        throw invalid(`messages.${turn.at}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`);
      }
    }
    if (turn.role === 'user' && turn.toolResultIds.length > 0) {
      const previous = turns[i - 1];
      const orphan = turn.toolResultIds.filter((id) => !previous?.toolUseIds.includes(id));
      if (orphan.length > 0) {
        throw invalid(`messages.${turn.at}.content.0: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${orphan.join(', ')}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`);
      }
    }
  });
}

function checkMessages(messages: unknown, version: AnthropicApiVersion): { role: string; content: string }[] {
  if (messages === undefined) throw invalid('messages: Field required');
  if (!Array.isArray(messages)) throw invalid('messages: Input should be a valid list');
  if (messages.length === 0) throw invalid('messages: at least one message is required');
  const turns: Turn[] = [];
  messages.forEach((m: unknown, i) => {
    if (!isObject(m)) throw invalid(`messages.${i}: Input should be a valid dictionary`);
    if (m.role === undefined) throw invalid(`messages.${i}.role: Field required`);
    if (m.role !== 'user' && m.role !== 'assistant') throw invalid(`messages.${i}.role: Input should be 'user' or 'assistant'`);
    if (m.content === undefined) throw invalid(`messages.${i}.content: Field required`);
    const text = blocksText(m.content, `messages.${i}.content`, m.role, version);
    const isFinalAssistant = i === messages.length - 1 && m.role === 'assistant';
    if ((m.content === '' || (Array.isArray(m.content) && m.content.length === 0)) && !isFinalAssistant) {
      throw invalid(`messages.${i}: all messages must have non-empty content except for the optional final assistant message`);
    }
    const blocks = blocksOf(m.content);
    const toolUseIds = blocks.filter((b) => b.type === 'tool_use').map((b) => String(b.id));
    const toolResultIds = blocks.filter((b) => b.type === 'tool_result').map((b) => String(b.tool_use_id));
    const last = turns[turns.length - 1];
    // Consecutive turns of one role are combined into a single turn.
    if (last && last.role === m.role) {
      last.content = last.content && text ? `${last.content}\n\n${text}` : last.content || text;
      last.toolUseIds.push(...toolUseIds);
      last.toolResultIds.push(...toolResultIds);
    } else {
      turns.push({ role: m.role, content: text, toolUseIds, toolResultIds, at: i });
    }
  });
  if (turns[0]?.role !== 'user') throw invalid('messages: first message must use the "user" role');
  checkToolPairs(turns);
  return turns.map((t) => ({ role: t.role, content: t.content }));
}

function checkOutputConfig(oc: unknown): Record<string, unknown> | null {
  if (oc === undefined || oc === null) return null;
  if (!isObject(oc)) throw invalid('output_config: Input should be a valid dictionary');
  const format = oc.format;
  if (format === undefined || format === null) return null;
  if (!isObject(format)) throw invalid('output_config.format: Input should be a valid dictionary');
  if (format.type !== 'json_schema') throw invalid("output_config.format.type: Input should be 'json_schema'");
  if (format.schema === undefined) throw invalid('output_config.format.schema: Field required');
  if (!isObject(format.schema)) throw invalid('output_config.format.schema: Input should be a valid dictionary');
  return format.schema;
}

/** Custom tools need a name and an object input_schema; server tools (`type: web_search_…`) are accepted as they are. */
function checkTools(tools: unknown): MockTool[] {
  if (tools === undefined || tools === null) return [];
  if (!Array.isArray(tools)) throw invalid('tools: Input should be a valid list');
  const out: MockTool[] = [];
  tools.forEach((tool: unknown, i) => {
    if (!isObject(tool)) throw invalid(`tools.${i}: Input should be a valid dictionary`);
    if (tool.type !== undefined && tool.type !== null && tool.type !== 'custom') return;
    if (typeof tool.name !== 'string') throw invalid(`tools.${i}.custom.name: Field required`);
    if (!/^[a-zA-Z0-9_-]{1,128}$/.test(tool.name)) throw invalid(`tools.${i}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'`);
    if (tool.input_schema === undefined) throw invalid(`tools.${i}.custom.input_schema: Field required`);
    if (!isObject(tool.input_schema)) throw invalid(`tools.${i}.custom.input_schema: Input should be a valid dictionary`);
    if (tool.input_schema.type !== 'object') throw invalid(`tools.${i}.custom.input_schema.type: Input should be 'object'`);
    if (out.some((t) => t.name === tool.name)) throw invalid(`tools: Tool names must be unique.`);
    out.push({ name: tool.name, schema: tool.input_schema });
  });
  return out;
}

function checkToolChoice(choice: unknown, tools: MockTool[]): MockToolChoice {
  if (choice === undefined || choice === null) return { type: 'auto' };
  if (!isObject(choice)) throw invalid('tool_choice: Input should be a valid dictionary');
  switch (choice.type) {
    case 'auto':
      return { type: 'auto' };
    case 'none':
      return { type: 'none' };
    case 'any':
      if (tools.length === 0) throw invalid('tool_choice: tool_choice.type "any" requires tools to be provided');
      return { type: 'required' };
    case 'tool': {
      if (typeof choice.name !== 'string') throw invalid('tool_choice.tool.name: Field required');
      const name = choice.name;
      if (!tools.some((t) => t.name === name)) throw invalid(`tool_choice: Tool '${name}' not found in provided tools`);
      return { type: 'tool', name };
    }
    default:
      throw invalid("tool_choice: Input tag does not match any of the expected tags: 'auto', 'any', 'tool', 'none'");
  }
}

/** Fields `/v1/messages/count_tokens` does not take (it generates nothing). */
const NOT_COUNTED = new Set(['max_tokens', 'stream', 'stop_sequences', 'metadata', 'service_tier', 'container', 'inference_geo', 'speed']);

/** `countOnly`: the body of `/v1/messages/count_tokens`, the same as a create minus the generation fields. */
export function checkBody(rawBody: string, version: AnthropicApiVersion, countOnly = false): MockCall {
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch {
    throw invalid('There was an issue with the formatting of your request: the body is not valid JSON');
  }
  if (!isObject(body)) throw invalid('Input should be a valid dictionary');
  const extra = Object.keys(body).find((k) => !KNOWN_FIELDS.has(k) || (version === '2026-10-21' && SAMPLING.includes(k)) || (countOnly && (NOT_COUNTED.has(k) || SAMPLING.includes(k))));
  if (extra) throw invalid(`${extra}: Extra inputs are not permitted`);
  if (body.model === undefined) throw invalid('model: Field required');
  if (typeof body.model !== 'string' || body.model === '') throw invalid('model: Input should be a valid string');
  const model = body.model;
  if (countOnly) body = { ...body, max_tokens: 0 };
  if (!isObject(body)) throw invalid('Input should be a valid dictionary');
  if (body.max_tokens === undefined) throw invalid('max_tokens: Field required');
  if (typeof body.max_tokens !== 'number' || !Number.isInteger(body.max_tokens)) throw invalid('max_tokens: Input should be a valid integer');
  // 0 is allowed: it pre-warms the prompt cache without generating (SDK `max_tokens` doc).
  if (body.max_tokens < 0) throw invalid('max_tokens: Input should be greater than or equal to 0');
  const messages = checkMessages(body.messages, version);
  let system = '';
  if (body.system !== undefined) {
    if (typeof body.system !== 'string' && !Array.isArray(body.system)) throw invalid('system: Input should be a valid string');
    system = blocksText(body.system, 'system', 'system', version);
  }
  if (body.temperature !== undefined) {
    if (typeof body.temperature !== 'number') throw invalid('temperature: Input should be a valid number');
    if (body.temperature < 0) throw invalid('temperature: Input should be greater than or equal to 0');
    if (body.temperature > 1) throw invalid('temperature: Input should be less than or equal to 1');
  }
  if (body.stream !== undefined && typeof body.stream !== 'boolean') throw invalid('stream: Input should be a valid boolean');
  const schema = checkOutputConfig(body.output_config);
  const tools = checkTools(body.tools);
  const toolChoice = checkToolChoice(body.tool_choice, tools);
  // Extended thinking cannot be combined with a tool choice that forces tool use.
  if (isObject(body.thinking) && body.thinking.type !== 'disabled' && (toolChoice.type === 'required' || toolChoice.type === 'tool')) {
    throw invalid('Thinking may not be enabled when tool_choice forces tool use.');
  }
  return {
    protocol: 'anthropic',
    model,
    messages: system ? [{ role: 'system', content: system }, ...messages] : messages,
    schema,
    stream: body.stream === true,
    includeUsage: true,
    tools,
    toolChoice,
    maxTokens: body.max_tokens,
    choices: 1,
    apiVersion: version,
    body,
  };
}
