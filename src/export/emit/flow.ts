import type { CodeWriter } from '../code-writer.ts';
import { commentText, pyString } from '../literals.ts';
import { fallbackChain, type ExportPlan, type ExportStep } from '../plan.ts';
import type { StepNames } from './context.ts';

/**
 * The chain's control flow, written out: each step in the engine's dependency order, a guard
 * where a step may be skipped (behind a router or after a skipped step), the fallbacks a
 * failed step runs in turn, and an early return at a halt, an abstention or an escalation.
 */
interface FlowSyntax {
  hash: string;
  reads(p: ExportStep): string;
  call(declare: boolean, result: string, names: StepNames, reads: string): string;
  fallbackCall(result: string, names: StepNames, reads: string): string;
  guard(spec: string, body: () => void): void;
  /** Steps that run at once (see flowGroups), each with its fallbacks, then their halts in order. */
  together(steps: readonly ExportStep[], plan: ExportPlan, nameOf: (id: string) => StepNames): void;
  /** `if (cond) stmt; // comment` or its Python block. */
  ifThen(cond: string, stmt: string, comment?: string): void;
  ret(expr: string): string;
}

const haltWords: Record<string, string> = { abort: 'the run fails', abstain: 'the run abstains', escalate: 'the run escalates to a person' };

function condition(p: ExportStep, plan: ExportPlan): string {
  const parts: string[] = [];
  if (p.chosenBy.length > 0) parts.push(`when ${p.chosenBy.join(' or ')} chose it`);
  const skippable = p.after.filter((id) => plan.steps.get(id)?.conditional || plan.steps.get(id)?.standby);
  if (skippable.length > 0) parts.push(`if ${skippable.join(' and ')} ran`);
  return parts.join(' and ');
}

/** The engine's default concurrency: at most this many independent steps run at once. */
export const MAX_AT_ONCE = 4;

/**
 * The plan's steps in runs of steps the engine starts together: in order, a step joins the
 * run before it unless it reads a step of that run (or a fallback of one), ends the run (a
 * terminal), or the run is full. A run of one is a step on its own.
 */
export function flowGroups(plan: ExportPlan): string[][] {
  const groups: string[][] = [];
  let group: string[] = [];
  let taken = new Set<string>();
  const close = () => {
    if (group.length > 0) groups.push(group);
    group = [];
    taken = new Set();
  };
  for (const id of plan.order) {
    const p = plan.steps.get(id) as ExportStep;
    const fallbacks = fallbackChain(plan, id);
    const terminal = p.def.terminal || fallbacks.some((f) => f.def.terminal);
    const reads = [p, ...fallbacks].flatMap((x) => [...x.after, ...x.chosenBy]);
    if (terminal || group.length >= MAX_AT_ONCE || reads.some((r) => taken.has(r))) close();
    group.push(id);
    taken.add(id);
    for (const f of fallbacks) taken.add(f.step.id);
    if (terminal) close();
  }
  close();
  return groups;
}

function stepComment(p: ExportStep, plan: ExportPlan): string {
  return commentText(`${p.step.id} (${p.step.kind})${p.conditional ? ` — runs only ${condition(p, plan)}` : ''}`);
}

/** The on-fail policy that stands when a step and its fallbacks have all failed. */
function standingPolicy(p: ExportStep, fallbacks: readonly ExportStep[]): string {
  const last = fallbacks[fallbacks.length - 1] ?? p;
  // Past the engine's fallback depth a remaining fallback policy counts as abort.
  const policy = last.fallback ? 'abort' : last.onFail;
  return haltWords[policy] ?? policy;
}

function writeFlow(w: CodeWriter, plan: ExportPlan, names: Map<string, StepNames>, syntax: FlowSyntax): void {
  const nameOf = (id: string) => names.get(id) as StepNames;
  for (const group of flowGroups(plan)) {
    if (group.length > 1) {
      syntax.together(group.map((id) => plan.steps.get(id) as ExportStep), plan, nameOf);
      w.line();
      continue;
    }
    const id = group[0] as string;
    const p = plan.steps.get(id) as ExportStep;
    const n = nameOf(id);
    const fallbacks = fallbackChain(plan, id);
    w.line(`${syntax.hash} ${stepComment(p, plan)}`);
    const body = () => {
      w.line(syntax.call(fallbacks.length === 0, n.result, n, syntax.reads(p)));
      for (const fb of fallbacks) {
        syntax.ifThen(`${n.result}.failed`, syntax.fallbackCall(n.result, nameOf(fb.step.id), syntax.reads(fb)), commentText(`${fb.step.id} runs in its place`));
      }
      syntax.ifThen(`${n.result}.failed`, syntax.ret(`run.halt(${n.result})`), `on fail: ${standingPolicy(p, fallbacks)}`);
      // Abstain and escalate end the run; an output's value is kept and the run goes on to every reachable step.
      if (p.def.terminal || fallbacks.some((f) => f.def.terminal)) syntax.ifThen(`run.ends(${n.result})`, syntax.ret(`run.end(${n.result})`));
    };
    if (p.conditional) syntax.guard(n.spec, body);
    else body();
    w.line();
  }
  w.line(syntax.ret('run.complete()'));
}

/** The comment over steps that run at once. */
function togetherComment(steps: readonly ExportStep[]): string {
  const ids = steps.map((p) => p.step.id);
  return commentText(`${ids.slice(0, -1).join(', ')} and ${ids[ids.length - 1]} read none of each other: they run at once, as in the engine, and a failure among them halts the run once all have settled`);
}

/**
 * The order the engine runs a chain's steps in, as comment lines (the TypeScript program runs
 * on the engine's own scheduler, so its flow is described rather than written out): each run of
 * steps started together, with when a step runs at all and what its failure does.
 */
export function flowOutline(plan: ExportPlan): string[] {
  const lines: string[] = [];
  for (const group of flowGroups(plan)) {
    const steps = group.map((id) => plan.steps.get(id) as ExportStep);
    if (steps.length > 1) lines.push(togetherComment(steps));
    for (const p of steps) {
      const fallbacks = fallbackChain(plan, p.step.id);
      const then = fallbacks.map((fb) => `${fb.step.id} runs in its place`);
      lines.push(`${steps.length > 1 ? '  ' : ''}${stepComment(p, plan)}; on fail: ${commentText([...then, standingPolicy(p, fallbacks)].join(', then '))}${p.def.terminal ? '; a terminal (an output is kept, abstain and escalate end the run)' : ''}`);
    }
  }
  return lines;
}

export function writePyFlow(w: CodeWriter, plan: ExportPlan, names: Map<string, StepNames>): void {
  const reads = (p: ExportStep) => `{${Object.entries(p.bindings).map(([k, ref]) => `${pyString(k)}: run.read(${pyString(ref)})`).join(', ')}}`;
  w.block('def flow(run: rt.Run) -> rt.RunEnd:', () => {
    w.line('# The chain\'s control flow: each step in dependency order, branches as plain if/else.');
    writeFlow(w, plan, names, {
      hash: '#',
      reads,
      call: (_declare, result, n, r) => `${result} = run.step(${n.spec}, ${r}, ${n.fn})`,
      fallbackCall: (result, n, r) => `${result} = run.fallback(${result}, ${n.spec}, ${r}, ${n.fn})`,
      guard: (spec, body) => w.block(`if run.ready(${spec}):`, body, null),
      together: (steps, plan, nameOf) => {
        w.line(`# ${togetherComment(steps)}`);
        const tasks: string[] = [];
        for (const p of steps) {
          const n = nameOf(p.step.id);
          const fallbacks = fallbackChain(plan, p.step.id);
          const call = `run.step(${n.spec}, ${reads(p)}, ${n.fn})`;
          w.line(`# ${stepComment(p, plan)}`);
          if (!p.conditional && fallbacks.length === 0) {
            tasks.push(`lambda: ${call}`);
            continue;
          }
          const task = n.task as string;
          tasks.push(task);
          w.block(`def ${task}() -> rt.StepResult | None:`, () => {
            if (p.conditional) w.block(`if not run.ready(${n.spec}):`, () => w.line('return None'), null);
            if (fallbacks.length === 0) return w.line(`return ${call}`);
            w.line(`${n.result} = ${call}`);
            for (const fb of fallbacks) {
              w.block(`if ${n.result}.failed:  # ${commentText(`${fb.step.id} runs in its place`)}`, () => w.line(`${n.result} = run.fallback(${n.result}, ${nameOf(fb.step.id).spec}, ${reads(fb)}, ${nameOf(fb.step.id).fn})`), null);
            }
            w.line(`return ${n.result}`);
          }, null);
          w.line();
        }
        w.line(`${steps.map((p) => nameOf(p.step.id).result).join(', ')} = rt.map_concurrent([${tasks.join(', ')}], ${MAX_AT_ONCE}, lambda task, _index: task())`);
        for (const p of steps) {
          const n = nameOf(p.step.id);
          w.block(`if ${p.conditional ? `${n.result} is not None and ` : ''}${n.result}.failed:  # on fail: ${standingPolicy(p, fallbackChain(plan, p.step.id))}`, () => w.line(`return run.halt(${n.result})`), null);
        }
      },
      ifThen: (cond, stmt, comment) => w.block(`if ${cond}:${comment ? `  # ${comment}` : ''}`, () => w.line(stmt), null),
      ret: (expr) => `return ${expr}`,
    });
  }, null);
}
