import type { ChainProblem } from '../chain/parse.ts';
import type { FidelityReport } from './fidelity.ts';
import type { ChainFormatContext } from './format.ts';
import { flowRef, type FlowNode } from './promptflow-nodes.ts';

/** What each built node became: its step. */
export interface Built {
  node: FlowNode;
  step: string;
}

/** What the Prompt flow importer carries from node to node while it builds a chain. */
export interface PromptflowContext {
  ctx: ChainFormatContext;
  report: FidelityReport;
  problems: ChainProblem[];
  inputIds: Map<string, string>;
  built: Map<string, Built>;
  /** Names of nodes refused for what they are (python): what reads them is not refused again. */
  refused: Set<string>;
  known: Set<string>;
  /** The steps built so far. */
  steps: Record<string, unknown>[];
}

/** The chain ref a flow reference reads, null when it reads a refused node (already named), or a problem. */
export function chainRef(c: PromptflowContext, value: unknown, where: string, what: string): string | null | undefined {
  const ref = flowRef(value);
  if (ref === null) return undefined;
  if ('bad' in ref) {
    c.problems.push({ path: where, message: `${what} reads ${ref.bad}, which is neither \${inputs.name} nor \${node.output}` });
    return null;
  }
  if (ref.kind === 'input') {
    const id = c.inputIds.get(ref.name);
    if (id) return `inputs.${id}`;
    c.problems.push({ path: where, message: `${what} reads the flow input ${ref.name}, which the flow does not declare` });
    return null;
  }
  if (c.refused.has(ref.node)) return null;
  const built = c.built.get(ref.node);
  if (built) return ['steps', built.step, ...ref.path].join('.');
  c.problems.push({ path: where, message: `${what} reads ${ref.node}.output, ${c.known.has(ref.node) ? 'a node that is not imported' : 'which no node in the flow makes'}` });
  return null;
}

