import { chainEdges, topologicalOrder } from '../chain/graph.ts';
import { parseRef } from '../chain/refs.ts';
import { findPlaceholders } from '../chain/template.ts';
import type { TokenCounter } from '../providers/tokenizer.ts';
import type { StepRegistry } from '../steps/registry.ts';
import type { DatasetItem } from './dataset.ts';
import type { EvalVariant } from './run-eval.ts';

/**
 * What a batch will cost before it runs: model calls, input and output tokens and dollars for
 * the whole dataset, from the real tokenizer and the profile's prices. Input tokens count each
 * model step's prompt with the item's own input values; a value another step produces is
 * counted at that step's output cap, and output at each step's cap, so output tokens and cost
 * are an upper bound (what a run may spend), said as such. Retries are not counted: each
 * retry adds at most one more call of its step.
 */
export interface EvalEstimate {
  variant: string;
  calls: number;
  inputTokens: number;
  /** Upper bound: every model step at its output cap. */
  outputTokensAtMost: number;
  costUsdAtMost: number | null;
}

const str = (v: unknown) => (typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v) ?? '');

export function estimateEval(
  variants: readonly EvalVariant[], items: readonly DatasetItem[], registry: StepRegistry, countTokens: TokenCounter,
  prices: { input: number; output: number } | null, defaultMaxTokens: number,
): EvalEstimate[] {
  return variants.map((variant) => {
    const chain = variant.chain;
    const order = topologicalOrder(chain.steps.map((s) => s.id), chainEdges(chain, registry)).order;
    const models = order.map((id) => chain.steps.find((s) => s.id === id)).filter((s) => s !== undefined).flatMap((step) => {
      const def = registry.get(step.kind);
      const parsed = def?.config.safeParse(step.config);
      if (!def || !parsed?.success || def.produces.by !== 'model') return [];
      const config = parsed.data as Record<string, unknown>;
      const cap = typeof config.maxTokens === 'number' && config.maxTokens > 0 ? config.maxTokens : defaultMaxTokens;
      return [{ step, config, cap, bindings: def.bindings(config) }];
    });
    const capOf = new Map(models.map((m) => [m.step.id, m.cap]));
    // The template's own words once; each item adds what its bindings bring.
    const fixed = models.map((m) => {
      const template = `${str(m.config.system)}\n${str(m.config.prompt)}`;
      const literal = template.replace(/\{[A-Za-z_][A-Za-z0-9_.]*\}/g, '');
      const names = new Set(findPlaceholders(template).map((p) => p.binding));
      return { ...m, literalTokens: countTokens(literal), names };
    });
    let inputTokens = 0;
    const cache = new Map<string, number>();
    for (const item of items) {
      for (const m of fixed) {
        inputTokens += m.literalTokens;
        for (const name of m.names) {
          const ref = m.bindings[name];
          if (!ref) continue;
          let parsed;
          try {
            parsed = parseRef(ref);
          } catch {
            continue;
          }
          if (parsed.root === 'steps') inputTokens += capOf.get(parsed.name) ?? 0;
          else {
            const value = str(item.inputs[parsed.name]);
            let tokens = cache.get(value);
            if (tokens === undefined) cache.set(value, (tokens = countTokens(value)));
            inputTokens += tokens;
          }
        }
      }
    }
    const calls = models.length * items.length;
    const outputTokensAtMost = models.reduce((sum, m) => sum + m.cap, 0) * items.length;
    return {
      variant: variant.name, calls, inputTokens, outputTokensAtMost,
      costUsdAtMost: prices ? (inputTokens * prices.input + outputTokensAtMost * prices.output) / 1_000_000 : null,
    };
  });
}
