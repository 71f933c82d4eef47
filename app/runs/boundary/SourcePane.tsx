import { useEffect, useMemo, useRef, useState } from 'react';
import type { BoundaryReport } from '../../../src/inspect/index.ts';
import type { Boundary } from '../../../src/trace/index.ts';
import { factPieces } from './fact-spans.ts';
import { askedFactLines } from './survival-lines.ts';
import { DocLink } from '../../ui/DocLink.tsx';

interface Props {
  boundary: Boundary;
  report: BoundaryReport | null;
  producerName: string;
}

const statusText: Record<string, string> = {
  survived: 'kept in the intermediate',
  approximated: 'only approximated in the intermediate',
  changed: 'changed in the intermediate (another unit or qualifier, or a condition said the other way round)',
  dropped: 'dropped from the intermediate',
};

/**
 * One source with its facts marked: dropped red, kept green, approximated or changed amber;
 * the facts the question is about are filled (the kinds asked for, when no fact matched its words).
 */
function FactText({ text, report, source }: { text: string; report: BoundaryReport; source: string }) {
  const pieces = useMemo(() => factPieces(text, report.survival.facts.filter((f) => f.source === source)), [text, report, source]);
  const askedFacts = useMemo(() => new Map(report.askedFacts.map((a) => [a.fact, a])), [report]);
  const askedKinds = new Set<string>(report.askedFacts.length ? [] : report.asked);
  const reachable = report.sourcesAlsoReceived.includes(source);
  return (
    <pre className="text-block source-text">
      {pieces.map((p, i) => {
        if (p.kind === 'text') return p.text;
        const { fact } = p;
        const state = fact.survived ? 'survived' : 'dropped';
        const status = fact.status ?? state;
        const asked = askedFacts.get(fact);
        const lead = report.lead?.fact === fact;
        const classes = ['fact', `is-${state}`, status !== state ? `is-${status}` : '', asked || askedKinds.has(fact.kind) ? 'is-asked' : '', lead ? 'is-lead' : ''].filter(Boolean).join(' ');
        const clause = fact.kind === 'condition' && fact.unit !== undefined;
        const said = clause && fact.matchedWords?.length ? `; words the intermediate says too: ${fact.matchedWords.join(', ')}` : '';
        const title = `${clause ? `${fact.unit} “${fact.text}”` : `${fact.kind} “${fact.normalized}”`}: ${statusText[status] ?? status}${fact.restatedAs ? ` as “${fact.restatedAs}”` : ''}${said}` +
          `${!fact.survived && reachable ? ' (the consumer also reads this source)' : ''}${asked ? `. Asked: ${asked.why}` : ''}`;
        return (
          <mark key={i} className={classes} data-testid="replay.fact" data-state={state} data-status={status} data-kind={fact.kind} data-clause={clause ? fact.unit : undefined} data-lead={lead ? 'true' : undefined} title={title}>
            {p.text}
          </mark>
        );
      })}
    </pre>
  );
}

/** Asked facts shown before "N more": the best two, one line each, leave the source most of the pane. */
const ASKED_SHOWN = 2;

/**
 * The facts the question asks for, best first. Folded (the default) each is one line, cut with
 * an ellipsis and whole on hover, and only the best ASKED_SHOWN show; unfolded, every one with
 * why it was judged asked, scrolling within at most 45 % of the pane.
 */
function AskedFacts({ report }: { report: BoundaryReport }) {
  const [open, setOpen] = useState(false);
  const lines = askedFactLines(report);
  const hidden = open ? 0 : Math.max(0, lines.length - ASKED_SHOWN);
  const lost = lines.filter((l) => l.lost).length;
  return (
    <div className={open ? 'asked-facts is-open' : 'asked-facts'} data-testid="replay.askedFacts">
      <ol className="small" data-testid="replay.asked" aria-label="What the question asks, and why">
        {lines.map((l, i) => (
          <li key={i} className={l.lost ? 'is-bad' : ''} data-testid="replay.askedFact" hidden={!open && i >= ASKED_SHOWN} title={open ? undefined : `${l.text} (${l.why})`}>
            {l.text} <span className="muted">({l.why})</span>
          </li>
        ))}
      </ol>
      {lines.length > ASKED_SHOWN && (
        <button
          type="button"
          className="link-button small"
          data-testid="replay.askedToggle"
          aria-expanded={open}
          title={open ? 'One line each, the best two' : `Every asked fact (${lost} of ${lines.length} not kept), with why each was judged asked`}
          onClick={() => setOpen(!open)}
        >
          {open ? 'Fewer' : `+${hidden} more`}
        </button>
      )}
    </div>
  );
}

/**
 * What the producer read, with every extracted fact marked by whether it survived into the
 * intermediate. Opening a boundary scrolls to the lead (the asked fact the headline names), else
 * the first dropped fact of a kind the question asks for, else the first dropped fact, so a long
 * statute does not hide the loss.
 */
export function SourcePane({ boundary, report, producerName }: Props) {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    const pane = ref.current;
    const facts = '.source-block mark.fact';
    // The lead (the asked fact lost first, the one the headline names) before any other asked fact.
    const first = pane?.querySelector(`${facts}.is-lead`) ?? pane?.querySelector(`${facts}.is-dropped.is-asked`) ?? pane?.querySelector(`${facts}.is-dropped`);
    first?.scrollIntoView({ block: 'center', inline: 'nearest' });
  }, [boundary.id, report]);
  const dropped = report?.survival.dropped.length ?? 0;
  // One line beside the legend (cut with an ellipsis when the pane is narrow, whole on hover).
  const counts = report
    ? ` · ${dropped} of ${report.survival.facts.length} dropped; filled: asked${report.survival.boilerplate > 0 ? `; ${report.survival.boilerplate} about the document itself not counted` : ''}`
    : '';
  return (
    <section className="pane source-pane" data-testid="replay.source" aria-label="Source" ref={ref}>
      <div className="pane-title">
        Source
        {report && report.survival.facts.length > 0 && (
          <span className="fact-legend">
            <mark className="fact is-dropped is-asked">dropped</mark> <mark className="fact is-survived is-asked">kept</mark>
            <mark className="fact is-dropped is-approximated">approximated</mark>{' '}
            <mark className="fact is-dropped" data-clause="exception">condition</mark>
            <DocLink page="concepts" anchor="facts-and-named-conditions" topic="Facts and named conditions" />
            <span className="muted fact-counts" title={`${counts}. Filled: the facts the question asks for. Not counted: what the document says about itself (source notes, citations, years in headings).`}>
              {counts}
            </span>
          </span>
        )}
      </div>
      {report && report.askedFacts.length > 0 && <AskedFacts report={report} />}
      {/* The source text scrolls under the title and the ranked facts, which stay in view. */}
      <div className="source-scroll" data-testid="replay.sourceText">
        {boundary.sources.length === 0 && <p className="muted small">{producerName} read no chain input directly or through earlier steps.</p>}
        {boundary.sources.map((s) => (
          <div key={s.name} className="source-block">
            <div className="pane-subtitle mono">inputs.{s.name}</div>
            {report ? <FactText text={s.text} report={report} source={s.name} /> : <pre className="text-block source-text">{s.text}</pre>}
          </div>
        ))}
      </div>
    </section>
  );
}
