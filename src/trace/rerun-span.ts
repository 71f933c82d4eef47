import type { ChatMessage } from '../providers/types.ts';
import type { AttemptRecord, RunMeta, StepStatus, TraceEvent } from './events.ts';
import { readsOf } from './otlp/synthetic-chain.ts';
import { stringifyForPrompt } from '../chain/template.ts';
import type { PromptTemplate, SpanNode } from './span-tree.ts';

/**
 * Rerunning one model span of an imported (or collected) trace, the part that needs no model:
 * which recorded calls are reused, which are called again and which cannot be, and how the
 * new outputs and an edited prompt template reach the messages. A trace records what each call
 * was sent, not where its parts came from; the only reads it shows are an earlier call's output
 * found verbatim in a later call's input (the same rule the import draws bindings with). A
 * later call that shows no such read is kept as recorded, and the plan says why.
 */

/** One recorded model call of the trace, in the order the calls ran. */
export interface RecordedCall {
  stepId: string;
  name: string;
  record: AttemptRecord;
  status: StepStatus;
  output?: unknown;
}

/** Where a later call read an earlier call's output: the recorded text it contains, verbatim. */
export interface TraceRead {
  producer: string;
  needle: string;
  /** The JSON output field that text came from; absent when the whole output text was read. */
  field?: string;
}

export type PlannedStep =
  | { stepId: string; action: 'reused' }
  | { stepId: string; action: 'rerun'; reads: TraceRead[] }
  | { stepId: string; action: 'kept'; reason: string };

export interface SpanRerunPlan {
  fromStep: string;
  /** Every recorded call in order, with what happens to it. */
  steps: PlannedStep[];
  /** Recorded outputs reused without a call: the calls before the fork and those kept after it. */
  reused: string[];
  rerun: string[];
  kept: string[];
}

/** The recorded calls of a run made from a trace: each step's last attempt and its end. */
export function recordedCalls(meta: RunMeta, events: readonly TraceEvent[]): RecordedCall[] {
  const names = new Map(((meta.chain as { steps?: { id: string; name?: string }[] } | undefined)?.steps ?? []).map((s) => [s.id, s.name ?? s.id]));
  const order: string[] = [];
  const records = new Map<string, AttemptRecord>();
  const ends = new Map<string, Extract<TraceEvent, { type: 'step.finished' }>>();
  for (const e of events) {
    if (e.type === 'step.started' && !order.includes(e.stepId)) order.push(e.stepId);
    if (e.type === 'step.attempt' && e.unit === undefined) records.set(e.stepId, e.record);
    if (e.type === 'step.finished') ends.set(e.stepId, e);
  }
  return order.flatMap((stepId) => {
    const record = records.get(stepId);
    const end = ends.get(stepId);
    if (!record || !end) return [];
    return [{ stepId, name: names.get(stepId) ?? stepId, record, status: end.status, ...(end.output !== undefined ? { output: end.output } : {}) }];
  });
}

/** The span a step was made from, when the run came from a trace. */
export function spanOfStep(meta: RunMeta, stepId: string): SpanNode | undefined {
  return meta.spans?.find((n) => n.stepId === stepId);
}

/**
 * The plan for rerunning `fromStep`: the calls before it are reused, it is called again, and
 * each later call is called again when its recorded input holds, verbatim, the recorded output
 * of a call that is called again (so the new output can stand in the same place); otherwise it
 * is kept. Throws, in words a person can act on, when the step cannot be rerun at all.
 *
 * @example
 * const plan = planSpanRerun(meta, events, 'chat_mock_model');
 * plan.kept; // ['chat_mock_model_3']: the trace does not show it read the first call
 */
export function planSpanRerun(meta: RunMeta, events: readonly TraceEvent[], fromStep: string): SpanRerunPlan {
  if (!spanOfStep(meta, fromStep)) throw new Error(`"${fromStep}" is not a model span of an imported trace`);
  const calls = recordedCalls(meta, events);
  const at = calls.findIndex((c) => c.stepId === fromStep);
  const forked = calls[at];
  if (!forked) throw new Error(`the trace has no recorded call for "${fromStep}"`);
  if (forked.record.messages.length === 0) throw new Error('the trace recorded no messages for this call (content capture was off), so there is nothing to send again');
  const steps: PlannedStep[] = calls.slice(0, at).map((c) => ({ stepId: c.stepId, action: 'reused' }));
  steps.push({ stepId: fromStep, action: 'rerun', reads: [] });
  const again: RecordedCall[] = [forked];
  for (const call of calls.slice(at + 1)) {
    const reads = again.flatMap((p) => readsOf({ id: p.stepId, text: p.record.text, output: p.output }, call.record.messages)
      .map((r) => ({ producer: p.stepId, needle: r.needle, ...(r.field ? { field: r.field } : {}) })));
    if (reads.length > 0) {
      steps.push({ stepId: call.stepId, action: 'rerun', reads });
      again.push(call);
    } else {
      // Span names repeat ("chat gpt-4o" for every call): the step id tells them apart.
      const names = again.map((c) => (c.name === c.stepId ? c.stepId : `"${c.name}" (${c.stepId})`)).join(', ');
      const reason = call.record.messages.length === 0
        ? 'the trace recorded no messages for it, so it does not show what it read; it cannot be rerun and its recorded output is kept'
        : `the trace does not show what it read: no output of ${names} appears verbatim in its input, so it cannot be rerun with the new output; its recorded output is kept`;
      steps.push({ stepId: call.stepId, action: 'kept', reason });
    }
  }
  const ids = (action: PlannedStep['action']) => steps.filter((s) => s.action === action).map((s) => s.stepId);
  return { fromStep, steps, reused: [...ids('reused'), ...ids('kept')], rerun: ids('rerun'), kept: ids('kept') };
}

/** A call's new result, as far as a later call reads it. */
export interface NewOutput {
  text: string;
  output: unknown;
}

/**
 * A later call's recorded messages with each read replaced by the new output (every place the
 * recorded text stood). Returns the reason instead when a read field is missing from the new
 * output: the call cannot be made as the trace shows it.
 */
export function substituteReads(messages: readonly ChatMessage[], reads: readonly TraceRead[], outputs: ReadonlyMap<string, NewOutput>): { messages: ChatMessage[] } | { error: string } {
  const swaps: [string, string][] = [];
  for (const r of reads) {
    const next = outputs.get(r.producer);
    if (!next) return { error: `"${r.producer}" has no new output` };
    if (r.field === undefined) {
      swaps.push([r.needle, next.text.trim()]);
      continue;
    }
    const value = next.output !== null && typeof next.output === 'object' ? (next.output as Record<string, unknown>)[r.field] : undefined;
    if (value === undefined) return { error: `the new output of "${r.producer}" has no field "${r.field}", which this call read` };
    swaps.push([r.needle, stringifyForPrompt(value).trim()]);
  }
  // Longest first: a field's text inside a whole output's text is swapped with the whole.
  swaps.sort((a, b) => b[0].length - a[0].length);
  return { messages: messages.map((m) => ({ ...m, content: swaps.reduce((text, [from, to]) => text.split(from).join(to), m.content) })) };
}

const PLACEHOLDER = /\{\{\s*([A-Za-z_][\w.-]*)\s*\}\}|\{([A-Za-z_][\w.-]*)\}/g;

/**
 * A template rendered with its variables, in the two placeholder forms OpenInference templates
 * use: `{{name}}` (mustache) and `{name}` (f-string). One pass, so a value holding braces is
 * never rendered again; a placeholder with no variable stays as written.
 */
export function renderPromptTemplate(template: string, variables: Readonly<Record<string, string>>): string {
  return template.replace(PLACEHOLDER, (match, mustache: string | undefined, fstring: string | undefined) => {
    const name = (mustache ?? fstring) as string;
    return Object.hasOwn(variables, name) ? (variables[name] as string) : match;
  });
}

/**
 * The recorded messages with an edited template in place of the recorded one. The recorded
 * template, rendered with its recorded variables, must appear exactly once in the messages;
 * otherwise the trace does not show where the template went and the edit cannot be placed.
 */
export function applyTemplateEdit(messages: readonly ChatMessage[], recorded: PromptTemplate, edited: Pick<PromptTemplate, 'template' | 'variables'>): { messages: ChatMessage[] } | { error: string } {
  const rendered = renderPromptTemplate(recorded.template, recorded.variables);
  const found = messages.flatMap((m, i) => (rendered !== '' && m.content.includes(rendered) ? [i] : []));
  const once = found.length === 1 && (messages[found[0] as number]?.content.split(rendered).length ?? 0) === 2;
  if (!once) {
    return { error: found.length === 0
      ? 'the recorded template, rendered with its recorded variables, is not in the recorded messages, so the trace does not show where it went: edit the messages instead'
      : 'the recorded template, rendered with its recorded variables, appears more than once in the messages: edit the messages instead' };
  }
  const index = found[0] as number;
  const next = renderPromptTemplate(edited.template, edited.variables);
  return { messages: messages.map((m, i) => (i === index ? { ...m, content: m.content.replace(rendered, () => next) } : { ...m })) };
}
