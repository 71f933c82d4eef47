/**
 * What the batch's own code costs per item, apart from BullMQ, the engine and the model call:
 * the worker's check of a job's payload, its run file and result as it hands them back, and the
 * coordinator's checks of what comes back. Each is timed in a loop on payloads from real runs
 * (the bench's one-call chain against the mock model server, in this process), so the figures
 * are CPU time of the code itself, steadier on a shared machine than a whole bench:batch round.
 * Prints figures; it asserts nothing.
 *
 *   npx tsx scripts/bench/batch-own-cost.ts [--items 300 --loops 3000]
 */
import { chainHash } from '../../src/batch/chain-store.ts';
import { JOB_FORMAT, jobDataSchema, jobResultSchema, RESULT_FORMAT } from '../../src/batch/payload.ts';
import { createNodeFetch } from '../../src/cli/node-fetch.ts';
import { runEvalItem } from '../../src/eval/run-eval.ts';
import { parseStrictJson } from '../../src/files/strict-json.ts';
import { createProviderForProfile, runModelSettings } from '../../src/providers/profiles.ts';
import { stepRegistry } from '../../src/steps/index.ts';
import { answerChain, answerDataset, mockProfile } from '../../src/testing/batch-fixtures.ts';
import { createMockModelServer } from '../../src/testing/mock-server.ts';
import { createMemoryRunRepository } from '../../src/trace/repository.ts';
import { parseRunFile, toRunFile } from '../../src/trace/run-file.ts';

const argv = process.argv.slice(2);
const opt = (name: string, fallback: number) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? Number(argv[i + 1]) : fallback;
};
const ITEMS = opt('items', 300);
const LOOPS = opt('loops', 3000);

const server = await createMockModelServer();
server.setResponder(() => ({ content: { answer: 'Within 60 days.' }, delayMs: 0 }));
const profile = mockProfile(server.url);
const provider = createProviderForProfile(profile, {});
const chain = answerChain();
const hash = chainHash(chain);
const items = answerDataset(ITEMS).items;
const fetch = createNodeFetch();
const countTokens = (t: string) => Math.ceil(t.length / 4);

// Real runs, as a worker makes them: their results, events and run files are the payloads timed below.
const runs: NonNullable<Awaited<ReturnType<typeof runEvalItem>>>[] = [];
for (let i = 0; i < ITEMS; i++) {
  const item = items[i];
  if (!item) break;
  const ran = await runEvalItem({ provider, model: runModelSettings(profile), repo: createMemoryRunRepository(), registry: stepRegistry, countTokens, fetch }, { name: 'bench', kind: 'chain', chain }, item, `run-${i}`, undefined);
  if (ran) runs.push(ran);
}
await server.close();
const jobData = items.map((item, i) => ({ format: JOB_FORMAT, version: 1, batchId: 'bench', profileKey: hash, runId: `run-${i}`, variant: { name: 'bench', kind: 'chain', chainHash: hash }, item }));
const runFiles = runs.map((r) => JSON.stringify(toRunFile(r.meta, r.events)));
const returned = runs.map((r, i) => ({ format: RESULT_FORMAT, version: 1, result: r.result, runFile: runFiles[i] as string }));
const returnedText = returned.map((r) => JSON.stringify(r));

/** µs per call of `f` over LOOPS calls, cycling through the payloads; the best of three rounds (the machine is shared). */
function time(f: (i: number) => unknown): number {
  let best = Infinity;
  for (let round = 0; round < 3; round++) {
    const t0 = process.cpuUsage();
    for (let i = 0; i < LOOPS; i++) f(i % runs.length);
    const used = process.cpuUsage(t0);
    best = Math.min(best, (used.user + used.system) / LOOPS);
  }
  return best;
}

const rows: [string, string, number][] = [
  ['worker', 'job payload checked (jobDataSchema)', time((i) => jobDataSchema.safeParse(jobData[i]))],
  ['worker', 'run file serialised (toRunFile + JSON.stringify)', time((i) => JSON.stringify(toRunFile(runs[i]!.meta, runs[i]!.events)))],
  ['worker', 'return value serialised by BullMQ (JSON.stringify)', time((i) => JSON.stringify(returned[i]))],
  ['coordinator', 'return value parsed by BullMQ (JSON.parse)', time((i) => JSON.parse(returnedText[i]!))],
  ['coordinator', 'result checked (jobResultSchema)', time((i) => jobResultSchema.safeParse(returned[i]))],
  ['coordinator', 'run file checked (parseRunFile)', time((i) => parseRunFile(runFiles[i]!))],
  ['coordinator', '  of which its strict JSON read', time((i) => parseStrictJson(runFiles[i]!))],
];
const bytes = (list: string[]) => Math.round(list.reduce((n, s) => n + s.length, 0) / list.length);
console.log(`the batch's own code per item (CPU µs, best of 3 × ${LOOPS} calls over ${runs.length} real runs; run file ${bytes(runFiles)} B, return value ${bytes(returnedText)} B):`);
for (const [side, what, us] of rows) console.log(`  ${side.padEnd(12)} ${what.padEnd(52)} ${us.toFixed(1).padStart(7)} µs`);
const sum = (side: string) => rows.filter(([s, w]) => s === side && !w.startsWith(' ')).reduce((n, [, , us]) => n + us, 0);
console.log(`  worker ${sum('worker').toFixed(0)} µs, coordinator ${sum('coordinator').toFixed(0)} µs per item`);
console.log(JSON.stringify({ bench: 'batch-own-cost', workerUs: Number(sum('worker').toFixed(1)), coordinatorUs: Number(sum('coordinator').toFixed(1)), runFileBytes: bytes(runFiles), returnBytes: bytes(returnedText) }));
