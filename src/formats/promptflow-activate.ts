import { identifierFrom } from './flow-common.ts';
import { flowRef, type FlowNode } from './promptflow-nodes.ts';import { chainRef, type PromptflowContext } from './promptflow-context.ts';

/**
 * Prompt flow's `activate: {when: ${…}, is: value}` as routers. Nodes whose conditions test the
 * same value share one router, one route per value (a second node on a value already routed
 * gets a router of its own, as a route goes to one step). Prompt flow bypasses a node whose
 * condition fails and every node that reads only bypassed nodes; a step here is skipped when a
 * route does not choose it or anything it reads did not run, which is the same except for a node
 * reading nodes of different conditions (Prompt flow runs it with None): that node is refused.
 */

/** A node's condition: its own activate, or the one every node it reads runs under. */
export interface Condition {
  key: string;
  shown: string;
}

const nodeDeps = (node: FlowNode) => Object.values(node.inputs).flatMap((v) => {
  const ref = flowRef(v);
  return ref && 'kind' in ref && ref.kind === 'node' ? [ref.node] : [];
});

const shownCondition = (node: FlowNode) => `${String(node.activate?.when)} is ${JSON.stringify(node.activate?.is)}`;

/** Each node's condition (null: it always runs); a node reading nodes of different conditions is refused. */
export function conditionsOf(order: readonly FlowNode[], c: PromptflowContext): Map<string, Condition | null> {
  const conditions = new Map<string, Condition | null>();
  for (const node of order) {
    if (node.activate) {
      conditions.set(node.name, { key: JSON.stringify([node.activate.when, node.activate.is]), shown: shownCondition(node) });
      continue;
    }
    const deps = [...new Set(nodeDeps(node))].filter((d) => conditions.has(d));
    const keys = new Set(deps.map((d) => conditions.get(d)?.key ?? null));
    const [only] = [...keys];
    if (keys.size === 1 && only !== null && only !== undefined) conditions.set(node.name, conditions.get(deps[0] as string) ?? null);
    else conditions.set(node.name, null);
    if (keys.size > 1 && c.built.has(node.name)) {
      const conditional = deps.filter((d) => conditions.get(d));
      c.problems.push({
        path: `$.nodes[${node.index}]`,
        message: `"${node.name}" reads ${deps.map((d) => `"${d}"`).join(', ')}, of which ${conditional.map((d) => `"${d}" runs only when ${conditions.get(d)?.shown}`).join(' and ')}: Prompt flow runs "${node.name}" with None for a bypassed node, and a step here runs only when everything it reads ran`,
      });
    }
  }
  return conditions;
}

/** Adds the routers the flow's activate conditions come to, each placed in the column before its first target; trusted inputs and the report are updated. */
export function buildRouters(order: readonly FlowNode[], conditions: ReadonlyMap<string, Condition | null>, c: PromptflowContext, inputs: Record<string, unknown>[], taken: Set<string>): void {
  const routers: { step: Record<string, unknown>; ref: string; routes: { equals: unknown; to: string; label: string }[]; names: string[] }[] = [];
  for (const node of order) {
    const built = c.built.get(node.name);
    if (!node.activate || !built) continue;
    const where = `$.nodes[${node.index}].activate`;
    const what = `"${node.name}" (${node.type}): its activate condition`;
    const ref = chainRef(c, node.activate.when, `${where}.when`, what);
    if (ref === null) continue;
    if (ref === undefined) {
      c.problems.push({ path: `${where}.when`, message: `${what} tests ${JSON.stringify(node.activate.when)?.slice(0, 80) ?? 'nothing'}, not \${inputs.name} or \${node.output}` });
      continue;
    }
    const value = node.activate.is;
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
      c.problems.push({ path: `${where}.is`, message: `${what} compares with ${JSON.stringify(value)?.slice(0, 80) ?? 'nothing'}; a router's route is a string, number or true/false` });
      continue;
    }
    if (ref.startsWith('inputs.')) trustInput(ref.slice('inputs.'.length), node, c, inputs);
    let router = routers.find((r) => r.ref === ref && !r.routes.some((route) => route.equals === value));
    if (!router) {
      const [, source = '', ...path] = ref.split('.');
      const step = {
        id: identifierFrom(`${source} route`, 'router', taken), kind: 'router', name: `activate on ${String(node.activate.when).slice(0, 100)}`,
        position: { x: 0, y: 0 },
        config: { bindings: { value: ref.split('.').slice(0, 2).join('.') }, field: path.join('.'), routes: [], defaultTo: null, onMissingLabel: 'fail' },
      };
      router = { step, ref, routes: step.config.routes as never, names: [] };
      routers.push(router);
    }
    router.routes.push({ equals: value, to: built.step, label: String(value) });
    router.names.push(`"${node.name}" when ${String(value)}`);
  }
  for (const router of routers) {
    const targets = c.steps.filter((s) => router.routes.some((r) => r.to === s.id));
    const first = targets[0]?.position as { x: number; y: number } | undefined;
    const x = Math.max(0, (first?.x ?? 320) - 320);
    const column = c.steps.filter((s) => (s.position as { x: number }).x === x).map((s) => (s.position as { y: number }).y);
    router.step.position = { x, y: column.length ? Math.max(...column) + 180 : 0 };
    c.steps.push(router.step);
    c.report.changed.push({
      where: `activate conditions on ${String(router.step.name).slice('activate on '.length)}`,
      what: router.names.join(', '),
      why: `became the router ${String(router.step.id)}: it runs the step whose value matches; a value none of them names fails the run, where Prompt flow bypasses them all`,
    });
  }
  for (const [name, condition] of conditions) {
    const node = order.find((n) => n.name === name);
    if (condition && node && !node.activate && c.built.has(name)) c.report.changed.push({ where: `"${name}"`, what: `runs only when ${condition.shown}`, why: 'it reads only nodes under that condition: a step here runs only when what it reads ran, as Prompt flow bypasses it' });
  }
}

function trustInput(id: string, node: FlowNode, c: PromptflowContext, inputs: Record<string, unknown>[]): void {
  const input = inputs.find((i) => i.name === id);
  if (!input || input.trust === 'trusted') return;
  input.trust = 'trusted';
  c.report.changed.push({ where: `input ${id}`, what: 'trusted', why: `"${node.name}" and any other activate condition branch on it, and a router here branches only on a trusted value or a step's output; give it only values you choose` });
}
