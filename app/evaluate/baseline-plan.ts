import { findPlaceholders, parseRef } from '../../src/chain/index.ts';
import type { EvalVariant } from '../../src/eval/index.ts';
import { stepRegistry } from '../../src/steps/index.ts';
import type { BaselinePlan } from './eval-store.ts';

/**
 * Each baseline variant's one call as a person should check it: the system message and prompt
 * template it sends, and what fills each placeholder (an input whole, or what a step made).
 * A baseline whose prompt never names the document would show it here, before anything runs.
 */
export function baselinePlans(variants: readonly EvalVariant[], labels: Readonly<Record<string, string>>): BaselinePlan[] {
  const plans: BaselinePlan[] = [];
  for (const v of variants) {
    if (v.kind !== 'baseline') continue;
    const step = v.chain.steps.find((s) => stepRegistry.get(s.kind)?.produces.by === 'model');
    const def = step ? stepRegistry.get(step.kind) : undefined;
    const parsed = def?.config.safeParse(step?.config);
    if (!def || !parsed?.success) continue;
    const config = parsed.data as { prompt?: unknown; system?: unknown };
    const prompt = typeof config.prompt === 'string' ? config.prompt : '';
    const system = typeof config.system === 'string' ? config.system : '';
    const bindings = def.bindings(parsed.data);
    const fills = new Map<string, string>();
    for (const p of findPlaceholders(`${system}\n${prompt}`)) fills.set(p.name, fillOf(bindings[p.binding]));
    plans.push({
      name: v.name, label: labels[v.name] ?? v.chain.name, generated: v.chain.id.endsWith('--baseline'), system, prompt,
      fills: [...fills].map(([placeholder, from]) => ({ placeholder, from })),
    });
  }
  return plans;
}

function fillOf(ref: string | undefined): string {
  if (!ref) return 'nothing bound';
  try {
    const parsed = parseRef(ref);
    if (parsed.root === 'inputs') return parsed.path.length ? `part of the ${parsed.name} input (${ref})` : `the ${parsed.name} input, whole`;
    return `what step ${parsed.name} returns (${ref})`;
  } catch {
    return ref;
  }
}
