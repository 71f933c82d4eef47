import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';

/**
 * Test access to the copied protocol corpus (src/testing/corpus/, see its README): raw
 * recorded files and validators compiled from the corpus JSON Schemas, so our own mock and
 * parsers are checked against shapes nobody on the team wrote.
 */

export function corpusPath(relative: string): string {
  return fileURLToPath(new URL(`./corpus/${relative}`, import.meta.url));
}

export function readCorpus(relative: string): string {
  return readFileSync(corpusPath(relative), 'utf8');
}

/** Wraps `.chunks.jsonl` payloads back into Anthropic SSE (the recorder dropped `event:` lines). */
export function jsonlToAnthropicSse(jsonl: string): string {
  return jsonl
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => `event: ${(JSON.parse(line) as { type: string }).type}\ndata: ${line}\n\n`)
    .join('');
}

export interface Validator {
  (value: unknown): boolean;
  errors(): string;
}

function validator(fn: ValidateFunction): Validator {
  const v = ((value: unknown) => fn(value)) as Validator;
  v.errors = () => JSON.stringify(fn.errors ?? [], null, 1).slice(0, 2000);
  return v;
}

export interface ProtocolValidators {
  openai: { request: Validator; response: Validator; chunk: Validator; error: Validator };
  anthropic: { request: Validator; message: Validator; event: Validator; error: Validator };
}

let cached: ProtocolValidators | undefined;

export function protocolValidators(): ProtocolValidators {
  if (cached) return cached;
  // strict:false because the extracted schemas keep OpenAPI annotations (x-*, deprecated…).
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addFormat('unixtime', true);
  ajv.addFormat('uri', true);
  const openai = JSON.parse(readCorpus('openai-chat-completions.schema.json')) as Record<string, unknown>;
  const anthropic = JSON.parse(readCorpus('anthropic-messages.schema.json')) as Record<string, unknown>;
  ajv.addSchema({ ...openai, $id: 'openai.json' });
  ajv.addSchema({ ...anthropic, $id: 'anthropic.json' });
  const get = (ref: string) => validator(ajv.compile({ $ref: ref }));
  cached = {
    openai: {
      request: get('openai.json#/$defs/CreateChatCompletionRequest'),
      response: get('openai.json#/$defs/CreateChatCompletionResponse'),
      chunk: get('openai.json#/$defs/CreateChatCompletionStreamResponse'),
      error: get('openai.json#/$defs/ErrorResponse'),
    },
    anthropic: {
      request: get('anthropic.json#/$defs/MessageCreateParams'),
      message: get('anthropic.json#/$defs/Message'),
      event: get('anthropic.json#/$defs/StreamEvent'),
      error: get('anthropic.json#/$defs/ErrorResponse'),
    },
  };
  return cached;
}
