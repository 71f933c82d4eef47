import { getPath, parseRef } from '../../src/chain/index.ts';
import type { Chain, StepDef } from '../../src/chain/index.ts';
import type { ModelConfig } from '../../src/steps/index.ts';
import { assemblePrompt } from '../../src/steps/model-prompt.ts';
import { sectionIdsOf } from '../../src/steps/dynamic-enum.ts';
import type { StepRegistry } from '../../src/steps/index.ts';
import { canvasRegistry } from './canvas-registry.ts';
import { exampleFromSchema } from './example-from-schema.ts';

/**
 * The prompt a step would send with example values, for the input budget's live estimate:
 * chain inputs use their `example`, upstream steps an example of their output schema. Built by
 * the engine's own assemblePrompt, so framing and schema instructions count as they will.
 */
export interface PromptEstimate {
  /** Every message's text, joined: what the budget counts. */
  text: string;
  /** Per binding: its example text (for a per-binding count). */
  bindings: { name: string; text: string; source: 'example' | 'schema example' | 'no example' }[];
}

function outputExample(chain: Chain, step: StepDef | undefined, registry: StepRegistry): unknown {
  const def = step && registry.get(step.kind);
  const parsed = def?.config.safeParse(step?.config);
  if (!def || !parsed?.success) return undefined;
  const schema = def.outputSchema(parsed.data);
  if (!schema) return 'example output text';
  const bindings = def.bindings(parsed.data);
  // A dynamic enum takes the first section id of the bound document's example, when there is one.
  return exampleFromSchema(schema, {
    dynamicEnum: (spec) => {
      const ref = typeof spec.binding === 'string' ? bindings[spec.binding] : undefined;
      const input = ref?.startsWith('inputs.') ? chain.inputs.find((i) => `inputs.${i.name}` === ref) : undefined;
      return typeof input?.example === 'string' ? sectionIdsOf(input.example)[0] : undefined;
    },
  });
}

/** Null when the step has no prompt template (not a model-call step). */
export function examplePrompt(chain: Chain, step: StepDef, opts: { schemaInPrompt?: boolean } = {}, registry: StepRegistry = canvasRegistry): PromptEstimate | null {
  const def = registry.get(step.kind);
  const parsed = def?.config.safeParse(step.config);
  if (!def || !parsed?.success) return null;
  const config = parsed.data as Partial<ModelConfig>;
  if (typeof config.prompt !== 'string') return null;
  const byId = new Map(chain.steps.map((s) => [s.id, s]));
  const values: Record<string, unknown> = {};
  const untrusted = new Set<string>();
  const bindings: PromptEstimate['bindings'] = [];
  for (const [name, ref] of Object.entries(def.bindings(parsed.data))) {
    const { root, name: target, path } = parseRef(ref);
    if (root === 'inputs') {
      const input = chain.inputs.find((i) => i.name === target);
      if (input?.trust === 'untrusted') untrusted.add(name);
      const example = input?.example === undefined ? undefined : getPath(input.example, path);
      values[name] = example ?? '';
      bindings.push({ name, text: example === undefined ? '' : typeof example === 'string' ? example : JSON.stringify(example, null, 2), source: example === undefined ? 'no example' : 'example' });
    } else {
      const value = getPath(outputExample(chain, byId.get(target), registry), path);
      values[name] = value ?? '';
      bindings.push({ name, text: typeof value === 'string' ? value : JSON.stringify(value ?? '', null, 2), source: 'schema example' });
    }
  }
  const assembled = assemblePrompt({ system: '', outputSchema: null, ...config } as ModelConfig, values, untrusted, { schemaInPrompt: opts.schemaInPrompt ?? false });
  return { text: assembled.messages.map((m) => m.content).join('\n'), bindings };
}
