import type { CodeWriter } from '../code-writer.ts';
import { commentText, pyString, tsKey, tsString } from '../literals.ts';
import { fallbackChain, type ExportPlan, type ExportStep } from '../plan.ts';
import type { StepNames } from './context.ts';

/**
 * The chain's control flow, written out: each step in the engine's dependency order, a guard
 * where a step may be skipped (behind a router or after a skipped step), the fallbacks a
 * failed step runs in turn, and an early return at a halt or a terminal.
 */
interface FlowSyntax {
  hash: string;
  reads(p: ExportStep): string;
  call(declare: boolean, result: string, names: StepNames, reads: string): string;
  fallbackCall(result: string, names: StepNames, reads: string): string;
  guard(spec: string, body: () => void): void;
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

function writeFlow(w: CodeWriter, plan: ExportPlan, names: Map<string, StepNames>, syntax: FlowSyntax): void {
  const nameOf = (id: string) => names.get(id) as StepNames;
  for (const id of plan.order) {
    const p = plan.steps.get(id) as ExportStep;
    const n = nameOf(id);
    const fallbacks = fallbackChain(plan, id);
    const last = fallbacks[fallbacks.length - 1] ?? p;
    const when = p.conditional ? ` — runs only ${condition(p, plan)}` : '';
    w.line(`${syntax.hash} ${commentText(`${id} (${p.step.kind})${when}`)}`);
    const body = () => {
      w.line(syntax.call(fallbacks.length === 0, n.result, n, syntax.reads(p)));
      for (const fb of fallbacks) {
        syntax.ifThen(`${n.result}.failed`, syntax.fallbackCall(n.result, nameOf(fb.step.id), syntax.reads(fb)), commentText(`${fb.step.id} runs in its place`));
      }
      // Past the engine's fallback depth a remaining fallback policy counts as abort.
      const policy = last.fallback ? 'abort' : last.onFail;
      syntax.ifThen(`${n.result}.failed`, syntax.ret(`run.halt(${n.result})`), `on fail: ${haltWords[policy] ?? policy}`);
      if (p.def.terminal && fallbacks.length === 0) w.line(syntax.ret(`run.end(${n.result})`));
      else if (p.def.terminal || fallbacks.some((f) => f.def.terminal)) syntax.ifThen(`${n.result}.terminal`, syntax.ret(`run.end(${n.result})`));
    };
    if (p.conditional) syntax.guard(n.spec, body);
    else body();
    w.line();
  }
  w.line(syntax.ret('run.complete()'));
}

export function writeTsFlow(w: CodeWriter, plan: ExportPlan, names: Map<string, StepNames>): void {
  const reads = (p: ExportStep) => {
    const entries = Object.entries(p.bindings);
    return entries.length === 0 ? '{}' : `{ ${entries.map(([k, ref]) => `${tsKey(k)}: run.read(${tsString(ref)})`).join(', ')} }`;
  };
  w.line('/** The chain\'s control flow: each step in dependency order, branches as plain if/else. */');
  w.block('async function flow(run: rt.Run): Promise<rt.RunEnd> {', () => writeFlow(w, plan, names, {
    hash: '//',
    reads,
    call: (declare, result, n, r) => `${declare ? 'const' : 'let'} ${result} = await run.step(${n.spec}, ${r}, ${n.fn});`,
    fallbackCall: (result, n, r) => `${result} = await run.fallback(${result}, ${n.spec}, ${r}, ${n.fn});`,
    guard: (spec, body) => w.block(`if (run.ready(${spec})) {`, body),
    ifThen: (cond, stmt, comment) => w.line(`if (${cond}) ${stmt}${comment ? ` // ${comment}` : ''}`),
    ret: (expr) => `return ${expr};`,
  }));
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
      ifThen: (cond, stmt, comment) => w.block(`if ${cond}:${comment ? `  # ${comment}` : ''}`, () => w.line(stmt), null),
      ret: (expr) => `return ${expr}`,
    });
  }, null);
}
