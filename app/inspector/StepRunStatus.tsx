import { useEditorStore } from '../stores/editor-store.ts';
import { useRunStore } from '../stores/run-store.ts';
import { explainNetworkFailure, isNetworkFailure } from '../profiles/cors-hint.ts';
import '../profiles/profiles.css';
import { selectActiveProfile, selectChain, selectLive } from '../stores/selectors.ts';

/** The live run's word on this step: status, and the endpoint's error (status and message) if any. */
export function StepRunStatus({ stepId }: { stepId: string }) {
  const live = useRunStore(selectLive);
  const chainId = useEditorStore((s) => selectChain(s)?.id);
  const profile = useEditorStore(selectActiveProfile);
  const step = live?.chainId === chainId ? live?.steps[stepId] : undefined;
  if (!step) return null;
  // fetch says only "Failed to fetch": for a cross-origin endpoint that is usually CORS.
  const network = step.endpointError && !step.endpointError.status && isNetworkFailure(step.endpointError.message) && profile?.baseUrl
    ? explainNetworkFailure(profile.baseUrl, location.origin)
    : null;
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
      {network && (
        <div className="connection-explain" data-testid="inspector.run.cors">
          <div>{network.title}</div>
          {network.lines.map((line) => (
            <div key={line}>{line}</div>
          ))}
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
