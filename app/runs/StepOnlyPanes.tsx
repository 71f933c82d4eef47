import type { RunMeta } from '../../src/trace/index.ts';
import type { StepView } from '../../src/trace/index.ts';
import { asText } from '../ui/format.ts';
import { AttemptList } from './AttemptList.tsx';
import { TruncationView } from './boundary/TruncationView.tsx';
import { MessageList } from './MessageList.tsx';

interface Props {
  meta: RunMeta;
  step: StepView;
  budget: number;
  /** Text streaming in for the running attempt (live runs only). */
  partial?: string;
}

/**
 * When no data crossed between two steps that both ran (the first step failed, the chain has
 * one step, or the run is an imported trace), show one step: the inputs, what it was sent, and
 * what came back. While a run is live this is where a running step's streamed text shows.
 */
export function StepOnlyPanes({ meta, step, budget, partial }: Props) {
  const last = step.attempts[step.attempts.length - 1]?.record;
  const inputs = Object.entries(meta.inputs);
  const running = step.status === 'running';
  return (
    <div className="replay-panes">
      <section className="pane" aria-label="Inputs">
        <div className="pane-title">Inputs</div>
        {inputs.length === 0 && <p className="muted small">This run has no chain inputs{meta.id.startsWith('otlp-') ? ': it was imported from a trace, which records calls, not inputs' : ''}.</p>}
        {inputs.map(([name, value]) => (
          <div key={name} className="source-block">
            <div className="pane-subtitle mono">inputs.{name}</div>
            <pre className="text-block source-text">{asText(value)}</pre>
          </div>
        ))}
      </section>
      <section className="pane" aria-label={`Sent to ${step.name}`}>
        <div className="pane-title">Sent to {step.name}</div>
        {last && <TruncationView record={last} budget={budget} />}
        {last ? (
          <MessageList messages={last.messages} segments={last.segments} />
        ) : (
          <p className="muted small">{running ? 'The first attempt is still out; what was sent is recorded when it comes back.' : 'This step made no model call.'}</p>
        )}
      </section>
      <section className="pane" aria-label="Attempts">
        <div className="pane-title">What came back</div>
        {running && partial ? (
          <pre className="text-block streaming-text" data-testid="replay.partial">
            {partial}
          </pre>
        ) : (
          <pre className="text-block" data-testid="replay.output">
            {step.status === 'failed' ? '(no output: the step failed)' : running ? '(still running)' : asText(step.output) || '(none)'}
          </pre>
        )}
        <AttemptList step={step} />
      </section>
    </div>
  );
}
