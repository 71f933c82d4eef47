import type { BoundaryReport } from './boundary.ts';

/** A boundary's verdict in words, as `inspect` prints it after `producer → consumer:` (and `collect` for each trace). */
export function boundaryVerdict(b: BoundaryReport): string {
  const { facts, dropped } = b.survival;
  return b.lossy
    ? `LIKELY LOSSY (${b.reasons.join('; ')})`
    : !b.factsNeeded ? `ok (${b.consumer} routes on a label: ${dropped.length} of ${facts.length} source facts not in it, none needed)`
    : facts.length === 0 ? 'ok (no facts in the sources)'
      : dropped.length === 0 ? `ok (all ${facts.length} facts survived)` : `ok (${dropped.length} of ${facts.length} facts dropped)`;
}
