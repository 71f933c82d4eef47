import type { Scrubber } from './scrub.ts';

/**
 * The provider interface: every model endpoint (OpenAI-compatible, Anthropic, the offline
 * demo model) is reached through this, so the engine never knows which one it talks to.
 * Network access only goes through the injected `fetch`, so the same code runs in a tab,
 * in Node tests and in the CLI.
 */

export type ChatRole = 'system' | 'user' | 'assistant';

export interface ChatMessage {
  role: ChatRole;
  content: string;
}

/** A JSON Schema the output must satisfy, sent as structured output where supported. */
export interface OutputContract {
  name: string;
  schema: Record<string, unknown>;
  /** True when the schema meets the strict-mode rules (all properties required, no extra keys). */
  strict: boolean;
}

/** A tool the model may call: its arguments must satisfy `parameters` (a JSON Schema object). */
export interface ToolSpec {
  name: string;
  description?: string;
  parameters: Record<string, unknown>;
  /** OpenAI strict mode for the arguments (the schema must meet the strict-mode rules). */
  strict?: boolean;
}

/**
 * Whether the model must call a tool: `auto` lets it answer in text, `required` makes it call
 * one of the tools (Anthropic `any`), `{name}` makes it call that tool, `none` lets it call none
 * of the tools it is shown (a rerun of a recorded call that chose so).
 */
export type ToolChoice = 'auto' | 'required' | 'none' | { name: string };

/**
 * Sampling settings beyond the temperature, as a recorded call set them (a rerun sends them
 * again). Each provider sends those its protocol has and leaves the rest out; a rerun checks
 * the body it built and names what was left out.
 */
export interface Sampling {
  topP?: number;
  topK?: number;
  seed?: number;
  stop?: string[];
  frequencyPenalty?: number;
  presencePenalty?: number;
}

export interface ModelRequest {
  model: string;
  messages: ChatMessage[];
  maxTokens: number;
  temperature?: number;
  contract?: OutputContract;
  stream?: boolean;
  tools?: ToolSpec[];
  toolChoice?: ToolChoice;
  sampling?: Sampling;
  /** JSON without a schema (OpenAI's `json_object`), for a rerun of a call that asked for it; ignored beside a contract. */
  jsonMode?: boolean;
}

/** Why the model stopped, normalised across protocols. */
export type FinishReason = 'stop' | 'length' | 'refusal' | 'content_filter' | 'tool_calls' | 'other';

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  /** Input tokens served from the provider's prompt cache, when it reports them. */
  cachedInputTokens?: number;
  /** Output tokens spent on hidden reasoning, when the provider reports them. */
  reasoningTokens?: number;
}

/**
 * A tool call the model made, normalised across protocols: OpenAI `tool_calls`
 * (arguments arrive as a JSON string) and Anthropic `tool_use` blocks (input arrives as an
 * object, or as `input_json_delta` fragments when streaming). `arguments` is always the JSON
 * text as the model wrote it, so a malformed call is kept for the trace rather than lost.
 */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

export interface ModelResponse {
  text: string;
  finishReason: FinishReason;
  /** The provider's own word for it (`finish_reason` or `stop_reason`), for the trace. */
  rawFinishReason: string | null;
  usage: TokenUsage;
  /** Tool calls in the reply, in order; absent when there were none. */
  toolCalls?: ToolCall[];
  /** Reasoning text the provider returned beside the answer (e.g. DeepSeek `reasoning_content`). */
  reasoning?: string;
  /** The exact JSON body sent to the endpoint (never includes the key: it travels in a header). */
  requestBody: unknown;
  /** The parsed response body, or for streams the list of event payloads. */
  rawResponse: unknown;
  status: number;
  model: string;
}

export interface CallContext {
  fetch: typeof fetch;
  signal?: AbortSignal;
  /** Called with each text delta while streaming, so the UI can show partial output. */
  onDelta?: (text: string) => void;
}

export interface ModelProvider {
  /** Stable id for the trace, e.g. `openai`, `anthropic`, `demo`. */
  readonly kind: string;
  /**
   * Scrubs this provider's key (held in its closure, never exposed) and key shapes from what
   * it returns; the engine applies it before anything becomes a record. Absent: shapes only.
   */
  readonly scrubber?: Scrubber;
  call(request: ModelRequest, ctx: CallContext): Promise<ModelResponse>;
}
