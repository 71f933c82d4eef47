import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Chain } from '../../chain/schema.ts';
import { generateDemoOutput } from '../../providers/demo-model.ts';
import { runChain } from '../../engine/run.ts';
import type { RunStatus, TraceEvent } from '../../trace/events.ts';
import { createMockModelServer, type MockModelServer } from '../mock-server.ts';
import type { MockReply } from '../mock-types.ts';
import { countTokens, isModelCall, mockModel, mockProvider, PROTOCOLS, type Protocol } from './endpoints.ts';
import { createFileRunRepository } from './file-run-repository.ts';
import { installNetworkTrap } from './network-trap.ts';
import { CaseClock, CaseTimeout, watchUnhandledRejections, withTimeout, type BatterySuite, type SuiteOptions, type SuiteResult } from './types.ts';

/**
 * B1: every transport fault the mock can play, on both protocols, through the real providers
 * over HTTP, at the first step or after the first step completed, streamed and not. Each run
 * must end in a defined state, keep every completed step in its stored (on-disk) trace, and
 * never let a cut stream's partial text pass as a step's output. The steps are free text (no
 * schema), so nothing but stream-end detection stands between a cut and a "succeeded" step.
 */

/** What the cut answers say; a step output that is a prefix of it is a cut passed on. */
const CUT_TEXT = 'The appeal must be filed within 180 calendar days of the notice, unless the board extends it for good cause shown.';
const STEP_ONE_TEXT = 'Facts: appeals are filed within 180 calendar days of the notice.';

type Expected = 'succeeded' | 'fails';
interface FaultKind {
  name: string;
  /** The replies that make the fault (the first request at the faulted step gets the first). */
  replies: MockReply[];
  streams: readonly boolean[];
  /** After the transport and validation retries the chain allows. */
  expect: Expected;
  /** The mock cut the answer mid-body: the case counts toward "cut streams detected". */
  cut?: boolean;
}

const both = [false, true] as const;
const status = (code: number, extra: Partial<Extract<MockReply, { fault: 'status' }>> = {}): MockReply => ({ fault: 'status', status: code, ...extra });
const times = (n: number, reply: MockReply) => Array.from({ length: n }, () => reply);

export const FAULT_KINDS: readonly FaultKind[] = [
  { name: '429 with retry-after', replies: [status(429, { retryAfter: '0.01' })], streams: both, expect: 'succeeded' },
  { name: '429 without retry-after', replies: [status(429)], streams: both, expect: 'succeeded' },
  { name: '500', replies: [status(500)], streams: both, expect: 'succeeded' },
  { name: '502 HTML from the edge', replies: [status(502)], streams: both, expect: 'succeeded' },
  { name: '503', replies: [status(503)], streams: both, expect: 'succeeded' },
  { name: '529 overloaded', replies: [status(529)], streams: both, expect: 'succeeded' },
  { name: '529 with retry-after-ms', replies: [status(529, { headers: { 'retry-after-ms': '20' } })], streams: both, expect: 'succeeded' },
  { name: '503 until retries are spent', replies: times(3, status(503)), streams: both, expect: 'fails' },
  { name: '400 bad request', replies: [status(400)], streams: both, expect: 'fails' },
  { name: '401 wrong key', replies: [status(401)], streams: both, expect: 'fails' },
  { name: '403 forbidden', replies: [status(403)], streams: both, expect: 'fails' },
  { name: '404 no such model', replies: [status(404)], streams: both, expect: 'fails' },
  { name: '413 too large', replies: [status(413)], streams: both, expect: 'fails' },
  { name: 'spend limit', replies: [{ fault: 'quota' }], streams: both, expect: 'fails' },
  { name: 'invalid JSON body', replies: [{ fault: 'invalid_json' }], streams: both, expect: 'fails' },
  { name: 'empty 200 body', replies: [{ fault: 'empty_body' }], streams: both, expect: 'fails' },
  { name: 'HTML page with 200', replies: [{ fault: 'html_page' }], streams: both, expect: 'fails' },
  { name: 'truncated JSON body', replies: [{ fault: 'truncated_json' }], streams: both, expect: 'fails' },
  { name: 'error object in a 200 (server error)', replies: [{ fault: 'error_in_200', status: 500 }], streams: both, expect: 'succeeded' },
  { name: 'error object in a 200 (auth)', replies: [{ fault: 'error_in_200', status: 401 }], streams: both, expect: 'fails' },
  { name: 'stream cut before the first event', replies: [{ fault: 'cut_stream', afterChunks: 0, content: CUT_TEXT }], streams: [true], expect: 'succeeded', cut: true },
  { name: 'stream cut mid-answer', replies: [{ fault: 'cut_stream', afterChunks: 6, content: CUT_TEXT }], streams: [true], expect: 'succeeded', cut: true },
  { name: 'stream cut just before its end', replies: [{ fault: 'cut_stream', afterChunks: 1_000, content: CUT_TEXT }], streams: [true], expect: 'succeeded', cut: true },
  { name: 'stream closed cleanly mid-answer (no terminator)', replies: [{ fault: 'cut_stream', afterChunks: 6, content: CUT_TEXT, clean: true }], streams: [true], expect: 'succeeded', cut: true },
  { name: 'stream closed cleanly just before its end', replies: [{ fault: 'cut_stream', afterChunks: 1_000, content: CUT_TEXT, clean: true }], streams: [true], expect: 'succeeded', cut: true },
  { name: 'stream cut on every attempt', replies: times(3, { fault: 'cut_stream', afterChunks: 6, content: CUT_TEXT }), streams: [true], expect: 'fails', cut: true },
  { name: 'body cut mid-way', replies: [{ fault: 'cut_stream', afterChunks: 0, content: CUT_TEXT }], streams: [false], expect: 'succeeded', cut: true },
  { name: 'error event mid-stream', replies: [{ fault: 'stream_error', afterChunks: 4, content: CUT_TEXT }], streams: [true], expect: 'succeeded', cut: true },
  { name: 'slow answer within the timeout', replies: [{ fault: 'delay', delayMs: 80 }], streams: both, expect: 'succeeded' },
  { name: 'no answer (timeout), then an answer', replies: [{ fault: 'hang' }], streams: both, expect: 'succeeded' },
  { name: 'no answer on every attempt', replies: times(3, { fault: 'hang' }), streams: both, expect: 'fails' },
  { name: 'refusal', replies: [{ fault: 'refusal', message: 'I cannot help with that.' }], streams: both, expect: 'fails' },
  { name: 'output cut at max tokens, then complete', replies: [{ content: CUT_TEXT.slice(0, 40), finishReason: 'length' }], streams: both, expect: 'succeeded' },
  { name: 'output cut at max tokens twice', replies: times(2, { content: CUT_TEXT.slice(0, 40), finishReason: 'length' }), streams: both, expect: 'fails' },
  { name: 'content filter', replies: [{ content: '', finishReason: 'content_filter' }], streams: both, expect: 'fails' },
];

const ON_FAIL = ['abort', 'abstain', 'escalate'] as const;
const haltStatus: Record<(typeof ON_FAIL)[number], RunStatus> = { abort: 'failed', abstain: 'abstained', escalate: 'escalated' };
const DEFINED: ReadonlySet<RunStatus> = new Set(['succeeded', 'failed', 'abstained', 'escalated']);

function freeTextChain(stream: boolean, onFail: string): Chain {
  const step = (id: string, name: string, bindings: Record<string, string>, prompt: string, x: number) => ({
    id, kind: 'model', name, position: { x, y: 0 },
    config: { bindings, prompt, outputSchema: null, retries: 1, onFail, stream },
  });
  return {
    format: 'seamscope.chain', version: 1, id: 'battery-b1', name: 'B1 faults',
    inputs: [{ name: 'document', schema: { type: 'string' }, trust: 'trusted', required: true }],
    steps: [
      step('extract', 'Extract', { document: 'inputs.document' }, 'List the facts in {document}.', 0),
      step('answer', 'Answer', { facts: 'steps.extract' }, 'From these facts: {facts}\nHow many days are there to appeal?', 280),
      { id: 'final', kind: 'output', name: 'Final', position: { x: 560, y: 0 }, config: { bindings: { value: 'steps.answer' } } },
    ],
  } as Chain;
}

interface CaseSpec {
  protocol: Protocol;
  kind: FaultKind;
  position: 1 | 2;
  stream: boolean;
  onFail: (typeof ON_FAIL)[number];
}

export function faultCases(quick = false): CaseSpec[] {
  const cases: CaseSpec[] = [];
  let i = 0;
  for (const protocol of PROTOCOLS) {
    for (const kind of FAULT_KINDS) {
      for (const position of quick ? ([2] as const) : ([1, 2] as const)) {
        for (const stream of quick ? kind.streams.slice(-1) : kind.streams) cases.push({ protocol, kind, position, stream, onFail: ON_FAIL[i++ % ON_FAIL.length] ?? 'abort' });
      }
    }
  }
  return cases;
}

const finishedOf = (events: readonly TraceEvent[]) => events.filter((e): e is Extract<TraceEvent, { type: 'step.finished' }> => e.type === 'step.finished');

async function runCase(server: MockModelServer, spec: CaseSpec, folder: string) {
  server.reset();
  // Replies by prompt, not by arrival: the faults go to the faulted step's requests only, so a
  // transport retry of the first step (a reset keep-alive socket) cannot eat them.
  const faults = [...spec.kind.replies];
  server.setResponder((call) => {
    // The second step's prompt alone asks this; the first step's output cannot echo it.
    const first = !call.messages.some((m) => m.content.includes('How many days are there to appeal'));
    if (first === (spec.position === 1) && faults.length > 0) return faults.shift() as MockReply;
    if (first) return { content: STEP_ONE_TEXT };
    return { content: generateDemoOutput(call.messages, call.schema) };
  });
  const repo = createFileRunRepository(folder);
  const live: TraceEvent[] = [];
  const controller = new AbortController();
  const run = runChain({
    chain: freeTextChain(spec.stream, spec.onFail), inputs: { document: 'Appeals must be filed within 180 calendar days of the notice.' },
    provider: mockProvider(spec.protocol, server.url), model: mockModel, repo, countTokens, signal: controller.signal,
    transport: { baseDelayMs: 5, maxDelayMs: 50, maxAttempts: 3, timeoutMs: 250 },
    onEvent: (e) => void live.push(e),
  });
  try {
    const meta = await withTimeout(run, 15_000, 'the run');
    // The trace as stored on disk, read back: what a reload or `inspect` would see.
    const stored = await repo.getEvents(meta.id);
    const storedRun = await repo.getRun(meta.id);
    return { meta, live, stored, storedRun, requests: server.requests.filter((r) => isModelCall(r.path)).length };
  } catch (error) {
    controller.abort();
    await run.catch(() => undefined);
    throw error;
  }
}

export const b1Faults: BatterySuite = {
  id: 'B1',
  title: 'Transport faults × 2 protocols',
  target: '≥ 20 fault kinds × 2 protocols end in a defined state, 0 completed steps lost, 100 % of cut streams detected',
  async run(opts: SuiteOptions = {}): Promise<SuiteResult> {
    const server = await createMockModelServer({ idleExitMs: 60_000 });
    const trap = installNetworkTrap({ allowHosts: [new URL(server.url).host] });
    const rejections = watchUnhandledRejections();
    const folder = mkdtempSync(join(tmpdir(), 'seamscope-b1-'));
    const clock = new CaseClock();
    const failures: string[] = [];
    const kindsEnded = new Map<Protocol, Set<string>>(PROTOCOLS.map((p) => [p, new Set()]));
    let cases = 0;
    let definedEnd = 0;
    let dataLost = 0;
    let cuts = 0;
    let cutsDetected = 0;
    let asExpected = 0;
    let mockRequests = 0;
    let unexercised = 0;
    try {
      for (const spec of faultCases(opts.quick)) {
        cases++;
        const label = `${spec.protocol} · ${spec.kind.name} · step ${spec.position} · ${spec.stream ? 'stream' : 'no stream'} · ${spec.onFail}`;
        try {
          const { meta, live, stored, storedRun, requests } = await clock.time(() => runCase(server, spec, folder));
          mockRequests += requests;
          const failedStep = finishedOf(stored).find((e) => e.status === 'failed');
          const named = meta.status === 'succeeded' || (Boolean(meta.error) && Boolean(failedStep?.failure?.code));
          const defined = DEFINED.has(meta.status) && storedRun?.status === meta.status && named;
          if (defined) {
            definedEnd++;
            kindsEnded.get(spec.protocol)?.add(spec.kind.name);
          } else failures.push(`${label}: ended ${meta.status}${meta.error ? ` (${meta.error})` : ''} without a named failure`);
          const wanted = spec.kind.expect === 'succeeded' ? 'succeeded' : haltStatus[spec.onFail];
          if (meta.status === wanted) asExpected++;
          else failures.push(`${label}: ended ${meta.status}, expected ${wanted}${meta.error ? ` — ${meta.error}` : ''}`);
          // Lost: a step the engine reported finished that the stored trace does not hold as it was.
          const storedFinished = new Map(finishedOf(stored).map((e) => [e.stepId, e]));
          for (const done of finishedOf(live).filter((e) => e.status === 'succeeded')) {
            const kept = storedFinished.get(done.stepId);
            if (!kept || kept.status !== 'succeeded' || JSON.stringify(kept.output) !== JSON.stringify(done.output)) {
              dataLost++;
              failures.push(`${label}: completed step ${done.stepId} is not in the stored trace`);
            }
          }
          if (spec.position === 2 && storedFinished.get('extract')?.output !== STEP_ONE_TEXT) {
            // Lost if the engine said it finished; otherwise the case did not test what it says.
            if (finishedOf(live).some((e) => e.stepId === 'extract' && e.status === 'succeeded')) dataLost++;
            else unexercised++;
            failures.push(`${label}: the step before the fault is not stored as it finished`);
          }
          if (spec.kind.cut) {
            cuts++;
            const passedOn = finishedOf(stored).some((e) => e.status === 'succeeded' && typeof e.output === 'string' && e.output.length > 0 && CUT_TEXT.startsWith(e.output.trim()))
              || stored.some((e) => e.type === 'step.attempt' && !e.record.failure && typeof e.record.text === 'string' && CUT_TEXT.startsWith(e.record.text) && e.record.text.length < CUT_TEXT.length);
            const seen = stored.some((e) => (e.type === 'step.transport_retry' && /ended before it was complete|in stream|broke off|overloaded/i.test(e.error))
              || (e.type === 'step.attempt' && e.record.failure === 'provider_error'));
            if (!passedOn && seen) cutsDetected++;
            else failures.push(`${label}: cut stream ${passedOn ? 'passed on as output' : 'not recorded as a failure'}`);
          }
        } catch (error) {
          failures.push(`${label}: ${error instanceof CaseTimeout ? 'hung' : 'crashed'} — ${(error as Error).message}`);
        }
      }
    } finally {
      rejections.stop();
      trap.restore();
      rmSync(folder, { recursive: true, force: true });
      await server.close();
    }
    const kinds = Math.min(...[...kindsEnded.values()].map((s) => s.size));
    const unexpected = trap.unexpected().length;
    // The trap and the mock count the same calls from two ends: if they disagree, a count is wrong.
    const fetched = trap.requests.filter((r) => r.via === 'fetch' && r.allowed).length;
    return {
      cases, definedEnd, dataLost, networkRequests: unexpected, codeExecuted: null,
      worstMs: clock.worstMs, worstHeapMb: clock.worstHeapMb, failures: [...failures, ...rejections.reasons.map((r) => `unhandled rejection: ${r}`)],
      checks: [
        { name: 'fault kinds per protocol ending defined', ok: kinds >= (opts.quick ? FAULT_KINDS.length : 20) && definedEnd === cases, detail: `${kinds} kinds each on ${PROTOCOLS.join(' and ')}; ${definedEnd}/${cases} cases defined` },
        { name: 'end state as configured', ok: asExpected === cases, detail: `${asExpected}/${cases}` },
        { name: 'completed steps lost', ok: dataLost === 0 && unexercised === 0, detail: `${dataLost}${unexercised ? ` (${unexercised} cases never completed the step before the fault)` : ''}` },
        { name: 'cut streams detected', ok: cuts > 0 && cutsDetected === cuts, detail: `${cutsDetected}/${cuts}` },
        { name: 'unhandled rejections', ok: rejections.count() === 0, detail: `${rejections.count()}` },
        { name: 'requests beyond the mock', ok: unexpected === 0 && fetched === mockRequests && fetched > 0, detail: `${unexpected} (${fetched} fetches seen, ${mockRequests} model calls at the mock)` },
      ],
    };
  },
};
