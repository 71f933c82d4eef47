import type { BoundaryReport } from '../../src/inspect/index.ts';
import type { Boundary, StepView } from '../../src/trace/index.ts';
import { asText } from '../ui/format.ts';
import { Columns } from '../ui/panes/Columns.tsx';
import { usePaneStore } from '../ui/panes/pane-store.ts';
import { AttemptList } from './AttemptList.tsx';
import { SourcePane } from './boundary/SourcePane.tsx';
import { TruncationView } from './boundary/TruncationView.tsx';
import { MessageList } from './MessageList.tsx';

interface Props {
  boundary: Boundary;
  report: BoundaryReport | null;
  producer: StepView | undefined;
  consumer: StepView | undefined;
  /** The consumer's input budget in tokens (0: none). */
  consumerBudget: number;
}

/**
 * The seam, side by side: what the producer read (facts marked dropped or kept), what it
 * handed on, and exactly what the consumer was sent, against its budget. Everything here is
 * model or trace text, so it is only ever rendered as React text children, never as HTML.
 */
export function BoundaryPanes({ boundary, report, producer, consumer, consumerBudget }: Props) {
  const consumerName = consumer?.name ?? boundary.consumer;
  const last = consumer?.attempts.at(-1)?.record;
  // The three widths are this device's, kept across boundaries, runs and reloads.
  const weights = usePaneStore((s) => s.replayColumns);
  const { setReplayColumns, commit } = usePaneStore.getState();
  const source = <SourcePane boundary={boundary} report={report} producerName={producer?.name ?? boundary.producer} />;
  const intermediate = (
    <section className="pane" data-testid="replay.intermediate" aria-label="Intermediate">
      <div className="pane-title">
        Intermediate <span className="muted">from {producer?.name ?? boundary.producer}, bound as {`{${boundary.binding}}`}</span>
      </div>
      <pre className="text-block">{asText(boundary.intermediate)}</pre>
      {producer && <AttemptList step={producer} />}
    </section>
  );
  const received = (
    <section className="pane" data-testid="replay.received" aria-label={`Received by ${consumerName}`}>
      <div className="pane-title">Received by {consumerName}</div>
      {last && <TruncationView record={last} budget={consumerBudget} binding={boundary.binding} />}
      {boundary.received ? (
        <MessageList messages={boundary.received.messages} segments={boundary.received.segments} />
      ) : (
        <p className="muted small">{consumerName} makes no model call; it read {`{${boundary.binding}}`} as shown in the intermediate.</p>
      )}
      <div className="pane-subtitle">Output of {consumerName}</div>
      <pre className="text-block" data-testid="replay.output">
        {consumer?.status === 'failed' ? '(no output: the step failed)' : asText(boundary.consumerOutput) || '(none)'}
      </pre>
      {consumer && <AttemptList step={consumer} />}
    </section>
  );
  return (
    <Columns
      className="replay-panes"
      columns={[
        { id: 'replay.panes.source', node: source },
        { id: 'replay.panes.intermediate', node: intermediate },
        { id: 'replay.panes.received', node: received },
      ]}
      weights={weights}
      minWidth={160}
      separatorLabel={(i) => (i === 0 ? 'Resize the source and intermediate panes' : 'Resize the intermediate and received panes')}
      onChange={(w) => setReplayColumns(w as [number, number, number])}
      onCommit={commit}
    />
  );
}
