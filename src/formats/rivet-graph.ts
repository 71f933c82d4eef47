import { isRecord } from '../files/json-value.ts';

/**
 * A Rivet project (`.rivet-project`, YAML `version: 4`) read as graphs of nodes: each node is
 * keyed `[id]:type "Title"`, and each lists its outgoing connections as
 * `port->"Target title" targetId/targetPort`. Nothing here decides what a node becomes (rivet.ts).
 */

export interface RivetNode {
  id: string;
  type: string;
  title: string;
  data: Record<string, unknown>;
  position: { x: number; y: number };
  /** Where the node sits in the file, for problems' paths. */
  key: string;
}

export interface RivetEdge { from: string; fromPort: string; to: string; toPort: string }

export interface RivetGraph { id: string; name: string; nodes: RivetNode[]; edges: RivetEdge[] }

const NODE_KEY = /^\[([^\]]+)\]:(\w+) "(.*)"$/s;
const CONNECTION = /^(.+?)->"(.*)" (\S+)\/(.+)$/s;

const text = (value: unknown) => (typeof value === 'string' ? value : '');

function positionOf(visual: unknown): { x: number; y: number } {
  const [x, y] = text(visual).split('/').map(Number);
  return { x: Number.isFinite(x) ? (x as number) : 0, y: Number.isFinite(y) ? (y as number) : 0 };
}

function readGraph(id: string, raw: Record<string, unknown>): RivetGraph {
  const metadata = isRecord(raw.metadata) ? raw.metadata : {};
  const nodes: RivetNode[] = [];
  const edges: RivetEdge[] = [];
  for (const [key, value] of Object.entries(isRecord(raw.nodes) ? raw.nodes : {})) {
    const m = NODE_KEY.exec(key);
    if (!m || !isRecord(value)) continue;
    const node = { id: m[1] as string, type: m[2] as string, title: m[3] as string, data: isRecord(value.data) ? value.data : {}, position: positionOf(value.visualData), key };
    nodes.push(node);
    for (const c of Array.isArray(value.outgoingConnections) ? value.outgoingConnections : []) {
      const e = CONNECTION.exec(text(c));
      if (e) edges.push({ from: node.id, fromPort: e[1] as string, to: e[3] as string, toPort: e[4] as string });
    }
  }
  const known = new Set(nodes.map((n) => n.id));
  return { id, name: text(metadata.name) || id, nodes, edges: edges.filter((e) => known.has(e.to)) };
}

/** Every graph of the project, in file order, and the one Rivet runs (`mainGraphId`, else null). */
export function readProject(project: unknown): { graphs: RivetGraph[]; mainGraphId: string | null; title: string } | null {
  const data = isRecord(project) && isRecord(project.data) ? project.data : null;
  if (!data || !isRecord(data.graphs)) return null;
  const metadata = isRecord(data.metadata) ? data.metadata : isRecord(project) && isRecord(project.metadata) ? project.metadata : {};
  const graphs = Object.entries(data.graphs).filter((e): e is [string, Record<string, unknown>] => isRecord(e[1])).map(([id, g]) => readGraph(id, g));
  return { graphs, mainGraphId: text(metadata.mainGraphId) || null, title: text(metadata.title) };
}
