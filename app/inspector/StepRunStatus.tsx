import { useEditorStore } from '../stores/editor-store.ts';
import { useRunStore } from '../stores/run-store.ts';
import { selectLive } from '../stores/selectors.ts';

/** The live run's word on this step: status, and the endpoint's error (status and message) if any. */
export function StepRunStatus({ stepId }: { stepId: string }) {
  const live = useRunStore(selectLive);
  const chainId = useEditorStore((s) => s.chain?.id);
  const step = live?.chainId === chainId ? live?.steps[stepId] : undefined;
  if (!step) return null;
  return (
    <div className={`run-note status-${step.status}`} data-testid="inspector.run">
      <div>
        <span className="status-dot" /> Last run: {step.status}
        {step.attempts > 1 ? ` after ${step.attempts} attempts` : ''}
      </div>
      {step.endpointError && (
        <div className="run-note-error">
          Endpoint error{step.endpointError.status ? ` ${step.endpointError.status}` : ''}: {step.endpointError.message}
        </div>
      )}
      {step.failure && !(step.endpointError && step.failure.message.includes(step.endpointError.message)) && (
        <div className="run-note-error">
          {step.failure.code}: {step.failure.message}
        </div>
      )}
    </div>
  );
}
