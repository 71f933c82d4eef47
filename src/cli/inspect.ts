import type { BoundaryReport, RunInspection } from '../inspect/boundary.ts';
import type { BoundarySufficiency } from '../inspect/sufficiency.ts';
import { boundaryVerdict } from '../inspect/verdict.ts';
import type { AskedFact } from '../inspect/relevance.ts';
import type { SurvivalFact } from '../inspect/survival.ts';
import type { Chain } from '../chain/schema.ts';
import type { OptionTable } from './args.ts';
import type { LoadedTrace } from './load-trace.ts';
import { terminalLine } from './terminal-text.ts';

/**
 * `seamscope inspect <trace> [--json] [--question TEXT] [--gold-fact TEXT]... [--limit N] [--strict]`:
 * each boundary's dropped facts, lossy flag and sufficiency (estimated, and labelled by a person). The trace is a
 * `.run.json`, an OTLP/JSON trace or a Langfuse export; the format is detected and said first. Exits 0 whenever
 * the file could be read, lossy or not: a lossy handoff is a finding, not a failure of the command.
 */
interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
  env: Record<string, string | undefined>;
}

export const inspectUsage = `Usage: seamscope inspect <trace> [--json] [--question TEXT] [--gold-fact TEXT]... [--limit N (0 = all)] [--strict]
       seamscope inspect <trace>... --judge CHAIN --endpoint URL [--protocol anthropic] [--model NAME] [--json]
       <trace> is a .run.json, an OTLP/JSON trace or a Langfuse trace export (the format is detected from the content).
       --gold-fact names a fact the answer needs (repeat it): each boundary's sufficiency is then judged on those facts.
       --judge runs a sufficiency judge chain (inputs question, intermediate; e.g. public/judges/sufficiency.chain.json)
       on every boundary and shows its agreement with your labels (confusion table, Cohen's kappa, n); its labels
       count only once that agreement is high enough. It needs a real endpoint: the demo model keeps the rule-based check.`;
export const inspectOptions: OptionTable = { json: 'flag', question: 'string', 'gold-fact': 'list', limit: 'string', strict: 'flag', judge: 'string', endpoint: 'string', protocol: 'string', model: 'string' };
const defaultLimit = 40;
/** Everything here came from the trace file: one line, with control and bidi characters escaped. */
const oneLine = (text: string) => terminalLine(String(text).replace(/\s+/g, ' ').trim());
const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

function compactFact(f: SurvivalFact) {
  return {
    kind: f.kind, text: f.text, normalized: f.normalized, source: f.source, section: f.section, line: f.line, status: f.status,
    ...(f.restatedAs !== undefined ? { restatedAs: f.restatedAs } : {}),
    // A condition clause: what kind of clause, and which of its words the intermediate says too.
    ...(f.kind === 'condition' && f.unit !== undefined ? { clause: f.unit, matchedWords: f.matchedWords ?? [] } : {}),
    occurrences: f.occurrences.length, lines: [...new Set(f.occurrences.map((o) => o.line))],
  };
}

/** Why a fact was judged asked: its relevance score, the question's words found around it, and whether its kind is the one the question's form wants. */
function askedFactJson(a: AskedFact) {
  return { ...compactFact(a.fact), score: a.score, matched: a.matched, kindMatch: a.kindMatch, why: a.why };
}

function jsonReport(report: RunInspection, trace: LoadedTrace) {
  return {
    format: 'seamscope.inspect', version: 1,
    source: { format: trace.format, name: trace.formatName, warnings: trace.warnings },
    run: { id: report.runId, chainName: report.chainName, status: report.status },
    lossy: report.boundaries.filter((b) => b.lossy).map((b) => b.boundaryId),
    sufficiency: report.sufficiencySummary,
    boundaries: report.boundaries.map((b, i) => ({
      sufficiency: { estimate: report.sufficiency[i]?.estimate, label: report.sufficiency[i]?.label ?? null },
      id: b.boundaryId, producer: b.producer, consumer: b.consumer, binding: b.binding,
      lossy: b.lossy, lead: b.lead ? { headline: b.lead.headline, asks: b.lead.asks, fact: compactFact(b.lead.fact) } : null, factsNeeded: b.factsNeeded,
      reasons: b.reasons, notes: b.notes, question: b.question, asked: b.asked, askedFacts: b.askedFacts.map(askedFactJson),
      sourcesAlsoReceived: b.sourcesAlsoReceived, byKind: b.survival.byKind,
      facts: b.survival.facts.length, boilerplate: b.survival.boilerplate, dropped: b.survival.dropped.map(compactFact), survived: b.survival.survived.map(compactFact),
    })),
  };
}

const verdictWords = { derivable: 'derivable', 'not-derivable': 'not derivable', unsure: 'unsure' } as const;

function sufficiencyLine(s: BoundarySufficiency | undefined): string | null {
  if (!s) return null;
  const estimate = s.estimate.verdict === 'unknown' ? 'not estimated' : `estimated ${s.estimate.verdict} (${s.estimate.reason})`;
  const label = s.label ? `; labelled ${verdictWords[s.label.verdict]}${s.label.note ? ` ("${s.label.note}")` : ''}` : '';
  return `sufficiency: ${estimate}${label}`;
}

function printBoundary(b: BoundaryReport, sufficiency: BoundarySufficiency | undefined, limit: number, io: Io): void {
  const { facts, dropped } = b.survival;
  io.out(`${oneLine(b.producer)} → ${oneLine(b.consumer)}: ${oneLine(boundaryVerdict(b))}`);
  if (b.lead) io.out(`  lead: ${oneLine(b.lead.headline)}`);
  if (b.question) io.out(`  question: ${oneLine(b.question)}${b.asked.length ? `  (asks for ${oneLine(b.asked.join(', '))})` : ''}`);
  else if (b.asked.length) io.out(`  instructions ask for ${oneLine(b.asked.join(', '))}`);
  for (const a of b.askedFacts.slice(0, 5)) {
    const status = a.status === 'survived' ? 'kept' : a.status === 'dropped' ? 'dropped' : `${a.status} as "${a.fact.restatedAs ?? ''}"`;
    io.out(`  asked: ${oneLine(a.fact.text)} (${oneLine(`${a.fact.source}:${a.fact.line}`)}) ${oneLine(status)} — ${oneLine(a.why)}`);
  }
  for (const note of b.notes) io.out(`  note: ${oneLine(note)}`);
  const line = sufficiencyLine(sufficiency);
  if (line) io.out(`  ${oneLine(line)}`);
  if (dropped.length === 0) return;
  io.out(`  dropped ${dropped.length} of ${facts.length} facts:`);
  // The kinds the consumer asked for first: those are the ones that explain a wrong answer.
  const rank = (f: SurvivalFact) => (b.asked.includes(f.kind) ? 0 : 1);
  const ordered = dropped.map((f, i) => ({ f, i })).sort((x, y) => rank(x.f) - rank(y.f) || x.i - y.i).map((x) => x.f);
  const shown = limit > 0 ? ordered.slice(0, limit) : ordered;
  const where = (f: SurvivalFact) => oneLine(`${f.source}:${f.line}`);
  const width = Math.max(...shown.map((f) => where(f).length));
  for (const f of shown) {
    const more = f.occurrences.length > 1 ? `  (×${f.occurrences.length})` : '';
    io.out(`    ${where(f).padEnd(width)}  ${f.kind.padEnd(10)} ${oneLine(f.text)}${more}`);
  }
  if (shown.length < ordered.length) io.out(`    … ${ordered.length - shown.length} more (--limit 0 lists all; --json for the full report)`);
}

/** An imported trace's span tree, indented, each span with its kind, duration and the step it became. */
function printSpanTree(run: LoadedTrace['run'], limit: number, io: Io): void {
  const spans = run.spans ?? [];
  if (spans.length === 0) return;
  const omitted = run.spansOmitted ?? 0;
  io.out(`spans: ${spans.length}${omitted ? ` (${omitted} more not kept)` : ''}`);
  // Twice the fact limit: a tree of a few dozen spans reads whole; --limit 0 lists all.
  const shown = limit > 0 ? spans.slice(0, limit * 2) : spans;
  for (const n of shown) {
    const step = n.stepId ? ` → step ${oneLine(n.stepId)}` : '';
    io.out(`  ${'  '.repeat(Math.min(n.depth, 20))}${n.kind} ${oneLine(n.name)} (${Math.round(n.durationMs)} ms at +${Math.round(n.startMs)} ms)${step}${n.error ? ` failed: ${oneLine(n.error)}` : ''}`);
  }
  if (shown.length < spans.length) io.out(`  … ${spans.length - shown.length} more spans (--limit 0 lists all)`);
}

export async function inspectCommand(positionals: string[], options: Record<string, string | true>, io: Io, lists: Record<string, string[]> = {}): Promise<number> {
  const [path] = positionals;
  if (!path) return io.err(inspectUsage), 2;
  if (typeof options.judge === 'string') {
    // The judge brings the engine and the providers: loaded only when asked for.
    const { inspectJudgeCommand } = await import('./inspect-judge.ts');
    return inspectJudgeCommand(positionals, options.judge, options, io);
  }
  if (positionals.length > 1) return io.err(`inspect reads one trace at a time (several only with --judge)\n${inspectUsage}`), 2;
  // The trace importers load only for the commands that read traces.
  const { formatPhrase, loadTrace } = await import('./load-trace.ts');
  const trace = await loadTrace(path, io);
  if (!trace) return 1;
  // Fact extraction loads only for this command.
  const { inspectRun } = await import('../inspect/boundary.ts');
  const { skippedSteps } = await import('../inspect/skipped.ts');
  const { runOutputs } = await import('../inspect/run-outputs.ts');
  let report: RunInspection;
  try {
    const gold = lists['gold-fact'] ?? [];
    const opts = { question: typeof options.question === 'string' ? options.question : undefined, strict: options.strict !== undefined, ...(gold.length ? { gold } : {}) };
    report = inspectRun(trace.run, trace.events, opts);
  } catch (error) {
    io.err(`${oneLine(path)}: cannot inspect this run (${oneLine((error as Error).message)})`);
    return 1;
  }
  if (options.json !== undefined) {
    io.out(JSON.stringify({
      ...jsonReport(report, trace), skipped: skippedSteps(trace.run.chain as Chain | undefined, trace.events), outputs: runOutputs(trace.run.chain as Chain | undefined, trace.events),
      ...(trace.run.spans ? { spans: trace.run.spans, spansOmitted: trace.run.spansOmitted ?? 0 } : {}),
    }, null, 2));
    return 0;
  }
  io.out(`${oneLine(path)}: read as ${formatPhrase(trace.format)}`);
  for (const warning of trace.warnings) io.out(`  note: ${oneLine(warning)}`);
  const limit = typeof options.limit === 'string' && /^\d+$/.test(options.limit) ? Number(options.limit) : defaultLimit;
  const lossy = report.boundaries.filter((b) => b.lossy).length;
  io.out(`run ${oneLine(report.runId)} "${oneLine(report.chainName)}" (${oneLine(report.status)}): ${report.boundaries.length} boundar${report.boundaries.length === 1 ? 'y' : 'ies'}, ${lossy} likely lossy`);
  const { estimated, labelled } = report.sufficiencySummary;
  const pct = (rate: number | null) => (rate === null ? '–' : `${Math.round(rate * 100)} %`);
  io.out(`sufficiency: ${estimated.sufficient} of ${estimated.sufficient + estimated.insufficient} estimated boundaries sufficient (${pct(estimated.rate)})` +
    (labelled.derivable + labelled.notDerivable + labelled.unsure > 0 ? `; labelled: ${labelled.derivable} derivable, ${labelled.notDerivable} not derivable, ${labelled.unsure} unsure` : ''));
  printSpanTree(trace.run, limit, io);
  report.boundaries.forEach((b, i) => printBoundary(b, report.sufficiency[i], limit, io));
  // A skipped step is said, with why: a route not taken, an input that did not run, a fallback not needed.
  const skipped = skippedSteps(trace.run.chain as Chain | undefined, trace.events);
  if (skipped.length) io.out(`not run: ${skipped.length} step${skipped.length === 1 ? '' : 's'}`);
  for (const s of skipped) io.out(`  ${oneLine(s.stepId)}: ${oneLine(s.reason)}`);
  // Several outputs: each by name, with its value or why it has none (one output is the run's output).
  const outputs = runOutputs(trace.run.chain as Chain | undefined, trace.events);
  if (outputs.length > 1) {
    io.out(`outputs: ${outputs.filter((o) => o.state === 'returned').length} of ${outputs.length} returned a value`);
    for (const o of outputs) io.out(`  ${oneLine(o.stepId)}: ${o.state === 'returned' ? clip(oneLine(JSON.stringify(o.value) ?? ''), 120) : `${o.state} (${oneLine(o.reason ?? '')})`}`);
  }
  return 0;
}
