import type { AttemptRecord, PromptSegment } from '../../../src/trace/index.ts';
import { summariseTruncation } from './truncation-text.ts';

interface Props {
  record: AttemptRecord;
  /** The step's input budget when no cut happened (0: none set). */
  budget: number;
  /** The binding of the boundary on show: its segment is outlined. */
  binding?: string;
}

const nf = (n: number) => n.toLocaleString('en-US');

function segmentClass(kind: string): string {
  if (kind.startsWith('binding:')) return 'seg-binding';
  return `seg-${kind.replace(/[^a-z]/g, '') || 'other'}`;
}

type Block = { key: string; label: string; tokens: number; className: string; title: string };

/** Segments in prompt order, with the cut part placed where it was taken from. */
function blocks(segments: readonly PromptSegment[], record: AttemptRecord, binding: string | undefined): Block[] {
  const t = record.truncation;
  const out: Block[] = [];
  segments.forEach((s, i) => {
    const name = s.kind.startsWith('binding:') ? `{${s.kind.slice(8)}}` : s.kind;
    const cutHere = t && s.kind === `binding:${t.binding}`;
    const cut: Block | null = cutHere
      ? { key: `cut${i}`, label: `${nf(t.bindingTokensBefore - t.bindingTokensKept)} cut`, tokens: t.bindingTokensBefore - t.bindingTokensKept, className: 'seg-cut', title: `Cut by the budget from the ${t.from} of {${t.binding}}: ${nf(t.bindingTokensBefore - t.bindingTokensKept)} tokens` }
      : null;
    const kept: Block = {
      key: `s${i}`, label: name, tokens: s.tokens,
      className: `${segmentClass(s.kind)}${binding && s.kind === `binding:${binding}` ? ' is-this-boundary' : ''}`,
      title: `${name}: ${nf(s.tokens)} tokens${s.untrusted ? ' (untrusted, framed as data)' : ''}`,
    };
    if (cut && t?.from === 'start') out.push(cut, kept);
    else if (cut) out.push(kept, cut);
    else out.push(kept);
  });
  return out;
}

/**
 * The assembled context against the step's input budget: one block per segment, as wide as
 * its tokens, the budget as a line, and what the budget cut struck through after it, with a
 * sentence saying what that meant ("Given 5 chunks, read 4 …").
 */
export function TruncationView({ record, budget, binding }: Props) {
  const t = record.truncation;
  const limit = t?.budget ?? budget;
  const list = blocks(record.segments, record, binding);
  const total = list.reduce((n, b) => n + b.tokens, 0);
  if (total === 0) return null;
  const scale = Math.max(total, limit);
  const kept = record.segments.find((s) => t && s.kind === `binding:${t.binding}`)?.text;
  const summary = t ? summariseTruncation(t, kept) : null;
  return (
    <div className={t ? 'truncation has-cut' : 'truncation'} data-testid="replay.truncation">
      <div className="pane-subtitle">
        Context {limit > 0 ? 'against the budget' : 'by segment'}{' '}
        <span className="muted">
          {nf(total - (summary?.tokensCut ?? 0))} tokens sent{limit > 0 ? ` · budget ${nf(limit)}` : ''}
        </span>
      </div>
      <div className="seg-bar" role="img" aria-label={list.map((b) => `${b.label} ${b.tokens} tokens`).join(', ')}>
        {list.map((b) => (
          <span key={b.key} className={`seg ${b.className}`} style={{ flexGrow: b.tokens, flexBasis: 0 }} title={b.title}>
            <span className="seg-label">{b.label}</span>
          </span>
        ))}
        {limit > 0 && <span className="seg-spacer" style={{ flexGrow: Math.max(0, scale - total), flexBasis: 0 }} />}
        {limit > 0 && (
          <span className="seg-budget" style={{ left: `${(limit / scale) * 100}%` }} title={`Input budget: ${nf(limit)} tokens`}>
            <span className="seg-budget-label">budget {nf(limit)}</span>
          </span>
        )}
      </div>
      {summary && t && (
        <>
          <p className="truncation-sentence" data-testid="replay.truncation.sentence">
            {summary.sentence}
          </p>
          <details className="truncation-cut" data-testid="replay.truncation.cut">
            <summary>
              What was cut <span className="muted">({nf(summary.tokensCut)} tokens, from the {t.from} of {`{${t.binding}}`})</span>
            </summary>
            <pre className="text-block cut-text">
              <del>{t.cutText}</del>
            </pre>
          </details>
        </>
      )}
    </div>
  );
}
