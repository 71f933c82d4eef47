import { CHAIN_FORMAT, CHAIN_VERSION, type Chain } from '../../chain/schema.ts';
import { stringifyForPrompt } from '../../chain/template.ts';
import type { ChatMessage } from '../../providers/types.ts';
import type { StepRegistry } from '../../steps/index.ts';
import type { LlmCall } from './conventions.ts';
import { isRecord } from '../../files/json-value.ts';

/**
 * The chain an imported trace never had: one `model` step per LLM call, in time order. A call
 * reads an earlier one (a binding, hence a boundary in the replay view) when the earlier
 * call's output text, or one top-level field of its JSON output rendered the way Seamscope
 * renders values into prompts, appears in the later call's messages. Otherwise the calls are
 * independent. The prompt is the recorded last user message with those reads turned back
 * into `{placeholders}`, so the chain parses and reads like the original template.
 */
export interface ImportedCallStep {
  id: string;
  name: string;
  call: LlmCall;
}

const MAX_TEMPLATE = 200_000;
const LOOK_BACK = 50;
const placeholderLike = /\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*)\}/g;
/** Recorded braces that look like placeholders would name nothing: `{x}` → `{ x }` keeps them literal. */
const neutralise = (text: string) => text.replace(placeholderLike, '{ $1 }');

/** Short needles must stand alone, so "yes" does not match inside "yesterday". */
export function contains(haystack: string, needle: string): boolean {
  if (needle.length < 4 || !haystack.includes(needle)) return false;
  if (needle.length >= 20) return true;
  const escaped = needle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^A-Za-z0-9_])${escaped}($|[^A-Za-z0-9_])`).test(haystack);
}

/** One read: a recorded producer output (its text, or one field of its JSON) found in a later call's input. */
export interface Read {
  binding: string;
  ref: string;
  /** The producer's text exactly as it appears in the consumer's messages. */
  needle: string;
  /** The output field it came from; absent when the whole text was read. */
  field?: string;
}

/**
 * What a later call read of an earlier one, as the trace shows it: the earlier output's text,
 * or a top-level field of its JSON output, verbatim in the later call's messages. The import
 * draws these as bindings; a rerun substitutes the new output at the same places.
 */
export function readsOf(producer: { id: string; text?: string; output?: unknown }, messages: readonly ChatMessage[]): Read[] {
  const seen = messages.map((m) => m.content);
  const has = (needle: string) => seen.some((text) => contains(text, needle));
  const text = producer.text?.trim();
  if (text && has(text)) return [{ binding: producer.id, ref: `steps.${producer.id}`, needle: text }];
  const output = producer.output;
  if (!isRecord(output)) return [];
  const reads: Read[] = [];
  for (const [field, value] of Object.entries(output)) {
    if (!/^[A-Za-z0-9_]{1,32}$/.test(field)) continue;
    const needle = stringifyForPrompt(value).trim();
    if (has(needle)) reads.push({ binding: `${producer.id}_${field}`, ref: `steps.${producer.id}.${field}`, needle, field });
  }
  return reads;
}

/**
 * The recorded text with each read replaced by its placeholder (first occurrence). Reads are
 * marked with private-use characters first, so neutralising literal braces cannot touch them.
 */
function template(text: string, reads: readonly Read[]): string {
  let marked = text;
  reads.forEach((r, i) => { marked = marked.replace(r.needle, `\uE000${i}\uE001`); });
  return neutralise(marked).replace(/\uE000(\d+)\uE001/g, (_, i: string) => `{${reads[Number(i)]?.binding ?? ''}}`);
}

export function buildSyntheticChain(steps: readonly ImportedCallStep[], registry: StepRegistry, info: { id: string; name: string; importedFrom: string[]; source?: string }): Chain {
  // The model kind's own config schema fills the defaults, so the chain parses as a model chain.
  const modelConfigSchema = registry.get('model')?.config;
  if (!modelConfigSchema) throw new Error('buildSyntheticChain: the registry has no "model" step kind');
  const built = steps.map((step, index) => {
    const names = new Set<string>();
    // Binding names are identifiers of at most 64 characters and unique per step.
    // Only the last LOOK_BACK calls are compared, so a file of thousands of calls stays fast.
    const reads = steps.slice(Math.max(0, index - LOOK_BACK), index).flatMap((producer) => readsOf({ id: producer.id, text: producer.call.text, output: producer.call.output }, step.call.messages))
      .map((r) => ({ ...r, binding: r.binding.slice(0, 64) }))
      .filter((r) => !names.has(r.binding) && names.add(r.binding));
    const messages = step.call.messages;
    const system = messages[0]?.role === 'system' ? messages[0].content : '';
    const last = [...messages].reverse().find((m) => m.role === 'user') ?? messages[messages.length - 1];
    const { call } = step;
    const parsed = modelConfigSchema.safeParse({
      bindings: Object.fromEntries(reads.map((r) => [r.binding, r.ref])),
      // Templates are capped at 200,000 characters; the attempt keeps the full recorded messages.
      system: neutralise(system).slice(0, MAX_TEMPLATE),
      prompt: template(last?.content ?? '', reads).slice(0, MAX_TEMPLATE),
      outputSchema: call.outputSchema ?? (call.structured ? {} : null),
      model: (call.model ?? '').slice(0, 200),
      ...(call.temperature !== undefined && call.temperature >= 0 && call.temperature <= 2 ? { temperature: call.temperature } : {}),
      ...(call.maxTokens !== undefined && call.maxTokens <= 1_000_000 ? { maxTokens: call.maxTokens } : {}),
      // The trace recorded what happened; it does not say what retry policy produced it.
      retries: 0,
      stream: call.stream,
    });
    const config = parsed.success ? parsed.data : modelConfigSchema.parse({ prompt: '' });
    if (!isRecord(config)) throw new Error('buildSyntheticChain: the model kind parsed its config to something other than an object');
    return { id: step.id, kind: 'model', name: step.name.slice(0, 200), position: { x: index * 280, y: 0 }, config };
  });
  return {
    format: CHAIN_FORMAT,
    version: CHAIN_VERSION,
    id: info.id,
    name: info.name.slice(0, 200),
    description: `Reconstructed from ${info.source ?? 'an imported OTLP trace'}: one model step per recorded LLM call. Prompts are the recorded messages; reads were inferred where one call's output appears in a later call's input.`,
    inputs: [],
    steps: built,
    meta: { importedFrom: info.importedFrom },
  };
}
