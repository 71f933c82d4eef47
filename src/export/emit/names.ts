import { camelCase, createNameScope, snakeCase, upperSnakeCase, type Lang, type NameScope } from '../identifiers.ts';
import type { ExportPlan } from '../plan.ts';
import type { StepNames } from './context.ts';

/** Names the generated file defines or uses itself; step names never take them. */
const FILE_NAMES: Record<Lang, string[]> = {
  ts: ['rt', 'run', 'CHAIN', 'ENDPOINT', 'STEPS', 'Inputs', 'flow', 'runChain', 'step', 'reads', 'label', 'items', 'results', 'item', 'index', 'inputs', 'options'],
  py: ['rt', 'run', 'CHAIN', 'CHAIN_JSON', 'ENDPOINT', 'Inputs', 'flow', 'run_chain', 'reads', 'label', 'items', 'results', 'item', 'index',
    'inputs', 'options', 'sys', 'json', 'Any', 'TypedDict', 'annotations'],
};

/**
 * Every step's identifiers, claimed in chain order from one scope per file, so a step id that
 * is a keyword, shadows a file name or folds onto another step's name is numbered instead.
 */
export function claimStepNames(plan: ExportPlan, lang: Lang): Map<string, StepNames> {
  const scope: NameScope = createNameScope(lang, FILE_NAMES[lang]);
  const names = new Map<string, StepNames>();
  for (const { id } of plan.chain.steps) {
    const upper = upperSnakeCase(id) || 'STEP';
    const lower = lang === 'ts' ? camelCase(id) : snakeCase(id);
    names.set(id, {
      spec: scope.claim(upper, 'STEP'),
      fn: scope.claim(lang === 'ts' ? `${lower || 'step'}Step` : `${lower || 'step'}_step`, 'step'),
      result: scope.claim(lower || 'step', 'step'),
      prompt: scope.claim(`${upper}_PROMPT`, 'PROMPT'),
      system: scope.claim(`${upper}_SYSTEM`, 'SYSTEM'),
      schema: scope.claim(`${upper}_SCHEMA`, 'SCHEMA'),
      // Claimed last, and in Python only, so no other name is numbered differently for it.
      ...(lang === 'py' ? { task: scope.claim(`${lower || 'step'}_task`, 'task') } : {}),
    });
  }
  return names;
}
