import { isRecord } from '../files/json-value.ts';

/**
 * A Dify workflow graph as the importer reads it: its nodes (an iteration's inner nodes kept
 * apart, under their iteration), its edges with the handle each leaves by (an if-else case, a
 * classifier class), and the copies a node is built in.
 *
 * Copies: Dify joins branches with a variable aggregator, which passes on whichever branch ran.
 * No step here reads "whichever ran" (a step whose input did not run is skipped), so what reads
 * an aggregator is built once per branch, each copy reading its own branch's value. A value's
 * `key` says which branch of which aggregator it belongs to; a node reading several values is
 * built once per compatible combination of their keys.
 */

export const text = (v: unknown) => (typeof v === 'string' ? v : '');

export interface DifyNode {
  id: string;
  type: string;
  title: string;
  data: Record<string, unknown>;
  position: { x: number; y: number };
  /** Index in the file's node list, for problem paths. */
  index: number;
  /** The iteration (or loop) this node is inside, or null at the top level. */
  parent: string | null;
}

export interface DifyEdge { source: string; target: string; handle: string }

/** Which branch of which aggregator a value came through: aggregator id → variable index. */
export type BranchKey = Record<string, number>;

/** A value a node made (a ref such as `steps.x`), in one copy of that node. */
export interface Variant { key: BranchKey; ref: string; after: string[] }

/** The copy a node is being built in: its branch key and the steps it follows (for its name). */
export interface Scope { key: BranchKey; after: string[] }

export const ROOT_SCOPE: Scope = { key: {}, after: [] };

/** Most copies of one node: past this the flow is refused rather than multiplied. */
export const MAX_COPIES = 8;

export function readNodes(graph: Record<string, unknown>): DifyNode[] {
  const raw = Array.isArray(graph.nodes) ? graph.nodes : [];
  return raw.map((n, index) => ({ n, index })).filter((e): e is { n: Record<string, unknown>; index: number } => isRecord(e.n)).map(({ n, index }) => {
    const data = isRecord(n.data) ? n.data : {};
    const p = isRecord(n.position) ? n.position : {};
    // Inside an iteration or a loop (Dify 1.x): kept under it, never a node of the flow itself.
    const parent = text(data.iteration_id) || text(data.loop_id) || (data.isInIteration === true || data.isInLoop === true ? text(n.parentId) : '');
    return { id: text(n.id), type: text(data.type), title: text(data.title) || text(n.id), data, position: { x: Number(p.x) || 0, y: Number(p.y) || 0 }, index, parent: parent || null };
  }).filter((n) => n.type !== 'custom-note' && n.type !== '');
}

export function readEdges(graph: Record<string, unknown>, has: (id: string) => boolean): DifyEdge[] {
  return (Array.isArray(graph.edges) ? graph.edges : []).filter(isRecord)
    .map((e) => ({ source: text(e.source), target: text(e.target), handle: text(e.sourceHandle) || 'source' }))
    .filter((e) => has(e.source) && has(e.target));
}

function compatible(a: BranchKey, b: BranchKey): boolean {
  return Object.keys(a).every((k) => !Object.hasOwn(b, k) || a[k] === b[k]);
}

/** The value of `variants` that belongs in `scope`, if one does. */
export function variantIn(variants: readonly Variant[] | undefined, scope: Scope): Variant | undefined {
  return variants?.find((v) => compatible(v.key, scope.key));
}

/**
 * Every scope a node reading these values is built in: one per compatible combination (a node
 * reading nothing from after a join is built once).
 */
export function scopesOf(lists: readonly (readonly Variant[])[]): Scope[] {
  let scopes: Scope[] = [ROOT_SCOPE];
  for (const list of lists) {
    // Two values of the same key give the same scope: keep one. Past the limit the caller refuses the node, so stop counting.
    const next = new Map<string, Scope>();
    for (const scope of scopes) {
      for (const v of list) {
        if (next.size > MAX_COPIES || !compatible(scope.key, v.key)) continue;
        const key = { ...scope.key, ...v.key };
        const id = JSON.stringify(Object.entries(key).sort());
        if (!next.has(id)) next.set(id, { key, after: [...new Set([...scope.after, ...v.after])] });
      }
    }
    scopes = [...next.values()];
  }
  return scopes;
}

/**
 * Nodes that run only on a branch: each comes after an if-else or classifier branch, or only
 * after such nodes (an aggregator joins the branches again, so it and what follows it do not).
 */
export function branchOnlyNodes(order: readonly DifyNode[], into: (id: string) => readonly DifyEdge[], byId: ReadonlyMap<string, DifyNode>): Set<string> {
  const only = new Set<string>();
  for (const n of order) {
    const incoming = into(n.id);
    if (isAggregator(n) || incoming.length === 0) continue;
    if (incoming.every((e) => BRANCHING.has(byId.get(e.source)?.type ?? '') || only.has(e.source))) only.add(n.id);
  }
  return only;
}

/** Node types whose outgoing edges are branches (one handle per case or class). */
export const BRANCHING = new Set(['if-else', 'question-classifier']);

/**
 * A variable aggregator; Dify 0.6 called it variable-assigner (the later assigner, which sets a
 * conversation variable, has no list of selectors).
 */
export function isAggregator(n: DifyNode): boolean {
  return n.type === 'variable-aggregator' || (n.type === 'variable-assigner' && Array.isArray(n.data.variables) && n.data.variables.every(Array.isArray));
}
