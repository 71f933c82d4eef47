/**
 * Branded ids: a step id and a run id are both strings on disk and in the trace, but a function
 * that wants one cannot be handed the other (or a step's name). The brand exists only in types.
 */
declare const brand: unique symbol;
type Brand<T, B extends string> = T & { readonly [brand]: B };

export type StepId = Brand<string, 'StepId'>;
export type RunId = Brand<string, 'RunId'>;

/** The one place a string becomes a StepId: the chain schema has already checked it is an identifier. */
export const asStepId = (id: string): StepId => id as StepId;
/** The one place a string becomes a RunId (the engine makes them; traces and stores carry them). */
export const asRunId = (id: string): RunId => id as RunId;
