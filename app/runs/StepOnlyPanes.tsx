import type { RunMeta } from '../../src/trace/events.ts';
import type { StepView } from '../../src/trace/replay.ts';
import { asText } from '../ui/format.ts';
import { AttemptList } from './AttemptList.tsx';
import { MessageList } from './MessageList.tsx';

/**
 * When no data crossed between two steps that both ran (the first step failed, or the chain
 * has one step), show the step that matters: the inputs, what it was sent, and its attempts.
 */
export function StepOnlyPanes({ meta, step }: { meta: RunMeta; step: StepView }) {
  const last = step.attempts[step.attempts.length - 1]?.record;
  return (
    <div className="replay-panes">
      <section className="pane" aria-label="Inputs">
        <div className="pane-title">Inputs</div>
        {Object.entries(meta.inputs).map(([name, value]) => (
          <div key={name} className="source-block">
            <div className="pane-subtitle mono">inputs.{name}</div>
            <pre className="text-block source-text">{asText(value)}</pre>
          </div>
        ))}
      </section>
      <section className="pane" aria-label={`Sent to ${step.name}`}>
        <div className="pane-title">Sent to {step.name}</div>
        {last ? <MessageList messages={last.messages} segments={last.segments} /> : <p className="muted small">This step made no model call.</p>}
      </section>
      <section className="pane" aria-label="Attempts">
        <div className="pane-title">What came back</div>
        <pre className="text-block">{step.status === 'failed' ? '(no output: the step failed)' : asText(step.output) || '(none)'}</pre>
        <AttemptList step={step} />
      </section>
    </div>
  );
}
