import type { z } from 'zod';
import { migrateChain } from '../chain/migrate.ts';
import { formatJsonPath } from '../files/strict-json.ts';
import { runMetaSchema, traceEventSchema } from './event-schemas.ts';
import type { RunMeta, TraceEvent } from './events.ts';
import { TRACE_MIGRATIONS, TRACE_VERSION } from './versions.ts';

/**
 * Every stored run is read back through here (a run file, the browser's database): migrated
 * from the trace version it was written at to this one, its chain snapshot migrated by the
 * chain's own table, then checked against the event schemas. A run from a newer Seamscope is
 * refused rather than guessed at; a damaged one is refused with the path of its first bad
 * fields (`$.events[12].record.latencyMs`), so nothing downstream replays half a trace.
 */
export type RestoreRunResult = { ok: true; run: RunMeta; events: TraceEvent[] } | { ok: false; message: string };

const MAX_ISSUES = 5;
const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function issuesText(error: z.ZodError, prefix: (string | number)[]): string {
  return error.issues.slice(0, MAX_ISSUES).map((i) => `${formatJsonPath([...prefix, ...(i.path as (string | number)[])])}: ${i.message}`).join('; ');
}


/** The trace version a run was written at is readable and not newer than this build. */
export function checkTraceVersion(version: unknown): { ok: true; version: number } | { ok: false; message: string } {
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) return { ok: false, message: `the trace version must be a whole number from 1 to ${TRACE_VERSION}, not ${JSON.stringify(version)}` };
  if (version > TRACE_VERSION) return { ok: false, message: `the run is trace version ${version}, made by a newer Seamscope; this one reads up to version ${TRACE_VERSION}` };
  return { ok: true, version };
}

/** Migrates a run's summary from `version` (its chain snapshot too); throws nothing, changes nothing given. */
export function migrateRunMeta(meta: Record<string, unknown>, version: number): { ok: true; meta: Record<string, unknown> } | { ok: false; message: string } {
  let value = { ...meta };
  for (let v = version; v < TRACE_VERSION; v++) {
    const step = TRACE_MIGRATIONS[v];
    if (!step) return { ok: false, message: `no trace migration from version ${v}` };
    if (step.meta) value = step.meta(value);
  }
  value.traceVersion = TRACE_VERSION;
  if (isRecord(value.chain)) {
    const chain = migrateChain(value.chain);
    if (!chain.ok) return { ok: false, message: `$.run.chain.version: ${chain.message}` };
    value.chain = chain.value;
  }
  return { ok: true, meta: value };
}

/** Migrates one event from `version`. */
export function migrateEvent(event: Record<string, unknown>, version: number): Record<string, unknown> {
  let value = event;
  for (let v = version; v < TRACE_VERSION; v++) {
    const step = TRACE_MIGRATIONS[v]?.event;
    if (step) value = step(value);
  }
  return value;
}

/**
 * @example
 * const restored = restoreRun({ run: file.run, events: file.events }, file.version);
 * if (!restored.ok) fail(restored.message); else replay(restored.run, restored.events);
 */
export function restoreRun(raw: { run: unknown; events: unknown }, writtenAt: unknown): RestoreRunResult {
  const version = checkTraceVersion(writtenAt);
  if (!version.ok) return version;
  if (!isRecord(raw.run)) return { ok: false, message: '$.run: must be an object (the run summary)' };
  if (!Array.isArray(raw.events)) return { ok: false, message: '$.events: must be an array of events' };
  const meta = migrateRunMeta(raw.run, version.version);
  if (!meta.ok) return meta;
  const run = runMetaSchema.safeParse(meta.meta);
  if (!run.success) return { ok: false, message: issuesText(run.error, ['run']) };
  const events = migrateEvents(raw.events, version.version);
  if (!events.ok) return events;
  return { ok: true, run: meta.meta as unknown as RunMeta, events: events.events };
}

/** Each event migrated from `version` and checked against its schema; the first bad one names its path. */
function migrateEvents(raw: readonly unknown[], version: number): { ok: true; events: TraceEvent[] } | { ok: false; message: string } {
  const events: TraceEvent[] = [];
  for (let i = 0; i < raw.length; i++) {
    const item = raw[i];
    if (!isRecord(item)) return { ok: false, message: `${formatJsonPath(['events', i])}: must be an object (an event)` };
    const migrated = migrateEvent(item, version);
    const event = traceEventSchema.safeParse(migrated);
    if (!event.success) return { ok: false, message: issuesText(event.error, ['events', i]) };
    // The checked value itself, not zod's copy: same keys in the same order, byte for byte on the next write.
    events.push(migrated as unknown as TraceEvent);
  }
  return { ok: true, events };
}

/**
 * A run summary read back from a store this build wrote to (the browser's database): the
 * current version is returned as is (it was checked when it was written); an older one is
 * migrated and checked; a newer or damaged one throws, naming the run.
 */
export function upToDateRunMeta(meta: RunMeta): RunMeta {
  if (meta.traceVersion === TRACE_VERSION) return meta;
  const restored = restoreRun({ run: meta, events: [] }, meta.traceVersion);
  if (!restored.ok) throw new Error(`The stored run ${meta.id} cannot be read: ${restored.message}`);
  return restored.run;
}

/** The events of a stored run written at `version`, migrated and checked as upToDateRunMeta does. */
export function upToDateEvents(events: TraceEvent[], version: number, runId: string): TraceEvent[] {
  if (version === TRACE_VERSION) return events;
  const checked = checkTraceVersion(version);
  const migrated = checked.ok ? migrateEvents(events, version) : checked;
  if (!migrated.ok) throw new Error(`The stored run ${runId} cannot be read: ${migrated.message}`);
  return migrated.events;
}
