/**
 * The trace format's version (run files, stored runs) and the migrations that bring an older
 * run up to it. A migration changes a run's summary, its events, or both, one version at a
 * time; the run's chain snapshot migrates by the chain's own table. Kept apart from the
 * types so a test can stand up a newer format (vi.mock of this module).
 */
export const TRACE_VERSION = 1;

export interface TraceMigration {
  /** The run's summary (its `traceVersion` is set by the caller). */
  meta?(meta: Record<string, unknown>): Record<string, unknown>;
  event?(event: Record<string, unknown>): Record<string, unknown>;
}

/** Version 1 is the first format, so the table is empty until the format changes. */
export const TRACE_MIGRATIONS: Readonly<Record<number, TraceMigration>> = {};
