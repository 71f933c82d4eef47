/**
 * Accuracy of the boundary analysis on the labelled survival set (src/testing/survival-set):
 * per document and overall, precision and recall of "an asked fact was dropped" (per fact) and
 * of the boundary's lossy verdict (per intermediate), and the false-alarm rate on faithful
 * intermediates. Offline; prints figures and asserts nothing.
 *
 *   npx tsx scripts/bench-survival.ts [--misses] [--json]
 *
 * `--misses` lists every wrong judgement, except on the held-out document (scored, never
 * looked at item by item while tuning the rules).
 */
import { precision, recall, scoreSet, total, type DocumentScore } from '../src/testing/survival-set/score.ts';

const args = new Set(process.argv.slice(2));
const { documents, misses } = scoreSet();
const f2 = (v: number) => v.toFixed(2);
const pct = (n: number, d: number) => (d === 0 ? '—' : `${((100 * n) / d).toFixed(1)}%`);

function row(d: DocumentScore) {
  return [
    d.name + (d.heldOut ? ' (held out)' : ''), String(d.questions), String(d.intermediates),
    f2(precision(d.facts)), f2(recall(d.facts)), f2(precision(d.verdict)), f2(recall(d.verdict)),
    `${d.faithful.falseAlarms}/${d.faithful.total} (${pct(d.faithful.falseAlarms, d.faithful.total)})`,
    `${d.approximations.reported}/${d.approximations.total}`,
  ];
}

const header = ['document', 'questions', 'intermediates', 'fact P', 'fact R', 'lossy P', 'lossy R', 'false alarms (faithful)', 'approx. reported'];
const rows = [header, ...documents.map(row), row(total(documents)), row({ ...total(documents, (d) => !d.heldOut), name: 'overall without held-out' })];
const widths = header.map((_, i) => Math.max(...rows.map((r) => (r[i] as string).length)));
const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i] as number)).join(' | ')} |`;
console.log(line(header));
console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
for (const r of rows.slice(1)) console.log(line(r));
const all = total(documents);
console.log(`targets: lossy recall ≥0.95 (${f2(recall(all.verdict))}), lossy precision ≥0.90 (${f2(precision(all.verdict))}), each document ≥0.85, false alarms on faithful ≤5% (${pct(all.faithful.falseAlarms, all.faithful.total)})`);

if (args.has('--misses')) {
  for (const m of misses) {
    if (documents.find((d) => d.name === m.document)?.heldOut) continue;
    console.log(`- ${m.question} [${m.kind}] expect ${m.expectLossy ? 'lossy' : 'ok'}, got ${m.lossy ? 'lossy' : 'ok'}` +
      `${m.missedFacts.length ? `; missed ${m.missedFacts.join(', ')}` : ''}${m.extraFacts.length ? `; extra ${m.extraFacts.slice(0, 6).join(', ')}${m.extraFacts.length > 6 ? ` …+${m.extraFacts.length - 6}` : ''}` : ''}`);
  }
}
if (args.has('--json')) console.log(JSON.stringify({ bench: 'survival', overall: { lossyRecall: recall(all.verdict), lossyPrecision: precision(all.verdict), factRecall: recall(all.facts), factPrecision: precision(all.facts), falseAlarmRate: all.faithful.total ? all.faithful.falseAlarms / all.faithful.total : null }, documents: documents.map((d) => ({ ...d, factPrecision: precision(d.facts), factRecall: recall(d.facts), lossyPrecision: precision(d.verdict), lossyRecall: recall(d.verdict) })) }));
