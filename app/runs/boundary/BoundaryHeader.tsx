import type { BoundaryReport } from '../../../src/inspect/index.ts';
import { checksOnBoundary, stepLabel, type Boundary, type RunView, type StepView } from '../../../src/trace/index.ts';
import { malformedCount } from '../run-figures.ts';
import { survivalLines } from './survival-lines.ts';
import { DocLink } from '../../ui/DocLink.tsx';

const checkNames: Record<string, string> = {
  jsonSchema: 'schema', quoteContainment: 'quote containment', idSet: 'id set', citations: 'citations', numberConsistency: 'numbers', rule: 'rule',
};

interface Props {
  boundary: Boundary;
  report: BoundaryReport | null;
  producer: StepView | undefined;
  consumer: StepView | undefined;
  view: RunView;
}

/** The survival line as one text, for its tooltip: on screen it is one line, cut with an ellipsis. */
function survivalText(report: BoundaryReport, lines: { text: string }[], consumer: string, malformed: number): string {
  const parts = [report.lead?.headline ?? ''];
  if (!report.factsNeeded) parts.push(`${consumer} chooses a route from a label: the ${report.survival.dropped.length} source facts not in it are not its material`);
  else if (lines.length > 0) parts.push(...lines.map((l) => l.text));
  else parts.push(`${report.survival.dropped.length} of ${report.survival.facts.length} source facts dropped; the consumer asks for no particular kind`);
  if (report.lossy && malformed === 0) parts.push('the intermediate is well-formed: lossy is not malformed');
  return parts.filter(Boolean).join(' · ');
}

/**
 * The seam's verdicts in words, kept apart on purpose: "likely lossy" (valid shape, the
 * content the question needs is gone) is violet; "malformed" (the output broke its contract)
 * is red; a budget cut is amber. A boundary can be any, all or none of them.
 */
export function BoundaryHeader({ boundary, report, producer, consumer, view }: Props) {
  const malformed = malformedCount(producer);
  const truncation = consumer?.attempts.at(-1)?.record.truncation;
  const producerFailed = producer?.status === 'failed';
  // A gate's verdict belongs to the boundaries into that gate, not to every boundary from the same producer.
  const gates = checksOnBoundary(view, boundary);
  const lines = report ? survivalLines(report) : [];
  return (
    <div className="boundary-head" data-testid="replay.boundaryHead">
      <span className="boundary-name" title={`${stepLabel(boundary.producer, producer?.name)} → ${stepLabel(boundary.consumer, consumer?.name)} as {${boundary.binding}}`}>
        <strong>{stepLabel(boundary.producer, producer?.name)}</strong> → <strong>{stepLabel(boundary.consumer, consumer?.name)}</strong>
        <span className="muted"> as {`{${boundary.binding}}`}</span>
      </span>
      {report?.lossy && (
        <span className="verdict is-lossy" data-testid="replay.lossy" title={report.reasons.join('; ')}>
          Likely lossy
        </span>
      )}
      <DocLink page="concepts" anchor="boundaries-and-lossy-handoffs" topic="Boundaries, lossy and malformed handoffs" />
      {malformed > 0 && (
        <span className="verdict is-malformed" data-testid="replay.malformed" title="The output failed validation (not JSON, or not the schema): a malformed handoff, not a lossy one">
          Malformed ×{malformed}
          {producerFailed ? '' : ', fixed on retry'}
        </span>
      )}
      {truncation && (
        <span className="verdict is-truncated" data-testid="replay.truncated" title={`The ${truncation.budget}-token input budget cut {${truncation.binding}}`}>
          Budget cut {`{${truncation.binding}}`}
        </span>
      )}
      {gates.map((g) => {
        const failed = g.checks.filter((c) => !c.passed);
        return (
          <span key={g.stepId} className={failed.length ? 'verdict is-malformed' : 'verdict is-ok'} title={failed.flatMap((c) => c.problems).join('; ') || `${g.name}: passed`}>
            {g.checks.map((c) => checkNames[c.check] ?? c.check).join(', ')} check by {g.name}: {failed.length ? `${failed.reduce((n, c) => n + c.problems.length, 0)} problem(s)` : 'passed'}
          </span>
        );
      })}
      {report && (
        <span className="survival-line" data-testid="replay.survival" title={survivalText(report, lines, stepLabel(boundary.consumer, consumer?.name), malformed)}>
          {report.lead && (
            <span className="survival-lead is-bad" data-testid="replay.lead" title={report.reasons[0] ?? ''}>
              {report.lead.headline}
              {' · '}
            </span>
          )}
          {!report.factsNeeded ? (
            <span className="muted" data-testid="replay.notNeeded">
              {stepLabel(boundary.consumer, consumer?.name)} chooses a route from a label: the {report.survival.dropped.length} source fact{report.survival.dropped.length === 1 ? '' : 's'} not in it are not its material
            </span>
          ) : lines.length > 0
            ? lines.map((l, i) => (
                <span key={i} className={l.all && !report.lead ? 'is-bad' : ''}>
                  {i > 0 ? ' · ' : ''}
                  {l.text}
                </span>
              ))
            : `${report.survival.dropped.length} of ${report.survival.facts.length} source facts dropped; the consumer asks for no particular kind`}
          {report.lossy && malformed === 0 && <span className="muted"> · the intermediate is well-formed: lossy is not malformed</span>}
        </span>
      )}
    </div>
  );
}
