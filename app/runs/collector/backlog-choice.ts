/**
 * What the person chose, per collector address on this device, about the traces a collector
 * already held when they first connected it:
 * - 'all': import them (and, on every later connect, whatever its folder holds; a trace stored
 *   before is not stored twice);
 * - 'new': only traces written after that first connect. The place reached is kept with the
 *   collector's instance id: a reconnect to the same running collector resumes there, so what
 *   arrived while disconnected still comes in and the backlog never does. A restarted collector
 *   numbers its folder afresh, so the app cannot tell the backlog from the rest: it asks again.
 */
export type BacklogChoice = { choice: 'all' } | { choice: 'new'; collector: string; cursor: number };

const KEY = 'seamscope.collector.backlog.v1';

function readAll(): Record<string, BacklogChoice> {
  try {
    const parsed = JSON.parse(globalThis.localStorage?.getItem(KEY) ?? '{}') as unknown;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, BacklogChoice>) : {};
  } catch {
    return {};
  }
}

function valid(v: unknown): v is BacklogChoice {
  const c = v as BacklogChoice;
  if (typeof c !== 'object' || c === null) return false;
  if (c.choice === 'all') return true;
  return c.choice === 'new' && typeof c.collector === 'string' && c.collector.length <= 100 && Number.isSafeInteger(c.cursor) && c.cursor >= 0;
}

export function backlogChoiceFor(origin: string): BacklogChoice | null {
  const stored = readAll()[origin];
  return valid(stored) ? stored : null;
}

export function saveBacklogChoice(origin: string, choice: BacklogChoice): void {
  const all = readAll();
  all[origin] = choice;
  try {
    globalThis.localStorage?.setItem(KEY, JSON.stringify(all));
  } catch {
    // Storage full or blocked: the choice holds for this connection, and is asked again next time.
  }
}
