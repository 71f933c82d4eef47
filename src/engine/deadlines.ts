/**
 * Call timeouts without a timer per call. A timer per call was created, queued and cancelled
 * for every request, though a call almost always ends long before its timeout: in Node that is
 * a Timeout object, a timer list for its duration made and dropped, and a priority-queue insert
 * and removal each time, about a sixth of the engine's own time per call in `bench:engine` W1.
 *
 * Here one timer serves every pending deadline. It is armed for the earliest one; a deadline
 * that ends early only leaves the set, and the timer, armed for a deadline that has since left,
 * finds nothing due when it fires and re-arms for the earliest still pending. Sequential calls
 * with the same timeout therefore arm one timer per timeout period, not one per call.
 *
 * In Node the timer keeps the process alive only while a deadline is pending, as a timer per
 * call did: an idle armed timer never holds a finished CLI run open.
 */
export interface Deadline {
  readonly at: number;
}

export interface Deadlines {
  /** Calls `expire` once `ms` have passed, unless `clear` is called first. */
  add(ms: number, expire: () => void): Deadline;
  clear(deadline: Deadline): void;
  /** How many deadlines are pending (for tests). */
  readonly size: number;
}

interface Entry extends Deadline {
  expire: () => void;
}

type Timer = ReturnType<typeof setTimeout>;
/** Node's Timeout can stop holding the process open; a browser's timer id cannot, and need not. */
const setRef = (timer: Timer, on: boolean) => {
  const t = timer as { ref?: () => void; unref?: () => void };
  if (on) t.ref?.();
  else t.unref?.();
};

export function createDeadlines(clock: () => number = () => performance.now()): Deadlines {
  const pending = new Set<Entry>();
  let timer: Timer | null = null;
  let armedAt = Infinity;
  let refed = false;

  const ref = (on: boolean) => {
    if (timer !== null && refed !== on) setRef(timer, on);
    refed = on;
  };
  const arm = (at: number) => {
    if (timer !== null) clearTimeout(timer);
    armedAt = at;
    // A timer may fire a little before the clock reads its deadline (whole milliseconds):
    // fire() then finds it not yet due and arms again for the rest.
    timer = setTimeout(fire, Math.max(0, Math.ceil(at - clock())));
    if (!refed) setRef(timer, false);
  };
  const fire = () => {
    timer = null;
    armedAt = Infinity;
    const now = clock();
    let next = Infinity;
    for (const entry of [...pending]) {
      if (entry.at <= now) {
        pending.delete(entry);
        try {
          entry.expire();
        } catch (error) {
          // As a timer of its own would have: thrown where nothing catches it, the other due deadlines still expire.
          setTimeout(() => {
            throw error;
          });
        }
      } else if (entry.at < next) next = entry.at;
    }
    if (next !== Infinity) arm(next);
    ref(pending.size > 0);
  };

  return {
    add(ms, expire) {
      const entry: Entry = { at: clock() + ms, expire };
      pending.add(entry);
      ref(true);
      if (entry.at < armedAt) arm(entry.at);
      return entry;
    },
    clear(deadline) {
      if (!pending.delete(deadline as Entry)) return;
      if (pending.size === 0) ref(false);
    },
    get size() {
      return pending.size;
    },
  };
}

/** The deadlines of every model call in this process (or tab). */
export const callDeadlines: Deadlines = createDeadlines();
