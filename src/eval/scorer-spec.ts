import * as z from 'zod';

/**
 * The scorers a dataset or the command line may name. A path is dotted into the output
 * (`answer`, `items.0.id`); without one the whole output is scored. A judge is a chain used as
 * scorer (a model step asked "is this right?"), named by its id or file; its calls are counted
 * apart from the variant's.
 */
const path = z.string().max(500).regex(/^[^.]+(\.[^.]+)*$/, 'a dotted path such as answer or items.0.id').optional();

export const scorerSpecSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('facts') }).strict(),
  z.object({ type: z.literal('exact'), path }).strict(),
  z.object({ type: z.literal('contains'), path, text: z.string().max(10_000).optional() }).strict(),
  z.object({ type: z.literal('number'), path, tolerance: z.number().nonnegative().finite().optional() }).strict(),
  z.object({ type: z.literal('json-field'), path: z.string().min(1).max(500) }).strict(),
  z.object({ type: z.literal('regex'), pattern: z.string().min(1).max(2_000), path }).strict(),
  z.object({ type: z.literal('route') }).strict(),
  z.object({ type: z.literal('abstain') }).strict(),
  z.object({ type: z.literal('judge'), chain: z.string().min(1).max(500), path }).strict(),
]);

export type ScorerSpec = z.infer<typeof scorerSpecSchema>;

/**
 * A scorer as written on the command line: `facts`, `exact[:path]`, `contains[:path]`,
 * `number[:path]`, `json-field:path`, `regex:PATTERN`, `route`, `abstain`, `judge:CHAIN` (a chain file or id).
 */
export function parseScorerArg(arg: string): { ok: true; spec: ScorerSpec } | { ok: false; message: string } {
  const at = arg.indexOf(':');
  const type = at < 0 ? arg : arg.slice(0, at);
  const rest = at < 0 ? undefined : arg.slice(at + 1);
  const raw = type === 'regex' ? { type, pattern: rest } : type === 'judge' ? { type, chain: rest } : type === 'json-field' ? { type, path: rest } : rest !== undefined ? { type, path: rest } : { type };
  const parsed = scorerSpecSchema.safeParse(raw);
  if (parsed.success) return { ok: true, spec: parsed.data };
  const issue = parsed.error.issues[0];
  return { ok: false, message: `--scorer ${arg}: ${issue?.path.length ? `${issue.path.join('.')} ` : ''}${issue?.message ?? 'invalid'} (scorers: facts, exact[:path], contains[:path], number[:path], json-field:path, regex:PATTERN, route, abstain, judge:CHAIN)` };
}
