import type { BranchTable, PythonExport } from '../../steps/types.ts';
import type { CodeWriter } from '../code-writer.ts';
import { commentText, pyInline, pyString } from '../literals.ts';
import { modelConstants, pySpec, stepDoc, type EmitStep, type SpecField } from './context.ts';

/**
 * Writes one step's spec constant and function in Python from the `python` field of its kind's
 * definition: the export dispatches on the form (call, map, branch), never on the kind's name,
 * so a new kind needs a line in its own file and a method in the Python runtime, nothing here.
 */
export function writePyStep(w: CodeWriter, s: EmitStep): void {
  const form = s.planned.def.python as PythonExport<Record<string, unknown>>;
  const config = s.planned.config;
  switch (form.form) {
    case 'call': {
      const fields = [...(form.model ? modelConstants(w, s) : []), ...literalFields(form.fields?.(config))];
      pySpec(w, s, form.spec, fields);
      return pyFunction(w, s, () => w.line(`return run.${form.method}(${s.names.spec}, reads)`));
    }
    case 'map': {
      const fields = form.fields(config);
      pySpec(w, s, form.spec, [...modelConstants(w, s), ...literalFields(fields)]);
      return pyFunction(w, s, () => {
        w.line(`items = run.items(${s.names.spec}, reads)`);
        w.block('if not isinstance(items, list):', () => w.line('return items'), null);
        w.line(`# At most ${String(fields.concurrency)} units at once; a failed unit is a typed result, never an abort of the batch.`);
        w.line(`results = rt.map_concurrent(items, ${s.names.spec}.concurrency, lambda item, index: run.unit(${s.names.spec}, reads, item, index))`);
        w.line('return run.map_output(results)');
      });
    }
    case 'branch':
      return writeBranch(w, s, form.spec, form.branch(config));
  }
}

function literalFields(fields: Record<string, unknown> | undefined): SpecField[] {
  return Object.entries(fields ?? {}).map(([key, value]) => [key, { json: value }]);
}

function pyFunction(w: CodeWriter, s: EmitStep, body: () => void): void {
  w.line();
  w.line();
  w.block(`def ${s.names.fn}(run: rt.Run, reads: dict[str, Any]) -> rt.StepOutcome:`, () => {
    w.line(`# ${stepDoc(s)}`);
    body();
  }, null);
}

/** The engine's isEmptyValue (src/steps/router.ts): not there, None, "", [] or {}; blanks are not empty. */
const PY_EMPTY = 'label is rt.UNDEFINED or label is None or (isinstance(label, (str, list, dict)) and len(label) == 0)';

function pyCondition(equals: unknown): string {
  if (equals === undefined) return 'label is rt.UNDEFINED';
  if (equals === null || typeof equals === 'boolean') return `label is ${equals === null ? 'None' : equals ? 'True' : 'False'}`;
  // A str never equals a number or a bool; a number would equal True in Python, so numbers compare as JSON.
  if (typeof equals === 'string') return `label == ${pyString(equals)}`;
  return `rt.same_value(label, ${pyInline(equals)})`;
}

const pathLiteral = (field: string) => `[${field.split('.').map(pyString).join(', ')}]`;

/**
 * Branches as plain if/else on a label an earlier step produced, never a model call. A missing
 * label fails the step (as the engine does) unless the chain chose "otherwise".
 */
function writeBranch(w: CodeWriter, s: EmitStep, spec: string, table: BranchTable): void {
  const { field, routes, defaultTo, failOnMissing } = table;
  // The same test the engine makes: is anything bound under the name the router reads?
  const bound = Object.hasOwn(s.planned.bindings, 'value');
  const onEmpty = routes.some((r) => r.when === 'empty');
  pySpec(w, s, spec, [['field', { json: field }], ...(onEmpty ? [['runsWithout', { json: ['value'] }] as SpecField] : [])]);
  pyFunction(w, s, () => {
    if (!bound && failOnMissing) return w.line(`return run.missing_label(${s.names.spec}, False)  # nothing is bound as "value"`);
    if (!bound) w.line('label = rt.UNDEFINED  # nothing is bound as "value"');
    else w.line(field ? `label = rt.get_path(reads["value"], ${pathLiteral(field)})` : 'label = reads["value"]');
    if (failOnMissing && !onEmpty) w.block('if label is rt.UNDEFINED:', () => w.line(`return run.missing_label(${s.names.spec}, True)`), null);
    for (const route of routes) {
      const empty = route.when === 'empty';
      const label = commentText(route.label || (empty ? 'empty' : `= ${JSON.stringify(route.equals)}`));
      w.block(`if ${empty ? PY_EMPTY : pyCondition(route.equals)}:  # ${label}`, () => w.line(`return run.route(${s.names.spec}, label, ${pyString(route.to)})`), null);
    }
    w.line(defaultTo ? `return run.route(${s.names.spec}, label, ${pyString(defaultTo)})  # otherwise` : `return run.no_route(${s.names.spec}, label)`);
  });
}
