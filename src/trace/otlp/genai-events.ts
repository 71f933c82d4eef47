import { isRecord } from '../../files/json-value.ts';
import { parseJsonValue } from './guard.ts';
import type { SpanEventLike } from './conventions.ts';

/**
 * Content in the GenAI *event* shape (semantic conventions up to 1.36): one event per message,
 * `gen_ai.system.message`, `gen_ai.user.message`, `gen_ai.assistant.message`,
 * `gen_ai.tool.message`, and `gen_ai.choice` per reply. Instrumentations put them as span
 * events, or, like pydantic-ai (logfire), as one `events` attribute holding their bodies as
 * JSON. Both come back here as the GenAI-shaped messages the rest of the mapper reads.
 */
const ROLE_OF_EVENT: Record<string, string> = {
  'gen_ai.system.message': 'system', 'gen_ai.user.message': 'user', 'gen_ai.assistant.message': 'assistant', 'gen_ai.tool.message': 'tool',
};

interface EventBody {
  name: string;
  body: Record<string, unknown>;
}

/** Span events and `events`-attribute items, in order, with their bodies (JSON text values parsed). */
function eventBodies(attrEvents: unknown, spanEvents: readonly SpanEventLike[]): EventBody[] {
  const out: EventBody[] = [];
  const list = typeof attrEvents === 'string' ? parseJsonValue(attrEvents) : attrEvents;
  if (Array.isArray(list)) {
    for (const item of list) if (isRecord(item) && typeof item['event.name'] === 'string') out.push({ name: item['event.name'], body: item });
  }
  for (const e of spanEvents) {
    if (!(e.name in ROLE_OF_EVENT) && e.name !== 'gen_ai.choice') continue;
    const body: Record<string, unknown> = { ...e.attrs };
    // Span event attributes are flat: nested values arrive as JSON text. Only a list or an
    // object is taken as JSON; "42" or "true" as content is text the model was sent.
    for (const key of ['message', 'tool_calls', 'content']) {
      const parsed = typeof body[key] === 'string' ? parseJsonValue(body[key]) : undefined;
      if (parsed !== null && typeof parsed === 'object') body[key] = parsed;
    }
    out.push({ name: e.name, body });
  }
  return out;
}

/** The request messages, or null when there are no message events. */
export function eventMessages(attrEvents: unknown, spanEvents: readonly SpanEventLike[]): Record<string, unknown>[] | null {
  const messages = eventBodies(attrEvents, spanEvents).filter((e) => e.name in ROLE_OF_EVENT)
    .map((e) => ({ ...e.body, role: typeof e.body.role === 'string' ? e.body.role : ROLE_OF_EVENT[e.name] }));
  return messages.length > 0 ? messages : null;
}

/** The reply choices (`message` plus `finish_reason`) as output messages, or null when there are none. */
export function eventChoices(attrEvents: unknown, spanEvents: readonly SpanEventLike[]): Record<string, unknown>[] | null {
  const choices = eventBodies(attrEvents, spanEvents).filter((e) => e.name === 'gen_ai.choice').map((e) => {
    const message = isRecord(e.body.message) ? e.body.message : {};
    return { role: 'assistant', ...message, ...(typeof e.body.finish_reason === 'string' ? { finish_reason: e.body.finish_reason } : {}) };
  });
  return choices.length > 0 ? choices : null;
}
