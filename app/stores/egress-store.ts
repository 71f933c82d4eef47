import { create } from 'zustand';

/**
 * Webhook consent on this device: the answer given per origin, and the question being asked
 * now (if any). The answers mirror localStorage; app/egress/consent.ts writes there first and
 * then sets them here, never the other way round.
 */
export type EgressAnswer = 'allowed' | 'refused';

export interface EgressQuestion {
  origin: string;
  chainName: string;
  /** The webhook steps that would post there. */
  steps: readonly string[];
  answer(answer: EgressAnswer | null): void;
}

interface EgressState {
  answers: Readonly<Record<string, EgressAnswer>>;
  asking: EgressQuestion | null;
  setAnswers(answers: Readonly<Record<string, EgressAnswer>>): void;
  setAsking(question: EgressQuestion | null): void;
}

export const useEgressStore = create<EgressState>()((set) => ({
  answers: {},
  asking: null,
  setAnswers: (answers) => set({ answers }),
  setAsking: (asking) => set({ asking }),
}));

export const selectEgressAnswers = (s: EgressState) => s.answers;
export const selectEgressQuestion = (s: EgressState) => s.asking;
