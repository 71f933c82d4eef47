import { isRecord } from '../files/json-value.ts';
import type { FidelityReport } from './fidelity.ts';

/**
 * The nodes of a Prompt flow as the importer reads them: each with its name, type, prompt file,
 * inputs split into references (`${inputs.x}`, `${node.output.field}`) and literal values, its
 * activate condition, and the variant it stands for. A node with `use_variants: true` is its
 * default variant from `node_variants`; the other variants are reported as not carried over.
 */

export const text = (v: unknown) => (typeof v === 'string' ? v : '');

/** `${inputs.x}` or `${node.output}` / `${node.output.a.b}`. */
export type FlowRef = { kind: 'input'; name: string } | { kind: 'node'; node: string; path: string[] };

const REF = /^\$\{\s*([A-Za-z_]\w*)\.([A-Za-z_]\w*)((?:\.[A-Za-z_]\w*)*)\s*\}$/;

/** A reference, or null for a literal; `{ bad }` for `${…}` that names neither an input nor a node's output. */
export function flowRef(value: unknown): FlowRef | { bad: string } | null {
  if (typeof value !== 'string' || !value.trimStart().startsWith('${')) return null;
  const m = REF.exec(value.trim());
  if (!m) return { bad: value.slice(0, 80) };
  const [, root, second, rest] = m as unknown as [string, string, string, string];
  if (root === 'inputs' && !rest) return { kind: 'input', name: second };
  if (second === 'output') return { kind: 'node', node: root, path: rest ? rest.slice(1).split('.') : [] };
  return { bad: value.slice(0, 80) };
}

export interface FlowNode {
  index: number;
  name: string;
  type: string;
  /** The prompt file (llm, prompt) or code file (python). */
  source: string;
  inputs: Record<string, unknown>;
  activate: { when: unknown; is: unknown } | null;
  api: string;
  connection: string;
  /** True for a node whose result is computed once over every line of a batch run. */
  aggregation: boolean;
  /** The variant this node is read from, when the flow has several. */
  variant: string | null;
}

/** The llm tool's own parameters: settings, not values its prompt template reads. */
export const LLM_SETTINGS = new Set([
  'deployment_name', 'model', 'temperature', 'top_p', 'n', 'stream', 'stop', 'max_tokens', 'presence_penalty', 'frequency_penalty',
  'logit_bias', 'user', 'function_call', 'functions', 'response_format', 'seed', 'tools', 'tool_choice', 'suffix', 'echo', 'best_of', 'logprobs',
  'top_logprobs', 'detail', 'max_completion_tokens',
]);

function nodeFrom(raw: Record<string, unknown>, index: number, name: string, variant: string | null): FlowNode {
  const activate = isRecord(raw.activate) ? { when: raw.activate.when, is: raw.activate.is } : null;
  return {
    index, name, variant, activate,
    type: text(raw.type),
    source: text(isRecord(raw.source) ? raw.source.path : ''),
    inputs: isRecord(raw.inputs) ? raw.inputs : {},
    api: text(raw.api),
    connection: text(raw.connection),
    aggregation: raw.aggregation === true,
  };
}

/** The flow's nodes, each variant node resolved to its default variant; problems name what cannot be resolved. */
export function readNodes(flow: Record<string, unknown>, report: FidelityReport): { nodes: FlowNode[]; problems: { path: string; message: string }[] } {
  const problems: { path: string; message: string }[] = [];
  const variants = isRecord(flow.node_variants) ? flow.node_variants : {};
  const nodes: FlowNode[] = [];
  for (const [index, raw] of (flow.nodes as unknown[]).entries()) {
    if (!isRecord(raw)) continue;
    const name = text(raw.name) || `node ${index + 1}`;
    if (raw.use_variants !== true) {
      nodes.push(nodeFrom(raw, index, name, null));
      continue;
    }
    const set = Object.hasOwn(variants, name) ? variants[name] : undefined;
    const all = isRecord(set) && isRecord(set.variants) ? set.variants : {};
    const id = isRecord(set) ? text(set.default_variant_id) : '';
    const chosen = Object.hasOwn(all, id) ? all[id] : undefined;
    if (!isRecord(chosen) || !isRecord(chosen.node)) {
      problems.push({ path: `$.nodes[${index}]`, message: `"${name}" takes its prompt from node_variants, which ${id ? `has no variant ${id} (its default_variant_id)` : 'names no default_variant_id'}` });
      continue;
    }
    // The default variant is what `pf flow test` runs; the others are runs the person chooses.
    const node = nodeFrom({ ...chosen.node, name, activate: raw.activate ?? chosen.node.activate }, index, name, id);
    nodes.push(node);
    report.changed.push({ where: `"${name}"`, what: `variant ${id}`, why: `the node has ${Object.keys(all).length} variants; a step holds one prompt, so the default variant (${id}) was imported` });
    for (const [other, spec] of Object.entries(all)) {
      if (other === id) continue;
      const n = isRecord(spec) && isRecord(spec.node) ? spec.node : {};
      const file = text(isRecord(n.source) ? n.source.path : '');
      const settings = isRecord(n.inputs) ? Object.entries(n.inputs).filter(([k]) => LLM_SETTINGS.has(k) && k !== 'deployment_name').map(([k, v]) => `${k} ${JSON.stringify(v)}`).join(', ') : '';
      report.dropped.push({ where: `"${name}"`, what: `variant ${other}${file ? ` (${file}${settings ? `, ${settings}` : ''})` : ''}`, why: `only the default variant is imported; to import this one, make it the default_variant_id and import again` });
    }
  }
  return { nodes, problems };
}
