/**
 * Benchmark: a batch eval against the mock model server (real HTTP, 0 ms per call), measured
 * against a plain promise pool making the same requests with the same concurrency, in the same
 * run. Prints figures; it asserts nothing.
 *
 *   npm run bench:eval [-- --items 1000 --concurrency 8 --repeats 7 --warmup 300]
 *
 * - throughput: items/s of `runEval` over the CLI's transport (createNodeFetch: node:http, as
 *   `seamscope eval` runs; also printed over the global fetch) (engine, validation, scoring, results streamed to a
 *   file, each run dropped from memory once written) ÷ items/s of the pool (fetch + JSON.parse
 *   of the same request bodies, read off the mock's log);
 *   the median of the per-repeat ratios. Target ≥ 0.9.
 * - engine alone: items/s of the same batch with an in-process provider (no HTTP), for where the
 *   time goes: over the pool's own transport the ratio could not pass engine ÷ (engine + pool),
 *   since each item pays both the engine's work (run, events, validation, scoring, sufficiency)
 *   and a request; the CLI's transport pays less per request than the pool's fetch.
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
import type { Chain } from '../src/chain/index.ts';
import { runEval, type Dataset } from '../src/eval/index.ts';
import { createProviderForProfile } from '../src/providers/profiles.ts';
import type { ModelProvider } from '../src/providers/types.ts';
import { createMockModelServer } from '../src/testing/mock-server.ts';
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
async function plainPool(url: string, n: number, template: { path: string; headers: Record<string, string>; body: string }): Promise<number> {
  const [head, tail] = template.body.split('How many days for appeal 0?') as [string, string];
  let next = 0;
  const t0 = performance.now();
  const worker = async () => {
    while (next < n) {
      const i = next++;
      const res = await fetch(`${url}${template.path}`, { method: 'POST', headers: template.headers, body: `${head}How many days for appeal ${i}?${tail}` });
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

const server = await createMockModelServer();
server.setResponder(() => ({ content: { answer: 'Within 60 days.' } }));
const dir = await mkdtemp(path.join(tmpdir(), 'seamscope-bench-eval-'));
try {
  // Warm both paths (JIT, sockets) before measuring; the first eval request is the pool's template.
  const cliFetch = createNodeFetch();
  await evalBatch(server.url, WARMUP, dir, cliFetch);
  await evalBatch(server.url, WARMUP, dir);
  const first = server.requests.find((r) => JSON.stringify(r.body).includes('How many days for appeal 0?'));
  if (!first) throw new Error('the mock saw no request for the first item');
  const template = { path: first.path, headers: { 'content-type': 'application/json' }, body: first.rawBody ?? JSON.stringify(first.body) };
  await plainPool(server.url, WARMUP, template);
  await engineAlone(WARMUP);
  const ratios: number[] = [];
  const growth: number[] = [];
  const alone: number[] = [];
  const pools: number[] = [];
  const viaFetch: number[] = [];
  for (let r = 0; r < REPEATS; r++) {
    server.reset();
    server.setResponder(() => ({ content: { answer: 'Within 60 days.' } }));
    const pool = await plainPool(server.url, ITEMS, template);
    server.reset();
    server.setResponder(() => ({ content: { answer: 'Within 60 days.' } }));
    const ev = await evalBatch(server.url, ITEMS, dir, cliFetch);
    server.reset();
    server.setResponder(() => ({ content: { answer: 'Within 60 days.' } }));
    const overFetch = await evalBatch(server.url, ITEMS, dir);
    viaFetch.push(overFetch.rate / pool);
    const engine = await engineAlone(ITEMS);
    alone.push(engine);
    pools.push(pool);
    ratios.push(ev.rate / pool);
    growth.push(ev.heapEnd / Math.max(1, ev.heapQuarter));
    console.log(`repeat ${r + 1}: pool ${pool.toFixed(0)} items/s, eval ${ev.rate.toFixed(0)} items/s, ratio ${(ev.rate / pool).toFixed(2)} (${(overFetch.rate / pool).toFixed(2)} with the global fetch instead of the CLI's node:http one); engine alone ${engine.toFixed(0)} items/s; heap ${(ev.heapQuarter / 2 ** 20).toFixed(1)} MiB at ${ITEMS / 4} items → ${(ev.heapEnd / 2 ** 20).toFixed(1)} MiB at ${ITEMS}`);
  }
  console.log(`throughput ratio (median of ${REPEATS}): ${median(ratios).toFixed(2)} (target ≥ 0.9); heap growth ${median(growth).toFixed(2)}× from a quarter to the whole batch${(globalThis as { gc?: unknown }).gc ? '' : ' (run with node --expose-gc for exact heap figures)'}`);
  console.log(`with the global fetch (undici's) in the engine too, as the app's worker has it: ratio ${median(viaFetch).toFixed(2)}`);
  const ceiling = median(alone) / (median(alone) + median(pools));
  console.log(`engine alone (no HTTP): ${median(alone).toFixed(0)} items/s; over the pool's own HTTP (the global fetch) the ratio could not pass ${ceiling.toFixed(2)} (engine ÷ (engine + pool)): the CLI's node:http transport costs less per request than the pool's fetch`);
  console.log(JSON.stringify({ bench: 'eval', items: ITEMS, concurrency: CONCURRENCY, throughputRatio: Number(median(ratios).toFixed(3)), throughputRatioGlobalFetch: Number(median(viaFetch).toFixed(3)), heapGrowth: Number(median(growth).toFixed(3)), engineAloneItemsPerS: Math.round(median(alone)), ratioCeiling: Number(ceiling.toFixed(3)) }));
} finally {
  await server.close();
  await rm(dir, { recursive: true, force: true });
}
