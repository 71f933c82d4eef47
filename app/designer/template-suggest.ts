import { chainEdges } from '../../src/chain/index.ts';
import { parseRef } from '../../src/chain/index.ts';
import type { Chain, StepDef } from '../../src/chain/index.ts';
import type { StepRegistry } from '../../src/steps/index.ts';
import { canvasRegistry } from './canvas-registry.ts';

/**
 * What `{` can complete to in a step's prompt template: its bindings, the fields of what they
 * read (from the upstream step's output schema or the input's schema), extra template names the
 * kind provides, and chain inputs and upstream steps not read yet (picking one adds the binding).
 */
export interface Suggestion {
  /** The placeholder text without braces, e.g. `facts` or `select.relevant_sections`. */
  name: string;
  detail: string;
  /** A binding to add when this is picked (the step does not read it yet). */
  addBinding?: { name: string; ref: string };
}

type Schema = { type?: unknown; properties?: Record<string, unknown>; items?: unknown };

function schemaAt(schema: unknown, path: readonly string[]): Schema | null {
  let node = schema as Schema | null;
  for (const key of path) {
    if (!node || typeof node !== 'object') return null;
    node = /^\d+$/.test(key) ? (node.items as Schema | null) ?? null : ((node.properties?.[key] as Schema | undefined) ?? null);
  }
  return node && typeof node === 'object' ? node : null;
}

const typeName = (s: unknown) => {
  const t = (s as Schema | null)?.type;
  return Array.isArray(t) ? t.join('|') : typeof t === 'string' ? t : 'any';
};

/** `prefix.field` entries for an object schema's properties, one level and their children. */
function fieldsOf(schema: Schema | null, prefix: string, depth = 2): { name: string; type: string }[] {
  if (!schema?.properties || depth === 0) return [];
  return Object.entries(schema.properties).flatMap(([key, child]) => [
    { name: `${prefix}.${key}`, type: typeName(child) },
    ...fieldsOf(child as Schema, `${prefix}.${key}`, depth - 1),
  ]);
}

function outputSchemaOf(step: StepDef | undefined, registry: StepRegistry): unknown {
  const def = step && registry.get(step.kind);
  const parsed = def?.config.safeParse(step?.config);
  return def && parsed?.success ? def.outputSchema(parsed.data) : null;
}

/** Steps this one may read without making a cycle: everything not downstream of it. */
export function upstreamOf(chain: Chain, stepId: string, registry: StepRegistry = canvasRegistry): string[] {
  const out = new Map<string, string[]>();
  for (const e of chainEdges(chain, registry)) out.set(e.source, [...(out.get(e.source) ?? []), e.target]);
  const downstream = new Set([stepId]);
  const queue = [stepId];
  while (queue.length) {
    for (const next of out.get(queue.shift() as string) ?? []) {
      if (!downstream.has(next)) {
        downstream.add(next);
        queue.push(next);
      }
    }
  }
  return chain.steps.map((s) => s.id).filter((id) => !downstream.has(id));
}

export function templateSuggestions(chain: Chain, step: StepDef, bindings: Record<string, string>, registry: StepRegistry = canvasRegistry): Suggestion[] {
  const byId = new Map(chain.steps.map((s) => [s.id, s]));
  const out: Suggestion[] = [];
  const read = new Set<string>();
  for (const [name, ref] of Object.entries(bindings)) {
    read.add(ref);
    let parsed;
    try {
      parsed = parseRef(ref);
    } catch {
      continue;
    }
    const schema = parsed.root === 'steps' ? outputSchemaOf(byId.get(parsed.name), registry) : chain.inputs.find((i) => i.name === parsed.name)?.schema;
    const node = schemaAt(schema, parsed.path);
    out.push({ name, detail: `${ref}${node ? ` · ${typeName(node)}` : ''}` });
    for (const f of fieldsOf(node, name)) out.push({ name: f.name, detail: `${ref}${f.name.slice(name.length)} · ${f.type}` });
  }
  const def = registry.get(step.kind);
  const parsed = def?.config.safeParse(step.config);
  if (def?.templateNames && parsed?.success) for (const name of def.templateNames(parsed.data)) out.push({ name, detail: `provided by this ${def.title.toLowerCase()} step` });
  const taken = new Set(out.map((s) => s.name.split('.')[0]));
  const fresh = (base: string) => {
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base}_${n}`;
    return name;
  };
  if (Object.prototype.hasOwnProperty.call(def?.fields.find((f) => f.kind === 'bindings') ?? {}, 'key')) {
    for (const input of chain.inputs) {
      const ref = `inputs.${input.name}`;
      if (read.has(ref)) continue;
      const name = fresh(input.name);
      out.push({ name, detail: `chain input · adds the binding ${name} ← ${ref}`, addBinding: { name, ref } });
    }
    for (const id of upstreamOf(chain, step.id, registry)) {
      const ref = `steps.${id}`;
      if (read.has(ref)) continue;
      const name = fresh(id);
      const schema = outputSchemaOf(byId.get(id), registry) as Schema | null;
      out.push({ name, detail: `output of ${id} · adds the binding`, addBinding: { name, ref } });
      for (const f of fieldsOf(schema, name, 1)) out.push({ name: f.name, detail: `${ref}${f.name.slice(name.length)} · ${f.type} · adds the binding`, addBinding: { name, ref } });
    }
  }
  return out;
}

/** Suggestions matching what was typed after `{`: prefix matches first, then any that contain it. */
export function filterSuggestions(all: readonly Suggestion[], query: string, limit = 12): Suggestion[] {
  const q = query.toLowerCase();
  const starts = all.filter((s) => s.name.toLowerCase().startsWith(q));
  const contains = q ? all.filter((s) => !s.name.toLowerCase().startsWith(q) && s.name.toLowerCase().includes(q)) : [];
  return [...starts, ...contains].slice(0, limit);
}

/** The open `{query` right before the caret, if the caret is inside an unfinished placeholder. */
export function openPlaceholder(text: string, caret: number): { start: number; query: string } | null {
  const match = /\{([A-Za-z0-9_.]*)$/.exec(text.slice(0, caret));
  return match ? { start: match.index, query: match[1] ?? '' } : null;
}

/** Replaces `{query` (and a `}` right after the caret) with `{name}`; returns the text and the caret after it. */
export function acceptSuggestion(text: string, caret: number, start: number, name: string): { text: string; caret: number } {
  const rest = text.slice(caret).replace(/^[A-Za-z0-9_.]*\}?/, '');
  const inserted = `{${name}}`;
  return { text: text.slice(0, start) + inserted + rest, caret: start + inserted.length };
}
