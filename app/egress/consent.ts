import type { Chain } from '../../src/chain/index.ts';
import { chainEgress, type EgressTarget } from '../../src/steps/egress.ts';
import { stepRegistry } from '../../src/steps/index.ts';
import { useEgressStore, type EgressAnswer } from '../stores/egress-store.ts';
import { createConsentBook } from './consent-book.ts';

/**
 * A webhook is egress, like a model endpoint: before the first call to a webhook origin the
 * person is asked, once per origin per device (a dialog naming the origin and the chain), and
 * the answer is kept in localStorage. A refusal stops the run before anything is sent.
 * These are webhook answers only: a collector's consent is kept apart (collector-consent.ts).
 */
export const webhookConsent = createConsentBook('seamscope.webhook-consent.v1');

/** Loads the stored answers into the store (at start, and when another tab changed them). */
export function loadEgressAnswers(): void {
  useEgressStore.getState().setAnswers(webhookConsent.read());
}

/** The stored answer for one origin (another tab may have changed it). */
export function egressAnswerFor(origin: string): EgressAnswer | undefined {
  return webhookConsent.answerFor(origin);
}

export function saveEgressAnswer(origin: string, answer: EgressAnswer | null): void {
  useEgressStore.getState().setAnswers(webhookConsent.save(origin, answer));
}

/** The chain's webhook targets whose origin was not allowed on this device (for Problems). */
export function unconfirmedTargets(chain: Chain, answers: Readonly<Record<string, EgressAnswer>>): (EgressTarget & { refused: boolean })[] {
  return chainEgress(chain, stepRegistry).filter((t) => answers[t.origin] !== 'allowed').map((t) => ({ ...t, refused: answers[t.origin] === 'refused' }));
}

function ask(origin: string, chainName: string, steps: string[]): Promise<EgressAnswer | null> {
  return new Promise((resolve) => {
    useEgressStore.getState().setAsking({
      origin, chainName, steps,
      answer: (answer) => {
        useEgressStore.getState().setAsking(null);
        if (answer) saveEgressAnswer(origin, answer);
        resolve(answer);
      },
    });
  });
}

/**
 * Before a run: every webhook origin of the chain allowed on this device, asking for each one
 * not answered yet. Resolves to the allowed origins, or to the reason the run must not start.
 */
export async function confirmEgress(chain: Chain): Promise<{ origins: string[] } | { refused: string }> {
  const byOrigin = new Map<string, string[]>();
  for (const t of chainEgress(chain, stepRegistry)) byOrigin.set(t.origin, [...(byOrigin.get(t.origin) ?? []), t.stepName]);
  const origins: string[] = [];
  for (const [origin, steps] of byOrigin) {
    const known = webhookConsent.answerFor(origin);
    const answer = known ?? (await ask(origin, chain.name, steps));
    if (answer !== 'allowed') {
      const why = answer === 'refused' ? 'webhook calls to it are not allowed on this device' : 'it was not confirmed';
      return { refused: `the webhook ${steps.map((s) => `"${s}"`).join(', ')} posts to ${origin}, and ${why}. Nothing was sent` };
    }
    origins.push(origin);
  }
  return { origins };
}
