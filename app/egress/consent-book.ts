import type { EgressAnswer } from '../stores/egress-store.ts';

/**
 * One kind of consent to reach an origin, kept per origin on this device in localStorage under
 * its own key. Each purpose has its own book (webhooks posting a chain's data, a collector the
 * app reads traces from): allowing an origin for one purpose says nothing about another, so a
 * person who let a chain's webhook post to an address has not let the app poll it, and the
 * other way round.
 */
export interface ConsentBook {
  readonly storageKey: string;
  /** Every stored answer (another tab may have changed them: read from storage each time). */
  read(): Record<string, EgressAnswer>;
  answerFor(origin: string): EgressAnswer | undefined;
  /** Stores an answer, or forgets it with null; returns every answer after the change. */
  save(origin: string, answer: EgressAnswer | null): Record<string, EgressAnswer>;
}

export function createConsentBook(storageKey: string): ConsentBook {
  const read = (): Record<string, EgressAnswer> => {
    try {
      const parsed = JSON.parse(globalThis.localStorage?.getItem(storageKey) ?? '{}') as unknown;
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
      const out: Record<string, EgressAnswer> = {};
      for (const [origin, answer] of Object.entries(parsed)) if (answer === 'allowed' || answer === 'refused') out[origin] = answer;
      return out;
    } catch {
      return {};
    }
  };
  return {
    storageKey,
    read,
    answerFor: (origin) => read()[origin],
    save(origin, answer) {
      const answers = read();
      if (answer) answers[origin] = answer;
      else delete answers[origin];
      try {
        globalThis.localStorage?.setItem(storageKey, JSON.stringify(answers));
      } catch {
        // Storage full or blocked: the answer still holds for this tab (the caller keeps it).
      }
      return answers;
    },
  };
}
