import { setOwn } from '../chain/own.ts';
import { MAX_CHAIN_BYTES } from '../chain/parse.ts';
import { isRecord } from '../files/json-value.ts';
import type { SniffInput } from './format.ts';
import { fileKind } from './program.ts';

/** What the importers of other tools' flow files (Langflow, Flowise, n8n) share. */

/**
 * The JSON object of another tool's file, or null: a JSON file within the chain file size bound
 * whose text has `marker` (a cheap test before the parse) and is not one of Seamscope's own files.
 */
export function foreignJson(file: SniffInput, marker: RegExp): Record<string, unknown> | null {
  const { name, text } = file;
  if (fileKind(text, name) !== 'chain' || text.length > MAX_CHAIN_BYTES || /"format"\s*:\s*"seamscope\./.test(text.slice(0, 4096)) || !marker.test(text)) return null;
  const value = file.json();
  return isRecord(value) ? value : null;
}

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

/** Edges by the node they leave and the node they enter, so each lookup costs its own edges, not the file's. */
export function edgesByNode<E extends { source: string; target: string }>(edges: readonly E[]): { from: (id: string) => readonly E[]; to: (id: string) => readonly E[] } {
  const from = new Map<string, E[]>();
  const to = new Map<string, E[]>();
  for (const e of edges) {
    (from.get(e.source) ?? from.set(e.source, []).get(e.source))?.push(e);
    (to.get(e.target) ?? to.set(e.target, []).get(e.target))?.push(e);
  }
  return { from: (id) => from.get(id) ?? [], to: (id) => to.get(id) ?? [] };
}

/**
 * The nodes in an order where each comes after every node with an edge into it (depth first,
 * without recursion, so a long path in a file cannot exhaust the stack). A node met again while
 * its own sources are open is on a cycle: `onCycle` hears of it once and the order goes on.
 */
export function orderByEdges<N extends { id: string }>(nodes: readonly N[], sourcesOf: (id: string) => readonly N[], onCycle: (node: N) => void): N[] {
  const order: N[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const reported = new Set<string>();
  for (const root of nodes) {
    if (state.has(root.id)) continue;
    const stack: { node: N; next: number; sources: readonly N[] }[] = [{ node: root, next: 0, sources: sourcesOf(root.id) }];
    state.set(root.id, 'open');
    while (stack.length > 0) {
      const top = stack[stack.length - 1] as (typeof stack)[number];
      const source = top.sources[top.next++];
      if (source === undefined) {
        stack.pop();
        state.set(top.node.id, 'done');
        order.push(top.node);
      } else if (state.get(source.id) === 'open') {
        if (!reported.has(top.node.id)) onCycle(top.node);
        reported.add(top.node.id);
      }
      else if (!state.has(source.id)) {
        state.set(source.id, 'open');
        stack.push({ node: source, next: 0, sources: sourcesOf(source.id) });
      }
    }
  }
  return order;
}
