import { rm } from 'node:fs/promises';
import { main } from '../../cli/main.ts';
import { readOtlpJson } from '../../trace/otlp/guard.ts';
import { startTestCollector } from '../collect-fixtures.ts';
import { hostileCollectorRequests, tryHostileRequests } from '../hostile-collect.ts';
import { argvFor, hostileCases, hostileOtlpTexts, OUTSIDE_SECRET, snapshot, UNSAFE_PRINTED, writeHostileCase } from '../hostile-files.ts';
import { CANARY_PAYLOADS, plantCanary } from './canary.ts';
import { installNetworkTrap } from './network-trap.ts';
import { CaseClock, CaseTimeout, watchUnhandledRejections, withTimeout, type BatterySuite, type SuiteOptions, type SuiteResult } from './types.ts';

/**
 * B4: generated hostile chain, run, inputs, program and trace files (paths out of their folder,
 * symlinks out, markers in strings, huge declared sizes, 1e400, duplicate keys, prototype names,
 * escape and bidi characters, broken OTLP) through the CLI command that reads each, and hostile
 * OTLP/HTTP requests to `seamscope collect` (a huge protobuf value, nesting, invalid UTF-8, a
 * gzip bomb, a span flood with one trace id: each a 4xx, nothing written): refused
 * with a clear message naming the path (or accepted where the value must work), every byte
 * beside the file unchanged, no network request, no code run, the secret beside the folder never
 * printed, each case under 5 s and 1 GB.
 */
const LIMIT_MS = 5_000;
const LIMIT_HEAP_MB = 1_024;

export const b4HostileFiles: BatterySuite = {
  id: 'B4',
  title: 'Hostile files',
  target: '≥ 200 generated hostile chain, trace and dataset files (and OTLP/HTTP requests to the collector) rejected with a clear message, stored data byte-identical, 0 network requests, 0 code executed, each under 5 s and 1 GB',
  async run(opts: SuiteOptions = {}): Promise<SuiteResult> {
    const all = hostileCases();
    const files = opts.quick ? all.filter((_, i) => i % 4 === 0) : all;
    const traces = hostileOtlpTexts();
    // The collector is the one host requests may reach: it is what the requests attack.
    const collector = await startTestCollector();
    const trap = installNetworkTrap({ allowHosts: [new URL(collector.collector.url).host] });
    const canary = plantCanary();
    const rejections = watchUnhandledRejections();
    const clock = new CaseClock();
    const failures: string[] = [];
    let definedEnd = 0;
    let changed = 0;
    let clear = 0;
    let slow = 0;
    let collected = 0;
    try {
      for (const c of files) {
        const { root, folder, outside, file } = await writeHostileCase(c);
        try {
          const before = await snapshot(root);
          const lines: string[] = [];
          const io = { out: (t: string) => lines.push(t), err: (t: string) => lines.push(t), env: {} };
          const started = performance.now();
          const code = await clock.time(() => withTimeout(main(argvFor(c, file, root), io), LIMIT_MS * 4, c.id));
          if (performance.now() - started > LIMIT_MS) slow++;
          definedEnd++;
          const printed = lines.join('\n');
          const asExpected = c.expect.outcome === 'refused'
            ? code !== 0 && printed.includes(c.expect.path) && printed.includes(c.expect.message)
            : code === 0;
          const safe = !UNSAFE_PRINTED.test(printed) && !printed.includes(OUTSIDE_SECRET);
          if (asExpected && safe) clear++;
          else failures.push(`${c.id}: exit ${code}, ${asExpected ? 'printed an unsafe character or the secret' : `expected ${c.expect.outcome}`}: ${printed.slice(0, 200)}`);
          const after = await snapshot(root);
          const written = [...after.keys()].filter((k) => !before.has(k));
          const altered = [...before].some(([k, v]) => after.get(k) !== v)
            || (c.expect.outcome === 'refused' ? written.length > 0 : written.some((k) => !k.startsWith('out')))
            || (await snapshot(folder)).size === 0 || [...(await snapshot(outside)).keys()].join() !== 'secret.txt';
          if (altered) {
            changed++;
            failures.push(`${c.id}: files beside it changed`);
          }
        } catch (error) {
          failures.push(`${c.id}: ${error instanceof CaseTimeout ? 'hung' : 'crashed'} — ${(error as Error).message}`);
        } finally {
          await rm(root, { recursive: true, force: true });
        }
      }
      for (const t of traces) {
        const read = await clock.time(async () => readOtlpJson(t.text));
        definedEnd++;
        if (!read.ok && read.message.includes(t.message)) clear++;
        else failures.push(`${t.id}: the trace reader ${read.ok ? 'accepted it' : `said "${read.message}"`}`);
      }
      for (const request of hostileCollectorRequests()) {
        const [outcome] = await clock.time(() => tryHostileRequests(collector, [request]));
        if (!outcome) continue;
        definedEnd++;
        collected++;
        if (outcome.ok) clear++;
        else failures.push(`${outcome.id}: ${outcome.detail}`);
      }
    } finally {
      rejections.stop();
      trap.restore();
      await collector.stop();
    }
    const executed = canary.executions();
    canary.remove();
    const requests = trap.unexpected().length;
    const n = files.length + traces.length + collected;
    const enough = opts.quick ? n >= 50 : n >= 200;
    return {
      cases: n, definedEnd, dataLost: changed, networkRequests: requests, codeExecuted: executed,
      worstMs: clock.worstMs, worstHeapMb: clock.worstHeapMb, failures: [...failures, ...rejections.reasons.map((r) => `unhandled rejection: ${r}`)],
      checks: [
        { name: 'hostile files tried', ok: enough && definedEnd === n, detail: `${files.length} files + ${traces.length} traces + ${collected} collector requests, ${definedEnd} ended` },
        { name: 'refused with path and reason (or accepted where it must work)', ok: clear === n, detail: `${clear}/${n}` },
        { name: 'files beside them unchanged', ok: changed === 0, detail: `${changed} changed` },
        { name: 'network requests', ok: requests === 0, detail: `${requests}` },
        { name: 'code executed (canary, prototype)', ok: executed === 0, detail: `${executed}; ${CANARY_PAYLOADS.length} payloads planted` },
        { name: `each under ${LIMIT_MS / 1000} s and ${LIMIT_HEAP_MB / 1024} GB`, ok: slow === 0 && clock.worstHeapMb < LIMIT_HEAP_MB, detail: `worst ${Math.round(clock.worstMs)} ms, ${Math.round(clock.worstHeapMb)} MB heap`, timed: true },
      ],
    };
  },
};
