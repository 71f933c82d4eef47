import { removeStep, setBinding } from '../chain/edit.ts';
import { chainEdges, topologicalOrder } from '../chain/graph.ts';
import { parseRef } from '../chain/refs.ts';
import type { Chain, StepDef } from '../chain/schema.ts';
import { findPlaceholders } from '../chain/template.ts';
import type { StepRegistry } from '../steps/registry.ts';
import type { EvalVariant } from './run-eval.ts';

/**
 * The controls a chain is measured against, built from the chain itself:
 * - the single-prompt **baseline** (the chain's `meta.baseline`, or one generated from its
 *   prompts and its final output schema, labelled as generated);
 * - an **identity** control per model step: the step returns its input unchanged;
 * - an **ablation** per model stage: the step removed, its consumers reading what it read.
 * Everything else (items, model, parameters) is the same run for run; each variant says what
 * differs. A control that cannot be built is listed with the reason, never silently skipped.
 */
export interface ControlPlan {
  variants: EvalVariant[];
  notApplicable: { kind: EvalVariant['kind']; step?: string; reason: string }[];
  /** What was built other than asked, and why (a named baseline replaced by a generated one). */
  notes: string[];
}

interface StepView {
  step: StepDef;
  config: Record<string, unknown>;
  bindings: Record<string, string>;
  callsModel: boolean;
}

function viewSteps(chain: Chain, registry: StepRegistry): Map<string, StepView> {
  const views = new Map<string, StepView>();
  for (const step of chain.steps) {
    const def = registry.get(step.kind);
    const parsed = def?.config.safeParse(step.config);
    if (!def || !parsed?.success) continue;
    const config = parsed.data as Record<string, unknown>;
    views.set(step.id, { step, config, bindings: def.bindings(config), callsModel: def.produces.by === 'model' });
  }
  return views;
}

function ordered(chain: Chain, registry: StepRegistry): string[] {
  return topologicalOrder(chain.steps.map((s) => s.id), chainEdges(chain, registry)).order;
}

/** Consumers of `stepId`: (consumer, binding name, the path it reads below the step). */
function consumersOf(views: ReadonlyMap<string, StepView>, stepId: string): { consumer: string; binding: string; path: string[] }[] {
  const found: { consumer: string; binding: string; path: string[] }[] = [];
  for (const view of views.values()) {
    for (const [binding, ref] of Object.entries(view.bindings)) {
      try {
        const parsed = parseRef(ref);
        if (parsed.root === 'steps' && parsed.name === stepId) found.push({ consumer: view.step.id, binding, path: parsed.path });
      } catch {
        // A ref that does not parse reads nothing.
      }
    }
  }
  return found;
}

/** The chain without `stepId`: whoever read it reads what it read. */
export function ablate(chain: Chain, stepId: string, registry: StepRegistry): { ok: true; chain: Chain } | { ok: false; reason: string } {
  const views = viewSteps(chain, registry);
  const view = views.get(stepId);
  if (!view) return { ok: false, reason: `no step "${stepId}" with a valid config` };
  const reads = Object.values(view.bindings);
  if (reads.length !== 1) return { ok: false, reason: `it reads ${reads.length} values, so there is no single value for its consumers to read instead` };
  const edges = chainEdges(chain, registry);
  if (edges.some((e) => e.kind !== 'data' && e.target === stepId)) return { ok: false, reason: 'a branch or fallback leads to it: removing it changes the control flow, not just the data' };
  if (edges.some((e) => e.kind !== 'data' && e.source === stepId)) return { ok: false, reason: 'it branches or has a fallback: removing it changes the control flow' };
  const consumers = consumersOf(views, stepId);
  if (consumers.length === 0) return { ok: false, reason: 'nothing reads its output' };
  let next = chain;
  for (const c of consumers) next = setBinding(next, c.consumer, c.binding, reads[0] as string, registry);
  next = removeStep(next, stepId, registry);
  return { ok: true, chain: { ...next, id: `${chain.id}--ablate-${stepId}`, name: `${chain.name} (without ${stepId})` } };
}

/**
 * The step replaced by one that returns its input unchanged (a `template` step rendering the
 * one value it reads), fitted to the output schema: consumers that read the schema's one
 * string field now read that text. Where the schema has no single string field to hold the
 * input, or a consumer reads the whole object, the control does not apply, and says why.
 */
export function identity(chain: Chain, stepId: string, registry: StepRegistry): { ok: true; chain: Chain } | { ok: false; reason: string } {
  const views = viewSteps(chain, registry);
  const view = views.get(stepId);
  const passThrough = registry.get('template');
  if (!view) return { ok: false, reason: `no step "${stepId}" with a valid config` };
  if (!passThrough) return { ok: false, reason: 'the registry has no template kind to pass the input through' };
  const reads = Object.entries(view.bindings);
  if (reads.length !== 1) return { ok: false, reason: `it reads ${reads.length} values, so there is no one input to return` };
  const schema = view.config.outputSchema as { type?: unknown; properties?: Record<string, { type?: unknown }> } | undefined;
  const fields = Object.entries(schema?.properties ?? {});
  const strings = fields.filter(([, s]) => s?.type === 'string');
  if (schema?.type !== 'object' || fields.length !== 1 || strings.length !== 1) {
    return { ok: false, reason: 'its output schema is not an object with one string field that could hold its input' };
  }
  const field = strings[0]?.[0] as string;
  const consumers = consumersOf(views, stepId);
  const whole = consumers.find((c) => c.path[0] !== field);
  if (whole) return { ok: false, reason: `${whole.consumer} reads ${whole.path.length ? `"${whole.path.join('.')}"` : 'the whole output'}, not the "${field}" field the input would fill` };
  const [name, ref] = reads[0] as [string, string];
  let next: Chain = {
    ...chain,
    steps: chain.steps.map((s) => (s.id === stepId ? { ...s, kind: passThrough.kind, name: `${s.name || s.id} (identity)`, config: { bindings: { [name]: ref }, text: `{${name}}` } } : s)),
  };
  for (const c of consumers) next = setBinding(next, c.consumer, c.binding, ['steps', stepId, ...c.path.slice(1)].join('.'), registry);
  return { ok: true, chain: { ...next, id: `${chain.id}--identity-${stepId}`, name: `${chain.name} (${stepId} returns its input)` } };
}

/**
 * The kind a generated baseline's one call is: a model call that reads whatever its prompt
 * names. Not the chain's last model step's kind: that may be a fan-out (a map) or an
 * integration that must read a map's collection (a reduce), neither of which can read the
 * chain's inputs whole.
 */
function singleCallKind(registry: StepRegistry) {
  return registry.all().find((d) => d.produces.by === 'model' && !d.units && !d.expectedBindings && !d.terminal);
}

/**
 * Whether `chain` is a single prompt: one model call whose prompt reads every input of the
 * chain whole (`{document}` bound to `inputs.document`). A design that selects, retrieves or
 * summarises before its one call (BM25, then the prompt) is not: the document never reaches
 * the prompt, so it measures that design, not the prompt the chain replaced.
 */
export function singlePromptProblem(chain: Chain, registry: StepRegistry): string | null {
  const models = [...viewSteps(chain, registry).values()].filter((v) => v.callsModel);
  if (models.length !== 1) return `it makes ${models.length} model calls, not one`;
  const [model] = models as [StepView];
  const prompt = `${typeof model.config.system === 'string' ? model.config.system : ''}\n${typeof model.config.prompt === 'string' ? model.config.prompt : ''}`;
  const used = new Set(findPlaceholders(prompt).filter((p) => p.path.length === 0).map((p) => p.binding));
  for (const input of chain.inputs) {
    const whole = Object.entries(model.bindings).some(([binding, ref]) => ref === `inputs.${input.name}` && used.has(binding));
    if (!whole) return `its model step "${model.step.id}" does not put the input "${input.name}" whole in its prompt`;
  }
  return null;
}

/**
 * The last model step's output schema, fitted to the baseline's bindings (one per chain input,
 * by the input's name). A dynamic enum reading an input is kept, renamed to it; one reading an
 * earlier step's output (the ids a split or retrieve made) is dropped, leaving the field open:
 * the baseline has no such step, and an enum with nothing bound fails the call before it is sent.
 */
function fitDynamicEnums(schema: unknown, bindings: Readonly<Record<string, string>>): unknown {
  if (Array.isArray(schema)) return schema.map((s) => fitDynamicEnums(s, bindings));
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key !== 'x-dynamicEnum') {
      out[key] = fitDynamicEnums(value, bindings);
      continue;
    }
    const spec = value as { binding?: unknown };
    const ref = typeof spec?.binding === 'string' && Object.hasOwn(bindings, spec.binding) ? bindings[spec.binding] : undefined;
    const input = ref?.startsWith('inputs.') && !ref.slice(7).includes('.') ? ref.slice(7) : null;
    if (input) out[key] = { ...spec, binding: input };
  }
  return out;
}

/**
 * One model step doing the chain's job: each model step's instructions in order, each chain
 * input given once, the final output schema. Placeholders of one step's output in a later
 * prompt become words ("the result of the instruction above"): the baseline has no steps.
 * Every input the chain has goes in the prompt whole, at its first placeholder or, when no
 * model step reads it directly (a retrieve or split step reads it first), after the steps.
 */
export function generatedBaseline(chain: Chain, registry: StepRegistry): { ok: true; chain: Chain } | { ok: false; reason: string } {
  const views = viewSteps(chain, registry);
  const order = ordered(chain, registry).map((id) => views.get(id)).filter((v): v is StepView => v !== undefined);
  const models = order.filter((v) => v.callsModel && typeof v.config.prompt === 'string');
  if (models.length === 0) return { ok: false, reason: 'the chain has no model step with a prompt to build it from' };
  const modelDef = singleCallKind(registry);
  if (!modelDef) return { ok: false, reason: 'the registry has no single model call kind to build it with' };
  const outputDef = [...views.values()].map((v) => registry.get(v.step.kind)).find((d) => d?.terminal && d.fields.some((f) => f.kind === 'bindings'));
  if (!outputDef) return { ok: false, reason: 'the chain has no terminal step to carry the answer' };
  // The answer the chain returns: the terminal step reading the last model step, and what it reads of it.
  const last = models.at(-1) as StepView;
  const terminalRead = [...views.values()]
    .filter((v) => registry.get(v.step.kind)?.terminal)
    .flatMap((v) => consumersOf(new Map([[v.step.id, v]]), last.step.id))[0];
  const given = new Set<string>();
  const inputNames = new Set(chain.inputs.map((i) => i.name));
  const parts: string[] = [`(Single-prompt baseline generated by Seamscope from the chain "${chain.name}": its ${models.length} model step${models.length === 1 ? '' : 's'}' instructions in one prompt.)`];
  for (const [i, v] of models.entries()) {
    const prompt = v.config.prompt as string;
    let text = '';
    let at = 0;
    for (const p of findPlaceholders(prompt)) {
      text += prompt.slice(at, p.index);
      at = p.index + p.name.length + 2;
      const ref = v.bindings[p.binding];
      let input: string | null = null;
      try {
        const parsed = ref ? parseRef(ref) : null;
        if (parsed?.root === 'inputs' && inputNames.has(parsed.name) && parsed.path.length === 0 && p.path.length === 0) input = parsed.name;
      } catch {
        input = null;
      }
      if (input && !given.has(input)) {
        given.add(input);
        text += `{${input}}`;
      } else text += input ? `(the ${input} given above)` : '(the result of the instruction above)';
    }
    text += prompt.slice(at);
    parts.push(`Step ${i + 1}:\n${text}`);
  }
  for (const name of inputNames) if (!given.has(name)) parts.push(`${name}:\n{${name}}`);
  parts.push('Do every step yourself and return only the final step’s answer.');
  const base = modelDef.defaults() as Record<string, unknown>;
  const modelStep: StepDef = {
    id: 'baseline', kind: modelDef.kind, name: 'Single prompt (generated)', position: { x: 0, y: 0 },
    config: {
      ...base, ...Object.fromEntries(['model', 'temperature', 'maxTokens', 'profile', 'retries', 'onFail'].filter((k) => Object.hasOwn(last.config, k)).map((k) => [k, last.config[k]])),
      bindings: Object.fromEntries([...inputNames].map((n) => [n, `inputs.${n}`])),
      prompt: parts.join('\n\n'),
      outputSchema: fitDynamicEnums(last.config.outputSchema, last.bindings),
    },
  };
  if (modelStep.config.onFail !== 'abstain' && modelStep.config.onFail !== 'escalate') modelStep.config.onFail = 'abort';
  const outputStep: StepDef = {
    id: 'final', kind: outputDef.kind, name: 'Answer', position: { x: 280, y: 0 },
    config: { ...(outputDef.defaults() as Record<string, unknown>), bindings: { value: ['steps.baseline', ...(terminalRead?.path ?? [])].join('.') } },
  };
  const { meta: _meta, ...rest } = chain;
  return { ok: true, chain: { ...rest, id: `${chain.id}--baseline`, name: `${chain.name} (generated single prompt)`, steps: [modelStep, outputStep] } };
}

/**
 * @example
 * const { variants, notApplicable } = buildControls(chain, stepRegistry, { baseline: null });
 */
export function buildControls(chain: Chain, registry: StepRegistry, opts: { name: string; baseline?: Chain | null }): ControlPlan {
  const variants: EvalVariant[] = [];
  const notApplicable: ControlPlan['notApplicable'] = [];
  const notes: string[] = [];
  // A named baseline that is not a single prompt (it retrieves or summarises first) would be
  // compared as if it were the prompt the chain replaced: a generated one stands in, and says why.
  const namedProblem = opts.baseline ? singlePromptProblem(opts.baseline, registry) : null;
  if (opts.baseline && !namedProblem) {
    variants.push({ name: `${opts.name}:baseline`, kind: 'baseline', chain: opts.baseline, differs: `the single prompt this chain names as its baseline (meta.baseline: ${opts.baseline.id})` });
  } else {
    const generated = generatedBaseline(chain, registry);
    const why = opts.baseline ? `the baseline it names, ${opts.baseline.id}, is not a single prompt: ${namedProblem}` : 'the chain names no meta.baseline';
    if (generated.ok) variants.push({ name: `${opts.name}:baseline`, kind: 'baseline', chain: generated.chain, differs: `GENERATED single-prompt baseline: every model step’s instructions in one call (${why})` });
    else notApplicable.push({ kind: 'baseline', reason: generated.reason });
    if (opts.baseline && generated.ok) notes.push(`baseline: ${why}; a generated single prompt stands in`);
  }
  const views = viewSteps(chain, registry);
  for (const id of ordered(chain, registry)) {
    const view = views.get(id);
    if (!view?.callsModel) continue;
    const same = identity(chain, id, registry);
    if (same.ok) variants.push({ name: `${opts.name}:identity-${id}`, kind: 'identity', chain: same.chain, step: id, differs: `step "${id}" returns its input unchanged (no model call); everything else is the same` });
    else notApplicable.push({ kind: 'identity', step: id, reason: same.reason });
    const ablated = ablate(chain, id, registry);
    if (ablated.ok) variants.push({ name: `${opts.name}:ablate-${id}`, kind: 'ablation', chain: ablated.chain, step: id, differs: `step "${id}" removed; its consumers read ${Object.values(view.bindings)[0]} instead` });
    else notApplicable.push({ kind: 'ablation', step: id, reason: ablated.reason });
  }
  return { variants, notApplicable, notes };
}
