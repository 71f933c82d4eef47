import { createConsentBook } from './consent-book.ts';
import { webhookConsent } from './consent.ts';

/**
 * Consent for the app to read traces from a `seamscope collect` at an origin: given by
 * connecting to it by name, withdrawn by Disconnect (in any tab: the others stop at their next
 * read). Kept apart from webhook consent (consent-book.ts says why).
 */
export const collectorConsent = createConsentBook('seamscope.collector-consent.v1');

/** Where the Connect dialog keeps the last address (never the token). */
export const COLLECTOR_ADDRESS_KEY = 'seamscope.collector.address.v1';

/**
 * Before the two were apart, connecting a collector stored an 'allowed' webhook answer for its
 * origin, which then let any chain's webhook post there unasked. Once per device, the last
 * collector address is taken out of the webhook answers (a webhook the person did allow there is
 * asked about again: the safe side).
 */
export function separateCollectorConsent(): void {
  try {
    const storage = globalThis.localStorage;
    if (!storage || storage.getItem(collectorConsent.storageKey) !== null) return;
    const address = storage.getItem(COLLECTOR_ADDRESS_KEY);
    if (address && webhookConsent.answerFor(address) === 'allowed') webhookConsent.save(address, null);
    storage.setItem(collectorConsent.storageKey, '{}');
  } catch {
    // Storage blocked: there is nothing stored to separate.
  }
}
