import type { ContractCard } from '../../src/chain/index.ts';
import type { Chain } from '../../src/chain/index.ts';
import { contractCardFor } from './contract-cards.ts';

/** What an edge is, for the tooltip and the panel: a boundary card, or a line on inputs and branches. */
export type EdgeInfo = { kind: 'card'; card: ContractCard } | { kind: 'note'; title: string; text: string };

export function edgeInfo(chain: Chain, edgeId: string): EdgeInfo | null {
  const input = /^input:([^-]+)->([^:]+):(.+)$/.exec(edgeId);
  if (input) return { kind: 'note', title: `inputs.${input[1]} → ${input[2]}`, text: `${input[2]} reads the chain input "${input[1]}" as {${input[3]}}.` };
  const branch = /^(route|fallback):([^-]+)->([^:]+):(.*)$/.exec(edgeId);
  if (branch) {
    const [, kind, from, to, label] = branch;
    return kind === 'route'
      ? { kind: 'note', title: `${from} → ${to}`, text: `Route "${label}": ${to} runs when ${from} picks this branch, decided in code.` }
      : { kind: 'note', title: `${from} → ${to}`, text: `Fallback: ${to} runs in place of ${from} when its retries are spent.` };
  }
  try {
    const card = contractCardFor(chain, edgeId);
    return card ? { kind: 'card', card } : null;
  } catch {
    return null;
  }
}
