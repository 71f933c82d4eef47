import { Dialog } from '../ui/Dialog.tsx';
import { selectEgressQuestion, useEgressStore } from '../stores/egress-store.ts';

/**
 * The question confirmEgress() asks: may this chain send data to this origin? Closing the
 * dialog is no answer (asked again next run); the buttons answer for this device.
 */
export function WebhookConsent() {
  const question = useEgressStore(selectEgressQuestion);
  if (!question) return null;
  return (
    <Dialog
      title="This chain sends data to a webhook"
      testId="webhook.confirm"
      onClose={() => question.answer(null)}
      footer={
        <>
          <button type="button" className="button" data-testid="webhook.confirm.no" onClick={() => question.answer('refused')}>
            Don't allow
          </button>
          <button type="button" className="button primary" data-testid="webhook.confirm.yes" onClick={() => question.answer('allowed')}>
            Allow {question.origin}
          </button>
        </>
      }
    >
      <p>
        <strong data-testid="webhook.confirm.chain">{question.chainName}</strong> posts its result to{' '}
        <code className="mono" data-testid="webhook.confirm.origin">{question.origin}</code>
        {' '}(step {question.steps.map((s) => `“${s}”`).join(', ')}).
      </p>
      <p className="muted small">
        Nothing has been sent there yet. A chain file can come from anywhere, so Seamscope asks once per address on this device before data leaves it. If you do not allow it, the run stops before any call.
      </p>
    </Dialog>
  );
}
