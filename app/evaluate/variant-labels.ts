import type { EvalVariant } from '../../src/eval/index.ts';

/**
 * What a person reads for each variant: its chain's name, not its id. A control's chain is
 * named after the chain it controls ("… (generated single prompt)", "… (without summarise)");
 * a baseline the chain names is its own chain, so it is shown under the chain it stands for.
 * The id stays the variant's key and goes in the tooltip.
 */
export function variantLabels(variants: readonly EvalVariant[]): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const v of variants) {
    const owner = v.kind === 'chain' ? undefined : variants.find((o) => o.kind === 'chain' && v.name.startsWith(`${o.name}:`));
    const generated = v.kind === 'baseline' && v.chain.id === `${owner?.chain.id}--baseline`;
    labels[v.name] = v.kind === 'baseline' && owner && !generated ? `${owner.chain.name} (baseline: ${v.chain.name})` : v.chain.name;
  }
  return labels;
}
