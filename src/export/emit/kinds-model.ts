import type { CodeWriter } from '../code-writer.ts';
import { configFields, modelConstants, pySpec, stepDoc, type EmitStep, type KindEmitter } from './context.ts';

/** `model`: one contract call — prompt and schema as constants, the call in the runtime. */
export const modelEmitter: KindEmitter = {
  py(w, s) {
    pySpec(w, s, 'ModelSpec', modelConstants(w, s, 'py'));
    w.line();
    w.line();
    w.block(`def ${s.names.fn}(run: rt.Run, reads: dict[str, Any]) -> rt.StepOutcome:`, () => {
      w.line(`# ${stepDoc(s)}`);
      w.line(`return run.model(${s.names.spec}, reads)`);
    }, null);
  },
};

const MAP_FIELDS = ['itemName', 'unitIdField', 'concurrency'] as const;

function mapComment(w: CodeWriter, s: EmitStep, hash: string): void {
  w.line(`${hash} At most ${String(s.planned.config.concurrency)} units at once; a failed unit is a typed result, never an abort of the batch.`);
}

/** `map`: a bounded-concurrency loop of contract calls, one per unit, each with a typed result. */
export const mapEmitter: KindEmitter = {
  py(w, s) {
    pySpec(w, s, 'MapSpec', [...modelConstants(w, s, 'py'), ...configFields(s, MAP_FIELDS)]);
    w.line();
    w.line();
    w.block(`def ${s.names.fn}(run: rt.Run, reads: dict[str, Any]) -> rt.StepOutcome:`, () => {
      w.line(`# ${stepDoc(s)}`);
      w.line('items = run.items(reads)');
      w.block('if not isinstance(items, list):', () => w.line('return items'), null);
      mapComment(w, s, '#');
      w.line(`results = rt.map_concurrent(items, ${s.names.spec}.concurrency, lambda item, index: run.unit(${s.names.spec}, reads, item, index))`);
      w.line('return run.map_output(results)');
    }, null);
  },
};

/** `reduce`: a contract call over a map's typed results, never its raw units. */
export const reduceEmitter: KindEmitter = {
  py(w, s) {
    pySpec(w, s, 'ModelSpec', modelConstants(w, s, 'py'));
    w.line();
    w.line();
    w.block(`def ${s.names.fn}(run: rt.Run, reads: dict[str, Any]) -> rt.StepOutcome:`, () => {
      w.line(`# ${stepDoc(s)}`);
      w.line(`return run.reduce(${s.names.spec}, reads)`);
    }, null);
  },
};
