import { webhookRequestUrl } from '../../steps/webhook.ts';
import { configFields, pySpec, stepDoc, type EmitStep, type KindEmitter, type SpecField } from './context.ts';

/** `output`: ends the run with the value it reads. */
export const outputEmitter: KindEmitter = {
  py(w, s) {
    pySpec(w, s, 'StepSpec', []);
    w.line();
    w.line();
    w.block(`def ${s.names.fn}(run: rt.Run, reads: dict[str, Any]) -> rt.StepOutcome:`, () => {
      w.line(`# ${stepDoc(s)}`);
      w.line('return run.output(reads)');
    }, null);
  },
};

/** `abstain` / `escalate`: end the run without an answer, saying why. */
function reasonEmitter(method: 'abstain' | 'escalate'): KindEmitter {
  return {
    py(w, s) {
      pySpec(w, s, 'ReasonSpec', configFields(s, ['reason']));
      w.line();
      w.line();
      w.block(`def ${s.names.fn}(run: rt.Run, reads: dict[str, Any]) -> rt.StepOutcome:`, () => {
        w.line(`# ${stepDoc(s)}`);
        w.line(`return run.${method}(${s.names.spec}, reads)`);
      }, null);
    },
  };
}

export const abstainEmitter = reasonEmitter('abstain');
export const escalateEmitter = reasonEmitter('escalate');

/** The URL as the engine's `fetch` sends it (see webhookRequestUrl), and the headers. */
function webhookFields(s: EmitStep): SpecField[] {
  return [['url', { json: webhookRequestUrl(String(s.planned.config.url)) }], ...configFields(s, ['headers'])];
}

/** `webhook`: POSTs the result with an idempotency key stable across retries and resumes. */
export const webhookEmitter: KindEmitter = {
  py(w, s) {
    pySpec(w, s, 'WebhookSpec', webhookFields(s));
    w.line();
    w.line();
    w.block(`def ${s.names.fn}(run: rt.Run, reads: dict[str, Any]) -> rt.StepOutcome:`, () => {
      w.line(`# ${stepDoc(s)}`);
      w.line(`return run.webhook(${s.names.spec}, reads)`);
    }, null);
  },
};
