import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Chain } from '../../chain/schema.ts';
import { runChain } from '../../engine/run.ts';
import type { RunStatus, TraceEvent } from '../../trace/events.ts';
import { createMockModelServer, type MockModelServer } from '../mock-server.ts';
import type { MockReply } from '../mock-types.ts';
import { CANARY_PAYLOADS, plantCanary } from './canary.ts';
import { countTokens, isModelCall, mockModel, mockProvider, PROTOCOLS, type Protocol } from './endpoints.ts';
import { createFileRunRepository } from './file-run-repository.ts';
import { installNetworkTrap } from './network-trap.ts';
import { CaseClock, CaseTimeout, watchUnhandledRejections, withTimeout, type BatterySuite, type SuiteOptions, type SuiteResult } from './types.ts';

/**
 * B8: a model step gets a malformed output on every attempt. For each malformation, each
 * retry count and each on-fail path, the step must be attempted exactly as configured, end
 * failed, and the run must take the configured path; the malformed value must never reach a
 * later step's prompt (read from the requests the mock received, not from our own trace).
 */
const MARK = 'MALFORMED-7f3a';
const FALLBACK_FACT = 'FALLBACK-OK: appeals within 180 days';

interface Malformation {
  name: string;
  reply: MockReply;
  /** A refusal is never retried: another attempt cannot change the model's mind. */
  retried?: false;
}

const text = (name: string, content: string): Malformation => ({ name, reply: { content } });

export const MALFORMATIONS: readonly Malformation[] = [
  text('prose, not JSON', `The facts are: ${MARK}, 180 days.`),
  text('empty', ''),
  text('whitespace only', ' \n\t '),
  text('truncated JSON', `{"facts": ["${MARK}", "180 da`),
  text('text around JSON', `Here you go: {"facts": ["${MARK}"]} Hope this helps!`),
  text('two JSON objects', `{"facts": ["${MARK}"]}{"facts": ["b"]}`),
  text('NaN in JSON', `{"facts": ["${MARK}", NaN]}`),
  text('single quotes', `{'facts': ['${MARK}']}`),
  text('wrong type (string for array)', `{"facts": "${MARK}"}`),
  text('wrong item type', `{"facts": [1, 2, {"x": "${MARK}"}]}`),
  text('missing required field', `{"fact": ["${MARK}"]}`),
  text('extra property', `{"facts": ["a"], "note": "${MARK}"}`),
  text('too many items', JSON.stringify({ facts: ['1', '2', '3', '4', '5', MARK] })),
  text('an array, not an object', JSON.stringify([MARK])),
  text('null', 'null'),
  text('a bare string', JSON.stringify(MARK)),
  text('huge (2 MB item)', JSON.stringify({ facts: [`${MARK}${'x'.repeat(2_000_000)}`] })),
  // 500 levels: malformed yet storable. At ~5,000 levels JSON.stringify and structuredClone
  // overflow the stack, so such an output cannot be stored at all (reported in the #11 note).
  text('deeply nested', `${'['.repeat(500)}"${MARK}"${']'.repeat(500)}`),
  text('__proto__ key', `{"__proto__": {"batteryPolluted": "${MARK}"}, "facts": ["a"]}`),
  text('script payloads in prose', `${MARK} ${CANARY_PAYLOADS.join(' ')}`),
  text('script payloads as extra field', JSON.stringify({ facts: ['a'], html: `${MARK}${CANARY_PAYLOADS.join('')}` })),
  { name: 'cut at max tokens', reply: { content: `{"facts": ["${MARK}"`, finishReason: 'length' } },
  { name: 'refusal', reply: { fault: 'refusal', message: `${MARK}: I cannot help with that.` }, retried: false },
  { name: 'content filter', reply: { content: MARK, finishReason: 'content_filter' }, retried: false },
];

const ON_FAIL = ['abort', 'abstain', 'escalate', 'fallback:extract_single'] as const;
type OnFail = (typeof ON_FAIL)[number];
const endFor: Record<OnFail, RunStatus> = { abort: 'failed', abstain: 'abstained', escalate: 'escalated', 'fallback:extract_single': 'succeeded' };

const factsSchema = {
  type: 'object',
  properties: { facts: { type: 'array', items: { type: 'string', maxLength: 2_000 }, maxItems: 5 } },
  required: ['facts'], additionalProperties: false,
};

const singlePass = { id: 'extract_single', kind: 'model', name: 'Single pass', position: { x: 0, y: 160 }, config: { bindings: { document: 'inputs.document' }, prompt: 'SINGLE: list the facts in {document} in one pass.', outputSchema: factsSchema, retries: 0 } };

function chainFor(retries: number, onFail: OnFail): Chain {
  // The single pass is in the chain only as the fallback: anywhere else it would run by itself.
  const fallback = onFail.startsWith('fallback:') ? [singlePass] : [];
  return {
    format: 'seamscope.chain', version: 1, id: 'battery-b8', name: 'B8 malformed outputs',
    inputs: [{ name: 'document', schema: { type: 'string' }, trust: 'trusted', required: true }],
    steps: [
      { id: 'extract', kind: 'model', name: 'Extract', position: { x: 0, y: 0 }, config: { bindings: { document: 'inputs.document' }, prompt: 'EXTRACT: list the facts in {document}.', outputSchema: factsSchema, retries, onFail } },
      {
        id: 'answer', kind: 'model', name: 'Answer', position: { x: 280, y: 0 },
        config: { bindings: { facts: 'steps.extract.facts' }, prompt: 'ANSWER from these facts: {facts}', outputSchema: { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'], additionalProperties: false } },
      },
      { id: 'final', kind: 'output', name: 'Final', position: { x: 560, y: 0 }, config: { bindings: { value: 'steps.answer.answer' } } },
      ...fallback,
    ],
  } as Chain;
}

interface Case {
  protocol: Protocol;
  malformation: Malformation;
  retries: number;
  onFail: OnFail;
}

function cases(quick: boolean): Case[] {
  const out: Case[] = [];
  let i = 0;
  for (const malformation of MALFORMATIONS) {
    for (const retries of quick ? [1] : [0, 1, 2]) {
      for (const onFail of ON_FAIL) out.push({ protocol: PROTOCOLS[i++ % PROTOCOLS.length] ?? 'openai', malformation, retries, onFail });
    }
  }
  return out;
}

const userText = (body: unknown) => JSON.stringify((body as { messages?: unknown }).messages ?? body);

async function runCase(server: MockModelServer, c: Case, folder: string) {
  server.reset();
  const expectedAttempts = c.malformation.retried === false ? 1 : c.retries + 1;
  server.enqueue(...Array.from({ length: expectedAttempts }, () => c.malformation.reply));
  if (c.onFail.startsWith('fallback:')) server.enqueue({ content: { facts: [FALLBACK_FACT] } });
  server.enqueue({ content: { answer: 'Within 180 days.' } });
  // On disk as JSON lines, read back from the file: what `inspect` or a reload would see.
  const repo = createFileRunRepository(folder);
  const controller = new AbortController();
  const run = runChain({
    chain: chainFor(c.retries, c.onFail), inputs: { document: 'Appeals must be filed within 180 days.' },
    provider: mockProvider(c.protocol, server.url), model: mockModel, repo, countTokens, signal: controller.signal,
    transport: { baseDelayMs: 5, maxDelayMs: 20, maxAttempts: 2, timeoutMs: 10_000 },
  });
  const meta = await withTimeout(run, 20_000, 'the run').catch(async (error: unknown) => {
    controller.abort();
    await run.catch(() => undefined);
    throw error;
  });
  const calls = server.requests.filter((r) => isModelCall(r.path)).map((r) => userText(r.body));
  return { meta, events: await repo.getEvents(meta.id), calls, expectedAttempts };
}

export const b8Malformed: BatterySuite = {
  id: 'B8',
  title: 'Malformed model outputs',
  target: 'malformed model outputs → retries as configured, then the configured path (abort / abstain / escalate / fallback); never passed on',
  async run(opts: SuiteOptions = {}): Promise<SuiteResult> {
    const server = await createMockModelServer({ idleExitMs: 60_000 });
    const trap = installNetworkTrap({ allowHosts: [new URL(server.url).host] });
    const canary = plantCanary();
    const rejections = watchUnhandledRejections();
    const clock = new CaseClock();
    const folder = mkdtempSync(join(tmpdir(), 'seamscope-b8-'));
    const failures: string[] = [];
    const all = cases(Boolean(opts.quick));
    let definedEnd = 0;
    let attemptsOk = 0;
    let pathOk = 0;
    let passedOn = 0;
    try {
      for (const c of all) {
        const label = `${c.protocol} · ${c.malformation.name} · retries ${c.retries} · ${c.onFail}`;
        try {
          const { meta, events, calls, expectedAttempts } = await clock.time(() => runCase(server, c, folder));
          const extractCalls = calls.filter((t) => t.includes('EXTRACT:')).length;
          const extractAttempts = events.filter((e) => e.type === 'step.attempt' && e.stepId === 'extract').length;
          const finished = new Map(events.filter((e): e is Extract<TraceEvent, { type: 'step.finished' }> => e.type === 'step.finished').map((e) => [e.stepId, e]));
          if (['succeeded', 'failed', 'abstained', 'escalated'].includes(meta.status)) definedEnd++;
          if (extractCalls === expectedAttempts && extractAttempts === expectedAttempts) attemptsOk++;
          else failures.push(`${label}: ${extractCalls} calls / ${extractAttempts} attempts, configured ${expectedAttempts}`);
          const fallback = c.onFail.startsWith('fallback:');
          const pathTaken = finished.get('extract')?.status === 'failed' && meta.status === endFor[c.onFail]
            && (fallback ? finished.get('extract_single')?.status === 'succeeded' && meta.output === 'Within 180 days.' : !finished.has('answer'));
          if (pathTaken) pathOk++;
          else failures.push(`${label}: extract ${finished.get('extract')?.status}, run ${meta.status}, expected ${endFor[c.onFail]}`);
          // What the later steps were sent, as the endpoint saw it.
          const downstream = calls.filter((t) => !t.includes('EXTRACT:'));
          const answerPrompts = downstream.filter((t) => t.includes('ANSWER from these facts'));
          const leaked = downstream.some((t) => t.includes(MARK))
            || (fallback ? answerPrompts.length !== 1 || !answerPrompts[0]?.includes(FALLBACK_FACT) : answerPrompts.length > 0);
          if (leaked) {
            passedOn++;
            failures.push(`${label}: the malformed output reached a later step's prompt`);
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
    const executed = canary.executions();
    canary.remove();
    const unexpected = trap.unexpected().length;
    const n = all.length;
    return {
      cases: n, definedEnd, dataLost: 0, networkRequests: unexpected, codeExecuted: executed,
      worstMs: clock.worstMs, worstHeapMb: clock.worstHeapMb, failures: [...failures, ...rejections.reasons.map((r) => `unhandled rejection: ${r}`)],
      checks: [
        { name: 'malformations × retries × paths', ok: n >= MALFORMATIONS.length * ON_FAIL.length && definedEnd === n, detail: `${MALFORMATIONS.length} malformations, ${definedEnd}/${n} defined` },
        { name: 'attempts = retries + 1 (a refusal: 1)', ok: attemptsOk === n, detail: `${attemptsOk}/${n}` },
        { name: 'configured path taken', ok: pathOk === n, detail: `${pathOk}/${n}` },
        { name: 'malformed values passed on', ok: passedOn === 0, detail: `${passedOn}` },
        { name: 'code executed (canary, prototype)', ok: executed === 0, detail: `${executed}` },
        { name: 'unhandled rejections', ok: rejections.count() === 0, detail: `${rejections.count()}` },
        { name: 'requests beyond the mock', ok: unexpected === 0, detail: `${unexpected}` },
      ],
    };
  },
};
