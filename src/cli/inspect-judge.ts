import type { Chain } from '../chain/schema.ts';
import { addUsage, intermediateText, judgeBoundary, type BoundaryJudgement, type JudgeUsage } from '../eval/sufficiency-judge.ts';
import { inspectRun } from '../inspect/boundary.ts';
import { judgeAgreement, type LabelPair } from '../inspect/judge-agreement.ts';
import { createProviderForProfile, runModelSettings } from '../providers/profiles.ts';
import { stepRegistry } from '../steps/index.ts';
import { unconfirmedEgress } from '../steps/egress.ts';
import { labelOf } from '../trace/labels.ts';
import { buildRunView } from '../trace/replay.ts';
import { loadChain, type Io } from './load-chain.ts';
import { loadTrace } from './load-trace.ts';
import { createNodeFetch } from './node-fetch.ts';
import { profileFromArgs } from './run.ts';
import { terminalLine } from './terminal-text.ts';

const oneLine = (text: string) => terminalLine(String(text).replace(/\s+/g, ' ').trim());

interface JudgedRow {
  trace: string;
  runId: string;
  boundaryId: string;
  producer: string;
  consumer: string;
  question: string | null;
  judgement: BoundaryJudgement | null;
  /** The person's label of this boundary, if there is one. */
  label: string | null;
}

/**
 * `seamscope inspect <trace>... --judge CHAIN --endpoint URL`: a judge chain labels each boundary
 * derivable or not for its question, and its agreement with the person's labels on the same
 * boundaries (confusion table, Cohen's kappa, n) decides whether its labels count. With the
 * offline demo model there is no judge: the rule-based check stands.
 */
export async function inspectJudgeCommand(paths: string[], judgePath: string, options: Record<string, string | true>, io: Io): Promise<number> {
  if (typeof options.endpoint !== 'string') {
    io.err('--judge needs a real endpoint (--endpoint URL [--protocol anthropic] [--model NAME]): with the offline demo model the rule-based check stands, and a judge that only echoes it would agree with nothing');
    return 2;
  }
  const judge = await loadChain(judgePath, io);
  if (!judge) return 1;
  if (unconfirmedEgress(judge, stepRegistry, []).length > 0) return io.err(`${oneLine(judgePath)}: the judge posts to a webhook; inspect does not run chains with side effects`), 2;
  const missing = ['question', 'intermediate'].filter((name) => !judge.inputs.some((i) => i.name === name));
  if (missing.length) return io.err(`${oneLine(judgePath)}: a sufficiency judge takes the inputs "question" and "intermediate" (missing: ${missing.join(', ')})`), 2;
  let profile;
  try {
    profile = profileFromArgs(options);
  } catch (error) {
    return io.err((error as Error).message), 2;
  }
  const apiKey = io.env.SEAMSCOPE_API_KEY ?? (profile.kind === 'anthropic' ? io.env.ANTHROPIC_API_KEY : io.env.OPENAI_API_KEY);
  const ctx = { provider: createProviderForProfile(profile, { apiKey }), model: runModelSettings(profile), registry: stepRegistry, fetch: createNodeFetch() };
  const question = typeof options.question === 'string' ? options.question : undefined;

  const rows: JudgedRow[] = [];
  let usage: JudgeUsage = { calls: 0, inputTokens: 0, outputTokens: 0 };
  for (const path of paths) {
    const trace = await loadTrace(path, io);
    if (!trace) return 1;
    const view = buildRunView(trace.run, trace.events, stepRegistry);
    const report = inspectRun(trace.run, trace.events, { question });
    for (const [i, b] of view.boundaries.entries()) {
      const asked = report.boundaries[i]?.question ?? null;
      const label = labelOf(trace.run, b.id)?.verdict ?? null;
      const row: JudgedRow = { trace: path, runId: trace.run.id, boundaryId: b.id, producer: b.producer, consumer: b.consumer, question: asked, judgement: null, label };
      if (asked) {
        const source = b.sources.map((s) => s.text).join('\n\n');
        const judged = await judgeBoundary(judge as Chain, { question: asked, intermediate: intermediateText(b.intermediate), ...(source ? { source } : {}) }, ctx);
        row.judgement = judged.judgement;
        usage = addUsage(usage, judged.usage);
      }
      rows.push(row);
    }
  }
  const pairs: LabelPair[] = rows.flatMap((r) => (r.label && r.judgement?.verdict ? [{ judge: r.judgement.verdict, person: r.label as LabelPair['person'] }] : []));
  const agreement = judgeAgreement(pairs);

  if (options.json !== undefined) {
    io.out(JSON.stringify({ judge: { id: judge.id, name: judge.name }, usage, agreement, boundaries: rows }, null, 2));
    return 0;
  }
  const judgedCount = rows.filter((r) => r.judgement).length;
  io.out(`judge "${oneLine(judge.name)}" on ${paths.length} run${paths.length === 1 ? '' : 's'}: ${judgedCount} of ${rows.length} boundaries judged; ${usage.calls} judge call${usage.calls === 1 ? '' : 's'}, ${usage.inputTokens} tokens in, ${usage.outputTokens} out${usage.costUsd ? `, $${usage.costUsd.toFixed(4)}` : ''} (counted apart from the runs)`);
  const t = agreement.table;
  io.out(`agreement with your labels: n = ${agreement.n}${agreement.unsure ? ` (${agreement.unsure} marked unsure, left out)` : ''}`);
  if (agreement.n > 0) {
    io.out('                         you: derivable   not derivable');
    io.out(`  judge: derivable           ${String(t.derivable.derivable).padStart(9)}   ${String(t.derivable.notDerivable).padStart(13)}`);
    io.out(`  judge: not derivable       ${String(t.notDerivable.derivable).padStart(9)}   ${String(t.notDerivable.notDerivable).padStart(13)}`);
    io.out(`  observed ${Math.round((agreement.observed ?? 0) * 100)} %, Cohen's kappa ${agreement.kappa === null ? 'undefined' : agreement.kappa.toFixed(2)}`);
  }
  io.out(`${agreement.trusted ? 'trusted' : 'not trusted yet'}: ${agreement.why}`);
  for (const r of rows) {
    const head = `${oneLine(r.runId)} ${oneLine(r.producer)} → ${oneLine(r.consumer)}`;
    if (!r.judgement) {
      io.out(`  ${head}: not judged (no question found; give one with --question)`);
      continue;
    }
    const j = r.judgement;
    const said = j.verdict === null ? 'no verdict' : agreement.trusted ? j.verdict : `judge says ${j.verdict}`;
    const quote = j.quote ? (j.quote.found ? '' : ' [its quote is not in the intermediate]') : '';
    const yours = r.label ? ` · you: ${r.label}${j.verdict && r.label !== 'unsure' && r.label !== j.verdict ? ' (disagrees)' : ''}` : '';
    io.out(`  ${head}: ${said}${yours} — ${oneLine(j.reason)}${quote}`);
  }
  return 0;
}
