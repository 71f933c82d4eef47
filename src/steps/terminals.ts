import * as z from '../chain/zod-mini.ts';
import { bindingsField } from './common.ts';
import { defineStep } from './types.ts';

/**
 * The two terminals that end a run without an answer: `abstain` (say no answer and why) and
 * `escalate` (hand to a person). Reaching one sets the run's status, so abstentions and
 * escalations are counted apart from failures.
 */
export const reasonTerminalConfigSchema = z.object({
  bindings: bindingsField(),
  /** Shown to whoever reads the result, e.g. "No section of the policy answers this." */
  reason: z._default(z.string().check(z.maxLength(2000)), ''),
});
export type ReasonTerminalConfig = z.infer<typeof reasonTerminalConfigSchema>;

function reasonTerminal<K extends 'abstain' | 'escalate'>(kind: K, title: string, description: string) {
  return defineStep<K, ReasonTerminalConfig>({
    kind, title, group: 'Terminal', description,
    config: reasonTerminalConfigSchema,
    defaults: () => ({ bindings: {}, reason: '' }),
    bindings: (cfg) => cfg.bindings,
    // Optional: a terminal without a value still ends the run with its reason.
    expectedBindings: () => [{ name: 'value', required: false, connect: 'what to hand over with the reason' }],
    branches: () => [],
    terminal: true,
    produces: { by: 'code' },
    python: { form: 'call', spec: 'ReasonSpec', method: kind, fields: (cfg) => ({ reason: cfg.reason }) },
    fields: [
      { kind: 'text', key: 'reason', label: 'Reason' },
      { kind: 'bindings', key: 'bindings', label: 'Carries (value)' },
    ],
    summary: (cfg) => [cfg.reason || `${title.toLowerCase()} (no reason given)`],
    outputSchema: () => ({ type: 'object', properties: { reason: { type: 'string' }, value: {} } }),
    async run(ctx) {
      return { status: 'succeeded', output: { reason: ctx.config.reason, value: ctx.values.value ?? null }, terminal: kind };
    },
  });
}

export const abstainStep = reasonTerminal('abstain', 'Abstain', 'Ends the run with no answer, and says why.');
export const escalateStep = reasonTerminal('escalate', 'Escalate', 'Ends the run by handing it to a person.');
