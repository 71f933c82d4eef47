/**
 * The battery of issue #11: suites that attack one promise each (faults end in a defined state,
 * a killed run resumes without repeating a call, …) and report what they counted. A suite is
 * one module exporting a `BatterySuite` plus one line in a registry (index.ts for the core,
 * app/battery/index.ts for suites that need the app's libraries).
 */

/** One figure of a suite's target, checked against what the suite counted. */
export interface TargetCheck {
  name: string;
  ok: boolean;
  /** The counted figure in words, e.g. "31 kinds" or "0 of 212 lost". */
  detail: string;
  /**
   * A limit on time or memory: the battery reports it like a benchmark, and unit tests of the
   * suite leave it out (a test never asserts a timing).
   */
  timed?: boolean;
}

export interface SuiteResult {
  cases: number;
  /** Cases that ended in a state the suite defines as an end (never a hang or a crash). */
  definedEnd: number;
  /** Records (steps, units, rows) that existed before a fault and were missing after it. */
  dataLost: number;
  /** Requests beyond the ones a case is meant to make; null when the suite does not trap the network. */
  networkRequests: number | null;
  /** Canary calls and prototype pollution seen; null when the suite plants no canary. */
  codeExecuted: number | null;
  /** The slowest case, wall clock. */
  worstMs: number;
  /** The highest heap in use after a case; null when not measured. */
  worstHeapMb: number | null;
  checks: TargetCheck[];
  /** One line per case that missed, for the report (the runner prints the first few). */
  failures: string[];
}

export interface SuiteOptions {
  /** A smaller sweep for unit tests; the targets still hold for what it tries. */
  quick?: boolean;
}

export interface BatterySuite {
  id: string;
  title: string;
  /** The target in the words of issue #11. */
  target: string;
  run(opts?: SuiteOptions): Promise<SuiteResult>;
}

/** A suite met its target only when it checked something and every check passed. */
export function suiteMet(result: SuiteResult): boolean {
  return result.checks.length > 0 && result.checks.every((c) => c.ok);
}

/** Times one case and samples the heap after it, feeding the suite's worst figures. */
export class CaseClock {
  worstMs = 0;
  worstHeapMb = 0;

  async time<T>(fn: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await fn();
    } finally {
      this.worstMs = Math.max(this.worstMs, performance.now() - started);
      this.worstHeapMb = Math.max(this.worstHeapMb, process.memoryUsage().heapUsed / 2 ** 20);
    }
  }
}

/** Rejects after `ms` so a case that hangs is counted as a hang instead of hanging the battery. */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CaseTimeout(`${what} did not end within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export class CaseTimeout extends Error {
  override name = 'CaseTimeout';
}

/** Counts unhandled rejections while a suite runs (each is a crash the suite must report). */
export function watchUnhandledRejections(): { count: () => number; stop: () => void; reasons: string[] } {
  const reasons: string[] = [];
  const onRejection = (reason: unknown) => void reasons.push(reason instanceof Error ? reason.message : String(reason));
  process.on('unhandledRejection', onRejection);
  return { count: () => reasons.length, stop: () => void process.off('unhandledRejection', onRejection), reasons };
}
