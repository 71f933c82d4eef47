import type { CodeWriter } from '../code-writer.ts';
import { commentText, pyInline, pyString, tsString } from '../literals.ts';
import { configFields, pySpec, stepDoc, type EmitStep, type KindEmitter } from './context.ts';

/** A kind whose function is one runtime call: `return run.<method>(SPEC, reads)`. */
function simpleEmitter(type: string, method: string, fields: readonly string[]): KindEmitter {
  return {
    py(w, s) {
      pySpec(w, s, type, configFields(s, fields));
      w.line();
      w.line();
      w.block(`def ${s.names.fn}(run: rt.Run, reads: dict[str, Any]) -> rt.StepOutcome:`, () => {
        w.line(`# ${stepDoc(s)}`);
        w.line(`return run.${method}(${s.names.spec}, reads)`);
      }, null);
    },
  };
}

export const retrieveEmitter = simpleEmitter('RetrieveSpec', 'retrieve', ['topK']);
export const splitEmitter = simpleEmitter('SplitSpec', 'split', ['outputCap', 'window', 'expansion', 'headroom']);
export const gateEmitter = simpleEmitter('GateSpec', 'gate', ['check']);

interface Route {
  equals?: unknown;
  to: string;
  label?: string;
}

function pyCondition(equals: unknown): string {
  if (equals === undefined) return 'label is rt.UNDEFINED';
  if (equals === null || typeof equals === 'boolean') return `label is ${equals === null ? 'None' : equals ? 'True' : 'False'}`;
  // A str never equals a number or a bool; a number would equal True in Python, so numbers compare as JSON.
  if (typeof equals === 'string') return `label == ${pyString(equals)}`;
  return `rt.same_value(label, ${pyInline(equals)})`;
}

function routeLabel(route: Route): string {
  return commentText(route.label || `= ${JSON.stringify(route.equals)}`);
}

function routes(s: EmitStep): { field: string; list: Route[]; defaultTo: string | null; bound: boolean; failOnMissing: boolean } {
  const cfg = s.planned.config;
  return {
    field: String(cfg.field ?? ''),
    list: (cfg.routes as Route[]) ?? [],
    defaultTo: (cfg.defaultTo as string | null) ?? null,
    // The same test the engine makes: is anything bound under the name the router reads?
    bound: Object.hasOwn(s.planned.bindings, 'value'),
    failOnMissing: cfg.onMissingLabel !== 'otherwise',
  };
}

function pathLiteral(field: string, lang: 'ts' | 'py'): string {
  const parts = field.split('.');
  return `[${parts.map((p) => (lang === 'ts' ? tsString(p) : pyString(p))).join(', ')}]`;
}

/**
 * `router`: branches as plain if/else on a label an earlier step produced. Never a model call.
 * A missing label fails the step (as the engine does) unless the chain chose "otherwise".
 */
export const routerEmitter: KindEmitter = {
  py(w: CodeWriter, s: EmitStep) {
    const { field, list, defaultTo, bound, failOnMissing } = routes(s);
    pySpec(w, s, 'RouterSpec', [['field', { json: field }]]);
    w.line();
    w.line();
    w.block(`def ${s.names.fn}(run: rt.Run, reads: dict[str, Any]) -> rt.StepOutcome:`, () => {
      w.line(`# ${stepDoc(s)}`);
      if (!bound && failOnMissing) return w.line(`return run.missing_label(${s.names.spec}, False)  # nothing is bound as "value"`);
      if (!bound) w.line('label = rt.UNDEFINED  # nothing is bound as "value"');
      else w.line(field ? `label = rt.get_path(reads["value"], ${pathLiteral(field, 'py')})` : 'label = reads["value"]');
      if (failOnMissing) w.block('if label is rt.UNDEFINED:', () => w.line(`return run.missing_label(${s.names.spec}, True)`), null);
      for (const route of list) {
        w.block(`if ${pyCondition(route.equals)}:  # ${routeLabel(route)}`, () => w.line(`return run.route(${s.names.spec}, label, ${pyString(route.to)})`), null);
      }
      w.line(defaultTo ? `return run.route(${s.names.spec}, label, ${pyString(defaultTo)})  # otherwise` : `return run.no_route(${s.names.spec}, label)`);
    }, null);
  },
};
