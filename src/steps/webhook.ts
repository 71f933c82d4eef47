import { lazyModule } from './lazy-module.ts';
import * as z from '../chain/zod-mini.ts';
import { bindingsField } from './common.ts';
import { defineStep } from './types.ts';

const webhookRun = lazyModule(() => import('./webhook-run.ts'));

/**
 * A terminal with a side effect: POSTs the result to a URL. It carries an idempotency key
 * derived from the run and step ids, so retries and resumes of the same run send the same key
 * and the receiver can drop duplicates (side effects at the end, idempotent). The POST
 * itself is in webhook-run.ts, loaded on the first run.
 */
/**
 * Header names that carry credentials. A chain file is shared and exported, so a secret in it
 * is a leaked secret: credentials come from endpoint profiles only, never from a chain.
 */
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key', 'api-key']);
const CREDENTIAL_WORDS = /token|secret|key|auth/i;

/** Why this header name may not be in a chain file, or null when it may. */
export function credentialHeaderProblem(name: string): string | null {
  if (CREDENTIAL_HEADERS.has(name.toLowerCase()) || CREDENTIAL_WORDS.test(name)) {
    return `"${name}" carries credentials; a chain file is shared and exported, so secrets come from endpoint profiles only`;
  }
  return null;
}

/**
 * Why a header value cannot be sent as written, or null when it can. `fetch` refuses control
 * characters and characters past U+00FF and trims surrounding spaces and tabs, while Python's
 * urllib sends some controls and keeps the spaces: a value either refuses would make the engine
 * and the exported programs post different headers (or one of them fail), so none is allowed.
 */
export function headerValueProblem(value: string): string | null {
  const bad = /[^\t\x20-\x7e\x80-\xff]/.exec(value);
  if (bad) return `has a character a header cannot carry (U+${(bad[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}); header values are printable Latin-1 text`;
  if (/^[\t ]|[\t ]$/.test(value)) return 'starts or ends with a space or tab, which HTTP drops: write the value without it';
  return null;
}

// Checked over the record, not per key: zod reports a bad record key only as "Invalid key".
const headersSchema = z.record(z.string().check(z.regex(/^[A-Za-z0-9-]{1,64}$/)), z.string().check(z.maxLength(500))).check(z.superRefine((headers, ctx) => {
  for (const [name, value] of Object.entries(headers)) {
    const problem = credentialHeaderProblem(name) ?? headerValueProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', path: [name], message: problem });
  }
}));

/** A URL a chain may post to: http(s), and no user:password in it (that would be a secret in the file). */
const webhookUrl = z.string().check(z.maxLength(2000), z.regex(/^https?:\/\//, 'must be an http(s) URL'), z.superRefine((url, ctx) => {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return ctx.addIssue({ code: 'custom', message: 'is not a valid URL' });
  }
  if (parsed.username || parsed.password) ctx.addIssue({ code: 'custom', message: 'has a user name or password in it; credentials never go in a chain file' });
}));

/**
 * The URL a webhook POST goes to: as the WHATWG URL parser writes it (spaces, quotes and
 * non-ASCII percent-encoded, dot segments resolved), without the fragment. That is what `fetch`
 * sends; the exported programs are given it as well, since Python's urllib sends a URL as
 * written (and refuses one with a space in it).
 */
export function webhookRequestUrl(url: string): string {
  const parsed = new URL(url);
  parsed.hash = '';
  return parsed.href;
}

export const webhookConfigSchema = z.object({
  bindings: bindingsField(),
  url: z._default(webhookUrl, 'http://127.0.0.1:9000/hook'),
  /** Plain headers (never secrets: chain files are shared and exported). */
  headers: z._default(headersSchema, () => ({}) as Record<string, string>),
});
export type WebhookConfig = z.infer<typeof webhookConfigSchema>;

export const webhookStep = defineStep<'webhook', WebhookConfig>({
  kind: 'webhook',
  title: 'Webhook',
  group: 'Terminal',
  description: 'Ends the run by sending the result to a URL, with an idempotency key stable across retries and resumes.',
  config: webhookConfigSchema,
  defaults: () => webhookConfigSchema.parse({}),
  bindings: (cfg) => cfg.bindings,
  expectedBindings: () => [{ name: 'value', required: true, connect: 'the result to send' }],
  branches: () => [],
  egress: (cfg) => [cfg.url],
  terminal: true,
  produces: { by: 'code' },
  // The URL as the engine's fetch sends it, so both programs post to the same place.
  python: { form: 'call', spec: 'WebhookSpec', method: 'webhook', fields: (cfg) => ({ url: webhookRequestUrl(cfg.url), headers: cfg.headers }) },
  fields: [
    { kind: 'bindings', key: 'bindings', label: 'Sends (value)' },
    { kind: 'text', key: 'url', label: 'URL' },
    { kind: 'json', key: 'headers', label: 'Headers (no secrets)' },
  ],
  summary: (cfg) => [`POST ${cfg.url}`, 'idempotent per run'],
  outputSchema: () => ({ type: 'object', properties: { status: { type: 'integer' }, idempotency_key: { type: 'string' } } }),
  async run(ctx) {
    const { postWebhook } = await webhookRun();
    return postWebhook(ctx);
  },
});
