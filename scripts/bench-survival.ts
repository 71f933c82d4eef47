/**
 * Accuracy of the boundary analysis on the labelled survival set (src/testing/survival-set), with
 * quantity questions and condition questions apart: per document and overall, precision and
 * recall of "an asked fact was dropped" (per fact) and of the boundary's lossy verdict (per
 * intermediate), the false-alarm rate on faithful intermediates, and for conditions how many
 * numbers-only intermediates (every number kept, the condition dropped) were flagged and the
 * recall on the dropped condition facts themselves (`condition R`). Offline;
 * prints figures and asserts nothing.
 *
 *   npx tsx scripts/bench-survival.ts [--misses] [--json]
 *
 * `--misses` lists every wrong judgement, except on the held-out documents (the airline policy's
 * quantity questions, the Neoforma contract's condition questions: scored, never looked at item
 * by item while tuning the rules). `--json` ends with one line
 * `{"bench":"survival","overall":…,"quantities":{"overall","documents"},"conditions":{…}}`.
 */
import { precision, recall, scoreSet, total, type DocumentScore, type Miss } from '../src/testing/survival-set/score.ts';
import { isHeldOut, loadSurvivalSet, type QuestionKind } from '../src/testing/survival-set/set.ts';

const args = new Set(process.argv.slice(2));
const docs = loadSurvivalSet();
const f2 = (v: number) => v.toFixed(2);
const pct = (n: number, d: number) => (d === 0 ? '—' : `${((100 * n) / d).toFixed(1)}%`);
const ratio = (n: number, d: number) => (d === 0 ? null : n / d);

function row(d: DocumentScore) {
  const numbersOnly = d.byKind['numbers-only'];
  return [
    d.name + (d.heldOut ? ' (held out)' : ''), String(d.questions), String(d.intermediates),
    f2(precision(d.facts)), f2(recall(d.facts)), f2(precision(d.verdict)), f2(recall(d.verdict)),
    `${d.faithful.falseAlarms}/${d.faithful.total} (${pct(d.faithful.falseAlarms, d.faithful.total)})`,
    numbersOnly.total ? `${numbersOnly.lossy}/${numbersOnly.total}` : '—',
    d.conditionFacts.tp + d.conditionFacts.fn ? f2(recall(d.conditionFacts)) : '—',
    `${d.approximations.reported}/${d.approximations.total}`,
  ];
}

function table(title: string, documents: DocumentScore[]) {
  const header = ['document', 'questions', 'intermediates', 'fact P', 'fact R', 'lossy P', 'lossy R', 'false alarms (faithful)', 'numbers-only flagged', 'condition R', 'approx. reported'];
  const rows = [header, ...documents.map(row), row(total(documents))];
  if (documents.some((d) => d.heldOut)) rows.push(row({ ...total(documents, (d) => !d.heldOut), name: 'overall without held-out' }));
  const widths = header.map((_, i) => Math.max(...rows.map((r) => (r[i] as string).length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i] as number)).join(' | ')} |`;
  console.log(`\n${title}`);
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of rows.slice(1)) console.log(line(r));
}

/** The machine-readable figures of one document or total. */
const figures = (d: DocumentScore) => ({
  name: d.name, heldOut: d.heldOut, questions: d.questions, intermediates: d.intermediates,
  lossyRecall: recall(d.verdict), lossyPrecision: precision(d.verdict), factRecall: recall(d.facts), factPrecision: precision(d.facts),
  falseAlarmRate: ratio(d.faithful.falseAlarms, d.faithful.total),
  numbersOnlyFlagged: ratio(d.byKind['numbers-only'].lossy, d.byKind['numbers-only'].total),
  conditionFactRecall: ratio(d.conditionFacts.tp, d.conditionFacts.tp + d.conditionFacts.fn),
  verdict: d.verdict, facts: d.facts, conditionFacts: d.conditionFacts, faithful: d.faithful, approximations: d.approximations, byKind: d.byKind,
});

const scored = Object.fromEntries((['quantity', 'condition'] as QuestionKind[]).map((kind) => [kind, scoreSet(docs, kind)])) as Record<QuestionKind, { documents: DocumentScore[]; misses: Miss[] }>;
const quantities = total(scored.quantity.documents);
const conditions = total(scored.condition.documents);
table('Quantity questions (a number, a date or a named value)', scored.quantity.documents);
table('Condition questions (an exception, a prerequisite, a definition or scope, a negation, finality or permission, a limit in words)', scored.condition.documents);
const faithful = { total: quantities.faithful.total + conditions.faithful.total, falseAlarms: quantities.faithful.falseAlarms + conditions.faithful.falseAlarms };
console.log(`\ntargets: quantities lossy recall ≥0.95 (${f2(recall(quantities.verdict))}), lossy precision ≥0.90 (${f2(precision(quantities.verdict))}); ` +
  `conditions lossy recall ≥0.90 (${f2(recall(conditions.verdict))}); false alarms on faithful ≤5% overall (${faithful.falseAlarms}/${faithful.total}, ${pct(faithful.falseAlarms, faithful.total)})`);

if (args.has('--misses')) {
  for (const m of [...scored.quantity.misses, ...scored.condition.misses]) {
    if (isHeldOut(m.document, m.questionKind)) continue;
    console.log(`- ${m.question} (${m.questionKind}) [${m.kind}] expect ${m.expectLossy ? 'lossy' : 'ok'}, got ${m.lossy ? 'lossy' : 'ok'}` +
      `${m.missedFacts.length ? `; missed ${m.missedFacts.join(', ')}` : ''}${m.extraFacts.length ? `; extra ${m.extraFacts.slice(0, 6).join(', ')}${m.extraFacts.length > 6 ? ` …+${m.extraFacts.length - 6}` : ''}` : ''}`);
  }
}
if (args.has('--json')) {
  console.log(JSON.stringify({
    bench: 'survival',
    overall: { faithful, falseAlarmRate: ratio(faithful.falseAlarms, faithful.total) },
    quantities: { overall: figures(quantities), withoutHeldOut: figures(total(scored.quantity.documents, (d) => !d.heldOut)), documents: scored.quantity.documents.map(figures) },
    conditions: { overall: figures(conditions), withoutHeldOut: figures(total(scored.condition.documents, (d) => !d.heldOut)), documents: scored.condition.documents.map(figures) },
  }));
}
