import type { RerunFidelity } from '../../src/trace/index.ts';

/**
 * What a rerun of a recorded call sends again of the recorded request, and what it does not
 * (src/trace/recorded-request.ts): shown where the person starts the rerun (`planned`, read
 * from the trace alone) and on the rerun's attempt in the replay (checked against the body
 * the provider built). "Not sent" stands out: it is why an answer may differ other than the edit.
 */
export function RerunFidelityLine({ fidelity, planned = false, testId }: { fidelity: RerunFidelity; planned?: boolean; testId: string }) {
  const { sent, notSent, added, settingsRecorded } = fidelity;
  return (
    <div className="rerun-fidelity small" data-testid={testId}>
      <span>{planned ? 'Sends' : 'Sent'} as recorded: {sent.length ? sent.join(', ') : 'nothing beyond the messages'}</span>
      {'; '}
      <span className={notSent.length ? 'rerun-not-sent' : undefined} data-testid={`${testId}.notSent`}>
        not sent: {notSent.length ? notSent.join(', ') : 'nothing the trace recorded'}
      </span>
      {added.length > 0 && <span>; also sent: {added.join(', ')}</span>}.
      {!settingsRecorded && <span className="muted"> The trace recorded no other request settings, so it cannot show whether the call set more.</span>}
    </div>
  );
}
