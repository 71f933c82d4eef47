/**
 * Benchmark: a batch eval against the mock model server (real HTTP, 0 ms per call), measured
 * against a plain promise pool making the same requests with the same concurrency, in the same
 * run. Prints figures; it asserts nothing.
 *
 *   npm run bench:eval [-- --items 1000 --concurrency 8 --repeats 7 --warmup 300]
 *
 * - throughput: items/s of `runEval` (engine, validation, scoring, results streamed to a file,
 *   each run dropped from memory once written) ÷ items/s of the pool (a request + JSON.parse
 *   of the same request bodies, read off the mock's log), both over the same transport: the
 *   CLI's (createNodeFetch: node:http, as `seamscope eval` runs) for the headline figure, and
 *   Node's global fetch (undici; a library user's default) beside it; the median of the
 *   per-repeat ratios. Target ≥ 0.9.
 * - The mock runs in a process of its own, as an endpoint does (`--mock-in-process` puts it on
 *   this process's event loop, as figures before 2026-12-02 were measured).
 * - engine alone: items/s of the same batch with an in-process provider (no HTTP), for where the
 *   time goes: the engine's work per item (run, events, validation, scoring, sufficiency) next
 *   to the pool's cost per request.
 * - memory: heap after a full batch against heap after a quarter of it (results streamed out,
 *   so it should stay flat: a ratio near 1), with `--expose-gc` when available.
 * Ends with one JSON line: {"bench":"eval","items":…,"throughputRatio":…,"heapGrowth":…}
 *
 * Run through `npm run bench:eval`, which bundles this file with esbuild first and runs it on
 * plain Node with --expose-gc: under tsx every module hook and source-map lookup lands in the
 * eval's figures and not in the pool's.
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { forkMockProcess } from './bench/mock-process.ts';
import type { Chain } from '../src/chain/index.ts';
import { runEval, type Dataset } from '../src/eval/index.ts';
import { createProviderForProfile } from '../src/providers/profiles.ts';
import type { ModelProvider } from '../src/providers/types.ts';
import { createMockModelServer, type MockModelServer, type MockResponder } from '../src/testing/mock-server.ts';
import { createMemoryRunRepository } from '../src/trace/index.ts';
import { createNodeFetch } from '../src/cli/node-fetch.ts';

const argv = process.argv.slice(2);
const opt = (name: string, fallback: number) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? Number(argv[i + 1]) : fallback;
};
const ITEMS = opt('items', 1000);
const CONCURRENCY = opt('concurrency', 8);
const REPEATS = opt('repeats', 7);
/** Items each path runs before any is measured: steady state (optimised code, open sockets) is what is compared. */
const WARMUP = opt('warmup', 300);

const chain: Chain = {
  format: 'seamscope.chain', version: 1, id: 'bench-eval', name: 'Bench eval',
  inputs: [{ name: 'question', schema: { type: 'string' }, trust: 'untrusted', required: true }],
  steps: [
    {
      id: 'answer', kind: 'model', name: 'Answer', position: { x: 0, y: 0 },
      config: {
        bindings: { question: 'inputs.question' }, prompt: 'Answer briefly: {question}',
        outputSchema: { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'], additionalProperties: false },
        retries: 1, onFail: 'abort',
      },
    },
    { id: 'final', kind: 'output', name: 'Final', position: { x: 280, y: 0 }, config: { bindings: { value: 'steps.answer.answer' } } },
  ],
};

const dataset = (n: number): Dataset => ({
  items: Array.from({ length: n }, (_, i) => ({ id: `q${i}`, inputs: { question: `How many days for appeal ${i}?` }, expected: { facts: ['60 days'] } })),
});

const heap = () => {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed;
};

/**
 * The pool: fetch + JSON.parse, nothing else, sending exactly the body the engine sent for the
 * first item (read off the mock's request log), with each item's question in it. The same
 * requests, so the mock's own work per request is the same on both sides.
 */
async function plainPool(url: string, n: number, template: { path: string; headers: Record<string, string>; body: string }, transport: typeof fetch): Promise<number> {
  const [head, tail] = template.body.split('How many days for appeal 0?') as [string, string];
  let next = 0;
  const t0 = performance.now();
  const worker = async () => {
    while (next < n) {
      const i = next++;
      const res = await transport(`${url}${template.path}`, { method: 'POST', headers: template.headers, body: `${head}How many days for appeal ${i}?${tail}` });
      JSON.parse(await res.text());
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return n / ((performance.now() - t0) / 1000);
}

async function evalBatch(url: string, n: number, dir: string, transport?: typeof fetch): Promise<{ rate: number; heapQuarter: number; heapEnd: number }> {
  const provider = createProviderForProfile({ id: 'mock', name: 'mock', kind: 'openai', baseUrl: `${url}/v1`, model: 'mock-model', contextWindow: 128_000, maxOutputTokens: 256, structuredOutput: true, prices: { input: 0, output: 0 } });
  const repo = createMemoryRunRepository();
  const out = createWriteStream(path.join(dir, `results-${Date.now()}.jsonl`));
  let written = 0;
  let heapQuarter = 0;
  const t0 = performance.now();
  await runEval({
    variants: [{ name: 'bench', kind: 'chain', chain }], dataset: dataset(n), provider, model: { name: 'mock-model', maxOutputTokens: 256, structuredOutput: true },
    repo, concurrency: CONCURRENCY, countTokens: (t) => Math.ceil(t.length / 4), ...(transport ? { fetch: transport } : {}),
    onResult: async (result, run) => {
      out.write(`${JSON.stringify(result)}\n`);
      await repo.deleteRun(run.meta.id);
      if (++written === Math.floor(n / 4)) heapQuarter = heap();
    },
  });
  const rate = n / ((performance.now() - t0) / 1000);
  await new Promise((r) => out.end(r));
  return { rate, heapQuarter, heapEnd: heap() };
}

/** The batch with a provider that answers in-process: the engine's own cost per item, no HTTP. */
async function engineAlone(n: number): Promise<number> {
  const provider: ModelProvider = {
    kind: 'in-process',
    async call() {
      return { text: '{"answer":"Within 60 days."}', finishReason: 'stop', rawFinishReason: 'stop', usage: { inputTokens: 10, outputTokens: 5 }, requestBody: {}, rawResponse: {}, status: 200, model: 'mock-model' };
    },
  };
  const repo = createMemoryRunRepository();
  const t0 = performance.now();
  await runEval({
    variants: [{ name: 'bench', kind: 'chain', chain }], dataset: dataset(n), provider, model: { name: 'mock-model', maxOutputTokens: 256, structuredOutput: true },
    repo, concurrency: CONCURRENCY, countTokens: (t) => Math.ceil(t.length / 4),
    onResult: async (result, run) => {
      JSON.stringify(result);
      await repo.deleteRun(run.meta.id);
    },
  });
  return n / ((performance.now() - t0) / 1000);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

/** The mock model server, in a process of its own (as an endpoint is) or in this one (--mock-in-process). */
interface MockHandle {
  url: string;
  /** Forgets the request log (the responder stays: 0 ms, one fixed answer). */
  reset(): Promise<void>;
  /** The raw request the engine sent for the first item: the pool's template. */
  firstRequest(): Promise<{ path: string; body: string } | undefined>;
  close(): Promise<void>;
}

/**
 * Each item gets its own answer (its number in it), as a real endpoint's answers differ: a
 * cache keyed by text (token counts, fact indexes) must not make every item after the first free.
 */
const ANSWER: MockResponder = (call) => {
  const n = /appeal (\d+)/.exec(call.messages.map((m) => m.content).join('\n'))?.[1] ?? '0';
  return { content: { answer: `Within 60 days of notice ${n}.` } };
};
const firstOf = (server: MockModelServer) => {
  const first = server.requests.find((r) => JSON.stringify(r.body).includes('How many days for appeal 0?'));
  return first ? { path: first.path, body: first.rawBody ?? JSON.stringify(first.body) } : undefined;
};

async function startMock(): Promise<MockHandle> {
  if (argv.includes('--mock-in-process')) {
    const server = await createMockModelServer();
    server.setResponder(ANSWER);
    return {
      url: server.url,
      reset: async () => {
        server.reset();
        server.setResponder(ANSWER);
      },
      firstRequest: async () => firstOf(server),
      close: () => server.close(),
    };
  }
  const { url, reply, close } = await forkMockProcess(fileURLToPath(import.meta.url), '--mock-process');
  return {
    url,
    reset: async () => void (await reply('done', { type: 'reset' })),
    firstRequest: async () => (await reply<{ first?: { path: string; body: string } }>('first', { type: 'first' })).first,
    close,
  };
}

async function bench() {
  const mock = await startMock();
  const dir = await mkdtemp(path.join(tmpdir(), 'seamscope-bench-eval-'));
  try {
    // Warm every path (JIT, sockets) before measuring; the first eval request is the pool's template.
    const cliFetch = createNodeFetch();
    await evalBatch(mock.url, WARMUP, dir, cliFetch);
    await evalBatch(mock.url, WARMUP, dir);
    const first = await mock.firstRequest();
    if (!first) throw new Error('the mock saw no request for the first item');
    const template = { ...first, headers: { 'content-type': 'application/json' } };
    await plainPool(mock.url, WARMUP, template, cliFetch);
    await plainPool(mock.url, WARMUP, template, fetch);
    await engineAlone(WARMUP);
    const ratios: number[] = [];
    const growth: number[] = [];
    const alone: number[] = [];
    const pools: number[] = [];
    const viaFetch: number[] = [];
    for (let r = 0; r < REPEATS; r++) {
      // Each transport against a pool on the same transport: the engine's cost is what differs.
      await mock.reset();
      const pool = await plainPool(mock.url, ITEMS, template, cliFetch);
      await mock.reset();
      const ev = await evalBatch(mock.url, ITEMS, dir, cliFetch);
      await mock.reset();
      const poolFetch = await plainPool(mock.url, ITEMS, template, fetch);
      await mock.reset();
      const overFetch = await evalBatch(mock.url, ITEMS, dir);
      viaFetch.push(overFetch.rate / poolFetch);
      const engine = await engineAlone(ITEMS);
      alone.push(engine);
      pools.push(pool);
      ratios.push(ev.rate / pool);
      growth.push(ev.heapEnd / Math.max(1, ev.heapQuarter));
      console.log(`repeat ${r + 1}: node:http: pool ${pool.toFixed(0)} items/s, eval ${ev.rate.toFixed(0)} items/s, ratio ${(ev.rate / pool).toFixed(2)}; global fetch: pool ${poolFetch.toFixed(0)}, eval ${overFetch.rate.toFixed(0)}, ratio ${(overFetch.rate / poolFetch).toFixed(2)}; engine alone ${engine.toFixed(0)} items/s; heap ${(ev.heapQuarter / 2 ** 20).toFixed(1)} MiB at ${ITEMS / 4} items → ${(ev.heapEnd / 2 ** 20).toFixed(1)} MiB at ${ITEMS}`);
    }
    console.log(`throughput ratio (median of ${REPEATS}), eval ÷ pool, both over the CLI's node:http transport: ${median(ratios).toFixed(2)} (target ≥ 0.9); heap growth ${median(growth).toFixed(2)}× from a quarter to the whole batch${(globalThis as { gc?: unknown }).gc ? '' : ' (run with node --expose-gc for exact heap figures)'}`);
    console.log(`both over Node's global fetch (undici), a library user's default: ratio ${median(viaFetch).toFixed(2)}`);
    // Per item, the engine's own work (run, events, validation, scoring, sufficiency) against a pool request.
    const engineMs = 1000 / median(alone);
    const poolMs = 1000 / median(pools);
    console.log(`engine alone (no HTTP): ${median(alone).toFixed(0)} items/s, ${engineMs.toFixed(3)} ms per item, against ${poolMs.toFixed(3)} ms per pool request (node:http)${argv.includes('--mock-in-process') ? ', the mock on the same core' : '; the mock in its own process, as an endpoint is'}`);
    console.log(JSON.stringify({ bench: 'eval', items: ITEMS, concurrency: CONCURRENCY, mock: argv.includes('--mock-in-process') ? 'in-process' : 'own process', throughputRatio: Number(median(ratios).toFixed(3)), throughputRatioGlobalFetch: Number(median(viaFetch).toFixed(3)), heapGrowth: Number(median(growth).toFixed(3)), engineAloneItemsPerS: Math.round(median(alone)), poolItemsPerS: Math.round(median(pools)), engineMsPerItem: Number(engineMs.toFixed(3)) }));
  } finally {
    await mock.close();
    await rm(dir, { recursive: true, force: true });
  }
}

if (argv.includes('--mock-process')) {
  // The endpoint, in a process of its own; told over IPC to forget its log or hand over the template.
  const server = await createMockModelServer();
  server.setResponder(ANSWER);
  const send = (m: unknown) => process.send?.(m);
  process.on('message', (m: { type: string }) => {
    if (m.type === 'reset') {
      server.reset();
      server.setResponder(ANSWER);
      send({ type: 'done' });
    } else if (m.type === 'first') send({ type: 'first', first: firstOf(server) });
    else if (m.type === 'close') void server.close().then(() => process.exit(0));
  });
  send({ type: 'ready', url: server.url });
} else {
  await bench();
}
