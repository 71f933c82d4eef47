import * as z from '../chain/zod-mini.ts';
import { refSchema } from '../chain/schema.ts';

/** Binding name → ref. The name is what the step's template uses: `{document}`. */
export const bindingsSchema = z.record(
  z.string().check(z.regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'binding names must be identifiers')),
  refSchema,
);

const noBindings = (): Record<string, string> => ({});

/** A config's `bindings`, empty by default. */
export const bindingsField = () => z._default(bindingsSchema, noBindings);

/**
 * What a step does once its retries are spent. The default is `abort`: never continue on
 * output known to be bad. `fallback:<stepId>` runs that step in its place (e.g. the
 * single-call path).
 */
export const onFailSchema = z._default(
  z.string().check(z.regex(/^(abort|abstain|escalate|fallback:[A-Za-z_][A-Za-z0-9_]*)$/, 'must be abort, abstain, escalate or fallback:<stepId>')),
  'abort',
);

export function fallbackTarget(onFail: string): string | null {
  return onFail.startsWith('fallback:') ? onFail.slice('fallback:'.length) : null;
}
