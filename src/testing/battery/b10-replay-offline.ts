import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main as cli } from '../../cli/main.ts';
import { diffRuns, inspectBoundary, inspectRun } from '../../inspect/index.ts';
import { boundaryLabel, buildRunView, checksOnBoundary } from '../../trace/replay.ts';
import { exportRunToOtlp, importOtlpTrace } from '../../trace/otlp/index.ts';
import { parseRunFile, toRunFile } from '../../trace/run-file.ts';
import { plantCanary } from './canary.ts';
import { installNetworkTrap } from './network-trap.ts';
import { corpusTraces, demoRuns, importedRuns, type StoredRun } from './stored-runs.ts';
import { CaseClock, watchUnhandledRejections, type BatterySuite, type SuiteOptions, type SuiteResult } from './types.ts';
import { stepRegistry } from '../../steps/index.ts';

/**
 * B10: everything done with a stored run (replay boundary by boundary, the seam analyses,
 * run diff, OTLP export and import, the run file and `seamscope inspect`) works with the
 * network refused: every request of this process is trapped, none may be made, and script
 * payloads carried in the runs never execute.
 */

/** Each thing a person does with a stored run; a throw is a case that did not end. */
function replayEverything(run: StoredRun, other: StoredRun, folder: string): Promise<{ lost: number }> {
  return (async () => {
    const view = buildRunView(run.meta, run.events, stepRegistry);
    // Stepping through every boundary, as the replay view's scrubber does.
    for (const boundary of view.boundaries) {
      boundaryLabel(view, boundary);
      checksOnBoundary(view, boundary);
      inspectBoundary(boundary);
    }
    inspectRun(run.meta, run.events);
    diffRuns({ meta: run.meta, events: run.events }, { meta: other.meta, events: other.events });
    const otlp = JSON.stringify(exportRunToOtlp(run.meta, run.events));
    const back = importOtlpTrace(otlp, stepRegistry);
    if (!back.ok) throw new Error(`its own OTLP export does not import: ${back.message}`);
    diffRuns({ meta: run.meta, events: run.events }, { meta: back.run, events: back.events });
    const text = JSON.stringify(toRunFile(run.meta, run.events));
    const parsed = parseRunFile(text);
    if (!parsed.ok) throw new Error(`its run file does not parse: ${parsed.message}`);
    const lost = JSON.stringify(parsed.file.events) === JSON.stringify(run.events) ? 0 : Math.max(1, run.events.length - parsed.file.events.length);
    const path = join(folder, `${encodeURIComponent(run.meta.id)}.run.json`);
    writeFileSync(path, text);
    const io = { out: () => undefined, err: () => undefined, env: {} };
    for (const args of [['inspect', path], ['inspect', path, '--json'], ['inspect', path, '--limit', '0']]) {
      const code = await cli(args, io);
      if (code !== 0 && code !== 1) throw new Error(`seamscope ${args.join(' ')} exited ${code}`);
    }
    return { lost };
  })();
}

export const b10ReplayOffline: BatterySuite = {
  id: 'B10',
  title: 'Replay, inspect, diff offline',
  target: 'replaying, scrubbing and diffing stored runs make 0 network requests',
  async run(opts: SuiteOptions = {}): Promise<SuiteResult> {
    // Trap first: producing the demo runs on the offline model must not reach out either.
    const trap = installNetworkTrap();
    const canary = plantCanary();
    const rejections = watchUnhandledRejections();
    const folder = mkdtempSync(join(tmpdir(), 'seamscope-b10-'));
    const clock = new CaseClock();
    const failures: string[] = [];
    let cases = 0;
    let definedEnd = 0;
    let dataLost = 0;
    let boundaries = 0;
    try {
      const demo = await demoRuns({ payloads: !opts.quick });
      const imported = importedRuns();
      const runs = [...demo, ...imported];
      for (const [i, run] of runs.entries()) {
        cases++;
        // Diff against the run's neighbour (its payload twin for demo runs): two real stored runs.
        const other = runs[i % 2 === 0 ? i + 1 : i - 1] ?? run;
        try {
          const { lost } = await clock.time(() => replayEverything(run, other, folder));
          dataLost += lost;
          boundaries += buildRunView(run.meta, run.events, stepRegistry).boundaries.length;
          definedEnd++;
        } catch (error) {
          failures.push(`${run.label}: ${(error as Error).message}`);
        }
      }
      // A recorded trace with no model call is refused with a message, which is also an end.
      for (const trace of corpusTraces().filter((t) => !imported.some((r) => r.label === t.label))) {
        cases++;
        const result = await clock.time(async () => importOtlpTrace(trace.text, stepRegistry));
        if (!result.ok && result.message) definedEnd++;
        else failures.push(`${trace.label}: expected a refusal`);
      }
    } finally {
      rejections.stop();
      trap.restore();
      rmSync(folder, { recursive: true, force: true });
    }
    const executed = canary.executions();
    canary.remove();
    const requests = trap.requests.length;
    for (const r of trap.requests) failures.push(`request: ${r.via} ${r.target}`);
    return {
      cases, definedEnd, dataLost, networkRequests: requests, codeExecuted: executed,
      worstMs: clock.worstMs, worstHeapMb: clock.worstHeapMb, failures: [...failures, ...rejections.reasons.map((r) => `unhandled rejection: ${r}`)],
      checks: [
        { name: 'stored runs replayed end to end', ok: cases > 0 && definedEnd === cases, detail: `${definedEnd}/${cases} (${boundaries} boundaries stepped through)` },
        { name: 'network requests', ok: requests === 0, detail: `${requests}` },
        { name: 'events lost in the run file round trip', ok: dataLost === 0, detail: `${dataLost}` },
        { name: 'code executed (canary, prototype)', ok: executed === 0, detail: `${executed}` },
        { name: 'unhandled rejections', ok: rejections.count() === 0, detail: `${rejections.count()}` },
      ],
    };
  },
};
