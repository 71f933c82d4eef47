import { setOwn } from '../chain/own.ts';

/** What the importers of other tools' flow files (Langflow, Flowise) share. */

/** An identifier from a display name: "OpenAI" → openai, "Chat Input" → chat_input; unique within `taken`. */
export function identifierFrom(name: string, fallback: string, taken: Set<string>): string {
  const base = (name.normalize('NFKD').replace(/[^\w\s]+/g, ' ').trim().toLowerCase().replace(/\s+/g, '_').replace(/^(\d)/, '_$1').slice(0, 56)) || fallback;
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}_${n}`;
  taken.add(id);
  return id;
}

/** Binds `ref` under `name`, or under `name_2`, `name_3`… when `name` already reads something else; the name used. */
export function bind(bindings: Record<string, string>, name: string, ref: string): string {
  let used = name;
  for (let n = 2; Object.hasOwn(bindings, used) && bindings[used] !== ref; n++) used = `${name}_${n}`;
  // Names come from the file: "__proto__" is stored as a key, as any other.
  setOwn(bindings, used, ref);
  return used;
}

/**
 * Other tools draw bigger cards further apart: each flow keeps its arrangement, scaled to this
 * canvas's density and moved to the origin.
 */
export function placeAtCanvasDensity(steps: Record<string, unknown>[], scale: number): void {
  const placed = steps.map((step) => step.position as { x: number; y: number });
  const minX = Math.min(...placed.map((p) => p.x));
  const minY = Math.min(...placed.map((p) => p.y));
  for (const step of steps) {
    const p = step.position as { x: number; y: number };
    step.position = { x: Math.round((p.x - minX) * scale), y: Math.round((p.y - minY) * scale) };
  }
}
