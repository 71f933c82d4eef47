import { identifierFrom } from './flow-common.ts';
import type { RouteLabel } from './dify-branch.ts';
import { variantIn, type DifyEdge, type DifyNode, type Scope, type Variant } from './dify-graph.ts';
import type { FidelityReport } from './fidelity.ts';

/**
 * A Dify import's branches, once every node is built: each route goes to the step the node on
 * its branch became, and every node Dify runs only on a branch is checked to run only there.
 */

/** An if-else handle as Dify's editor shows it: IF, ELSE, or a later case by its id. */
export const branchName = (handle: string) => (handle === 'true' ? 'IF' : handle === 'false' ? 'ELSE' : `case ${handle}`);

/** A router built for a node, its routes to fill once the nodes its branches go to are built. */
export interface PendingRouter { config: Record<string, unknown>; node: DifyNode; scope: Scope; labels: RouteLabel[]; otherwise: string | null }

export interface RouteContext {
  steps: Record<string, unknown>[];
  taken: Set<string>;
  byNode: { from: (id: string) => readonly DifyEdge[] };
  byId: ReadonlyMap<string, DifyNode>;
  entryOf: ReadonlyMap<string, Variant[]>;
  report: FidelityReport;
  refuse: (n: DifyNode, message: string) => void;
  named: (n: DifyNode) => string;
}

/**
 * Each branch goes to the step the node on it became (in the router's own copy); a branch Dify
 * draws to nothing ends in an output of its own, returning the value the router read.
 */
export function resolveRoutes(pending: readonly PendingRouter[], c: RouteContext): void {
  for (const p of pending) {
    const config = p.config as { bindings: { value: string }; routes: unknown[]; defaultTo: string | null };
    const target = (handle: string, label: string): string | null => {
      const out = c.byNode.from(p.node.id).filter((e) => e.handle === handle);
      if (out.length > 1) {
        c.refuse(p.node, `${c.named(p.node)}: its branch ${label} leads to ${out.length} nodes; a route goes to one step`);
        return null;
      }
      const next = out[0] ? c.byId.get(out[0].target) : undefined;
      if (!next) {
        const id = identifierFrom(`${p.node.title} ${label}`, 'output', c.taken);
        c.steps.push({ id, kind: 'output', name: `${p.node.title}: ${label}`, position: { x: p.node.position.x + 300, y: p.node.position.y + 120 }, config: { bindings: { value: config.bindings.value } } });
        c.report.changed.push({ where: c.named(p.node), what: `the branch ${label}`, why: 'Dify draws it to nothing (the workflow ends with no output there); here it ends in an output returning the value the router read' });
        return id;
      }
      const entry = variantIn(c.entryOf.get(next.id), p.scope);
      if (!entry) c.refuse(p.node, `${c.named(p.node)}: its branch ${label} goes to ${c.named(next)}, which no step stands for (a branch straight into an aggregator has nothing on it to pass on)`);
      return entry?.ref ?? null;
    };
    // Several labels may take one branch: it is resolved (and, drawn to nothing, given its output) once.
    const resolved = new Map<string, string | null>();
    const to = (handle: string, label: string) => {
      if (!resolved.has(handle)) resolved.set(handle, target(handle, p.node.type === 'if-else' ? branchName(handle) : label));
      return resolved.get(handle) ?? null;
    };
    config.routes = p.labels.map((l) => (l.when === 'empty' ? { when: l.when, to: to(l.handle, l.label), label: l.label } : { equals: l.equals, to: to(l.handle, l.label), label: l.label }));
    config.defaultTo = p.otherwise === null ? null : to(p.otherwise, 'ELSE');
  }
}

/**
 * A step runs here when what it reads is there, not because an edge was drawn to it: a node
 * Dify runs only on a branch must be the branch's step or read what the branch made, or it
 * would run on every branch.
 */
export function checkBranchesGate(steps: readonly Record<string, unknown>[], branchOnly: ReadonlySet<string>, stepsOf: ReadonlyMap<string, string[]>, byId: ReadonlyMap<string, DifyNode>, refuse: (n: DifyNode, message: string) => void, named: (n: DifyNode) => string): void {
  const gated = new Set<string>();
  for (const s of steps) {
    const config = s.config as { routes?: { to: string }[]; defaultTo?: string | null };
    for (const r of config.routes ?? []) gated.add(r.to);
    if (config.defaultTo) gated.add(config.defaultTo);
  }
  for (let grew = true; grew; ) {
    grew = false;
    for (const s of steps) {
      const bindings = (s.config as { bindings?: Record<string, string> }).bindings ?? {};
      if (!gated.has(s.id as string) && Object.values(bindings).some((ref) => gated.has(ref.split('.')[1] ?? '') && ref.startsWith('steps.'))) {
        gated.add(s.id as string);
        grew = true;
      }
    }
  }
  for (const id of branchOnly) {
    const node = byId.get(id);
    const ungated = (stepsOf.get(id) ?? []).find((s) => !gated.has(s));
    if (node && ungated) refuse(node, `${named(node)} runs only on a branch in Dify but reads nothing made on it; a step here runs when what it reads is there, so it would run on every branch`);
  }
}
