import type { Boundary, StepView } from '../../src/trace/replay.ts';
import { asText } from '../ui/format.ts';
import { AttemptList } from './AttemptList.tsx';
import { MessageList } from './MessageList.tsx';

interface Props {
  boundary: Boundary;
  producer: StepView | undefined;
  consumer: StepView | undefined;
}

/**
 * The seam, side by side: what the producer read, what it handed on, and exactly what the
 * consumer was sent. Everything here is model or trace text, so it is only ever rendered as
 * React text children, never as HTML.
 */
export function BoundaryPanes({ boundary, producer, consumer }: Props) {
  const consumerName = consumer?.name ?? boundary.consumer;
  return (
    <div className="replay-panes">
      <section className="pane" data-testid="replay.source" aria-label="Source">
        <div className="pane-title">Source</div>
        {boundary.sources.length === 0 && <p className="muted small">{producer?.name ?? boundary.producer} read no chain input directly or through earlier steps.</p>}
        {boundary.sources.map((s) => (
          <div key={s.name} className="source-block">
            <div className="pane-subtitle mono">inputs.{s.name}</div>
            <pre className="text-block source-text">{s.text}</pre>
          </div>
        ))}
      </section>
      <section className="pane" data-testid="replay.intermediate" aria-label="Intermediate">
        <div className="pane-title">
          Intermediate <span className="muted">from {producer?.name ?? boundary.producer}, bound as {`{${boundary.binding}}`}</span>
        </div>
        <pre className="text-block">{asText(boundary.intermediate)}</pre>
        {producer && <AttemptList step={producer} />}
      </section>
      <section className="pane" data-testid="replay.received" aria-label={`Received by ${consumerName}`}>
        <div className="pane-title">Received by {consumerName}</div>
        {boundary.received ? (
          <MessageList messages={boundary.received.messages} segments={boundary.received.segments} />
        ) : (
          <p className="muted small">{consumerName} makes no model call; it read {`{${boundary.binding}}`} as shown in the intermediate.</p>
        )}
        <div className="pane-subtitle">Output of {consumerName}</div>
        <pre className="text-block">{consumer?.status === 'failed' ? '(no output: the step failed)' : asText(boundary.consumerOutput) || '(none)'}</pre>
        {consumer && <AttemptList step={consumer} />}
      </section>
    </div>
  );
}
