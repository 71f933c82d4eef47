import type { Chain, StepDef } from '../../src/chain/index.ts';
import type { StepRegistry } from '../../src/steps/index.ts';

/**
 * After a large chain's first paint from configs read as they are (light-registry.ts), every
 * config is parsed for real. Two things keep that from costing the person the frames right after
 * the canvas appears:
 *  - the parse runs in idle slices that stop when the frame's idle time is up, not as one task
 *    of every config at once (a 3,000-step chain's parse was a ~100 ms task);
 *  - when every step draws alike both ways (the same bindings, branches and number of summary
 *    lines: what the canvas draws from), the canvas already shows what the parsed configs would
 *    give, so it is not derived again. A step that draws differently (an invalid config, a
 *    default the file left out that changes a line) still gets the canvas derived again.
 */

/** What the canvas draws of a step; null when the config does not parse (the card says so). */
export function drawnOf(registry: StepRegistry, step: StepDef): string | null {
  const def = registry.get(step.kind);
  const parsed = def?.config.safeParse(step.config);
  if (!def || !parsed?.success) return null;
  const lines = def.summary(parsed.data).length;
  // As the card's size reads it (use-canvas-elements.ts): up to six lines, then six and a "more".
  return JSON.stringify([def.bindings(parsed.data), def.branches(parsed.data), lines > 6 ? 7 : lines]);
}

/** One idle period: how long is left of it. */
export interface IdleDeadline {
  timeRemaining(): number;
}
export type IdleScheduler = (slice: (deadline: IdleDeadline) => void) => () => void;

/** requestIdleCallback where there is one (each slice at most a second late); else 8 ms slices on a timer. */
export const idleSlices: IdleScheduler = (slice) => {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(slice, { timeout: 1000 });
    return () => cancelIdleCallback(handle);
  }
  const handle = setTimeout(() => {
    const end = performance.now() + 8;
    slice({ timeRemaining: () => Math.max(0, end - performance.now()) });
  }, 50);
  return () => clearTimeout(handle);
};

/**
 * Parses every step's config with `exact` (which remembers its parses) in idle slices, and says
 * at the end whether `light` drew every step alike. Returns a cancel function.
 */
export function parseAfterPaint(chain: Chain, light: StepRegistry, exact: StepRegistry, done: (alike: boolean) => void, schedule: IdleScheduler = idleSlices): () => void {
  let next = 0;
  let alike = true;
  let cancel = () => {};
  const slice = (deadline: IdleDeadline) => {
    // At least one step per slice, so a page that is never idle still gets through.
    do {
      const step = chain.steps[next++] as StepDef;
      if (alike) alike = drawnOf(light, step) === drawnOf(exact, step);
      else exact.get(step.kind)?.config.safeParse(step.config);
    } while (next < chain.steps.length && deadline.timeRemaining() > 1);
    if (next < chain.steps.length) cancel = schedule(slice);
    else done(alike);
  };
  if (chain.steps.length === 0) done(true);
  else cancel = schedule(slice);
  return () => cancel();
}
