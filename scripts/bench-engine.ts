/**
 * Benchmark: the engine against plain fetch + ajv (and optionally LangChain.js, LangGraph.js
 * and Rivet) on the peer harness's workloads, in the same harness run, so every ratio is
 * taken against the floor measured in the same repeat. Prints figures; it asserts nothing.
 *
 *   npx tsx scripts/bench-engine.ts [--quick] [--all] [--repeats N] [--w1-repeats N] [--w1s-repeats N] [--workloads W4,W1,W1s,W2,W3]
 *                                   [--no-check] [--no-heap] [--no-cpu] [--with name=path/to/adapter.ts ...]
 *
 * What it does:
 *  1. copies the harness (../shared/bench/peers, or $SEAMSCOPE_BENCH_PEERS) to
 *     /tmp/seamscope-bench-peers and runs `npm ci` there when its lockfile changed. Nothing of
 *     the harness lives in this project.
 *  2. bundles scripts/bench/seamscope-contestant.ts (and any --with adapter) to plain ESM with
 *     esbuild into the scratch copy's src/contestants/, because the harness runs plain Node 20.
 *  3. runs the harness's retry-with-feedback check with our contestant (`--check`).
 *  4. runs the benchmark: `node src/run.mjs --contestant seamscope=… --only fetch,seamscope[,…]`.
 *  4b. runs W1 alone for --w1-repeats more repeats (default 36) and W1s for --w1s-repeats more
 *     (default 8), and pools them with step 4's as further repeats: one repeat's ratio moves by
 *     ±20 % on a 2-core machine, and W1's target is within a few per cent of where it stands, so
 *     its median needs ~40 repeats to be read to ±0.02 (the table prints that interval).
 *  5. runs the harness's retained-heap check (`src/heap-growth.mjs`) for fetch and us.
 *  6. runs W1 once more by CPU time, the floor and us in one process, interleaved
 *     (scripts/bench/w1-cpu.ts): the figure that holds on a machine others are loading.
 *  7. prints our ratios against `fetch` (median of the per-repeat ratios, as the harness does)
 *     and ends with one JSON line: {"bench":"engine","w1":…,"w1s":…,"w2":…,"w3_throughput":…,"w3_memory":…,"w4":…,"w1_cpu":…}
 *
 * The contestant counts tokens with a cheap length estimate (the peers count none); the app
 * counts with the real o200k tokenizer. SEAMSCOPE_BENCH_TOKENIZER=real and
 * SEAMSCOPE_BENCH_VALIDATOR=per-run switch the contestant to the app's behaviour.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { TARGETS } from './bench/headlines.ts';
import { medianInterval } from './bench/median-interval.ts';
import { parseW1Cpu, W1_CPU_SCRIPT } from './bench/w1-cpu.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const HARNESS_SRC = path.resolve(process.env.SEAMSCOPE_BENCH_PEERS ?? path.join(root, '../shared/bench/peers'));
const SCRATCH = '/tmp/seamscope-bench-peers';
const OURS = 'seamscope';

const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(`--${name}`);
const opt = (name: string): string | undefined => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const multi = (name: string) => argv.flatMap((a, i) => (a === `--${name}` && argv[i + 1] ? [argv[i + 1] as string] : []));
const QUICK = flag('quick');
const ALL = flag('all');

const targets = {
  w1: { max: TARGETS.engineW1, label: 'W1 ms/step × floor' },
  w1s: { max: 1.5, label: 'W1s ms/step × floor' },
  w2: { max: 1.02, label: 'W2 wall × floor' },
  w3_throughput: { min: 0.8, label: 'W3 items/s ÷ floor' },
  w3_memory: { max: 1.2, label: 'W3 peak RSS × floor' },
  w4: { max: 2, label: 'W4 import+build × floor' },
} as const;
type RatioKey = keyof typeof targets;

function log(line = ''): void {
  process.stdout.write(`${line}\n`);
}

function sh(cmd: string, args: string[], cwd?: string): void {
  const r = spawnSync(cmd, args, { cwd, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status ?? r.signal})`);
}

/** Scratch copy of the harness with its node_modules; reinstalled only when the lockfile changed. */
function prepareHarness(): void {
  if (!existsSync(path.join(HARNESS_SRC, 'src/run.mjs'))) throw new Error(`no peer harness at ${HARNESS_SRC} (set SEAMSCOPE_BENCH_PEERS)`);
  const lock = (dir: string) => (existsSync(path.join(dir, 'package-lock.json')) ? readFileSync(path.join(dir, 'package-lock.json'), 'utf8') : null);
  const reusable = existsSync(path.join(SCRATCH, 'node_modules')) && lock(SCRATCH) === lock(HARNESS_SRC);
  if (reusable) {
    // Fresh sources every time (results/ and node_modules/ stay).
    rmSync(path.join(SCRATCH, 'src'), { recursive: true, force: true });
    sh('cp', ['-r', path.join(HARNESS_SRC, 'src'), path.join(SCRATCH, 'src')]);
    for (const f of ['package.json', 'package-lock.json']) sh('cp', ['-f', path.join(HARNESS_SRC, f), path.join(SCRATCH, f)]);
    sh('chmod', ['-R', 'u+w', path.join(SCRATCH, 'src'), path.join(SCRATCH, 'package.json'), path.join(SCRATCH, 'package-lock.json')]);
    log(`harness: refreshed ${SCRATCH} from ${HARNESS_SRC} (node_modules reused)`);
    return;
  }
  if (existsSync(SCRATCH)) {
    sh('chmod', ['-R', 'u+w', SCRATCH]);
    rmSync(SCRATCH, { recursive: true, force: true });
  }
  sh('cp', ['-r', HARNESS_SRC, SCRATCH]);
  // The shared copy is read-only; the scratch copy needs node_modules/ and results/.
  sh('chmod', ['-R', 'u+w', SCRATCH]);
  log(`harness: copied ${HARNESS_SRC} to ${SCRATCH}; npm ci …`);
  sh('npm', ['ci', '--no-audit', '--no-fund'], SCRATCH);
}

/** Bundles an adapter to `<scratch>/src/contestants/<name>.mjs` (+ lazily loaded chunks). */
async function bundle(name: string, entry: string): Promise<string> {
  const outdir = path.join(SCRATCH, 'src/contestants');
  rmSync(path.join(outdir, `${name}-chunks`), { recursive: true, force: true });
  const result = await build({
    entryPoints: { [name]: path.resolve(entry) },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // The real tokenizer (o200k, ~2 MB) stays in its own chunk, loaded only when asked for,
    // as in the app's build; a single file would make every cold start parse it.
    splitting: true,
    outdir,
    chunkNames: `${name}-chunks/[name]-[hash]`,
    outExtension: { '.js': '.mjs' },
    metafile: true,
    logLevel: 'warning',
  });
  const file = path.join(outdir, `${name}.mjs`);
  const bytes = Object.entries(result.metafile.outputs).find(([out]) => path.resolve(out) === file)?.[1].bytes ?? 0;
  log(`bundled ${path.relative(root, path.resolve(entry))} → ${file} (${(bytes / 1024).toFixed(0)} KB)`);
  return `src/contestants/${name}.mjs`;
}

/** Runs a harness command in the scratch copy, echoing its output; resolves with all of stdout. */
function runHarness(args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: SCRATCH, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d;
      process.stdout.write(d);
    });
    child.on('exit', (code) => resolve({ code, out }));
  });
}

interface HarnessRecord {
  repeat: number;
  contestant: string;
  workload: string;
  ok: boolean;
  error?: string;
  problems?: string[];
  perStepMs?: number;
  wallMsMedian?: number;
  itemsPerSec?: number;
  peakRssMB?: number;
  importBuildMs?: number;
  importMs?: number;
  firstChainMs?: number;
  rssAfterSetupMB?: number;
  heapUsedAfterMB?: number;
}

const median = (xs: number[]): number | null => {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  if (s.length === 0) return null;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};
const fmt = (x: number | null | undefined, d = 2) => (x === null || x === undefined || !Number.isFinite(x) ? '—' : x.toFixed(d));
const round3 = (x: number | null) => (x === null ? null : Math.round(x * 1000) / 1000);

/** Per-repeat ratio of a contestant's value to the floor's in the same repeat, then the median. */
function pairedRatios(records: HarnessRecord[], contestant: string, workload: string, key: keyof HarnessRecord): number[] {
  const repeats = [...new Set(records.map((r) => r.repeat))];
  const out: number[] = [];
  for (const rep of repeats) {
    const find = (c: string) => records.find((r) => r.repeat === rep && r.workload === workload && r.contestant === c && r.ok);
    const a = find(contestant)?.[key];
    const b = find('fetch')?.[key];
    if (typeof a === 'number' && typeof b === 'number' && a > 0 && b > 0) out.push(a / b);
  }
  return out;
}

function ratiosFor(records: HarnessRecord[], contestant: string): Record<RatioKey, { median: number | null; all: number[] }> {
  const r = (workload: string, key: keyof HarnessRecord) => {
    const all = pairedRatios(records, contestant, workload, key);
    return { median: median(all), all };
  };
  return {
    w1: r('W1', 'perStepMs'),
    w1s: r('W1s', 'perStepMs'),
    w2: r('W2', 'wallMsMedian'),
    // ours ÷ floor items/s (> 1 is faster than the floor)
    w3_throughput: r('W3', 'itemsPerSec'),
    w3_memory: r('W3', 'peakRssMB'),
    w4: r('W4', 'importBuildMs'),
  };
}

function verdict(key: RatioKey, value: number | null): string {
  if (value === null) return 'n/a';
  const t = targets[key];
  if ('max' in t) return value <= t.max ? `ok (≤ ${t.max})` : `MISSED (target ≤ ${t.max})`;
  return value >= t.min ? `ok (≥ ${t.min})` : `MISSED (target ≥ ${t.min})`;
}

function printFigures(records: HarnessRecord[], contestants: string[]): void {
  const abs = (c: string, w: string, key: keyof HarnessRecord) => median(records.filter((r) => r.contestant === c && r.workload === w && r.ok).map((r) => r[key] as number));
  log('\nAbsolute figures (median over repeats):');
  log('| contestant | W1 ms/step | W1s ms/step | W2 wall ms | W3 items/s | W3 peak RSS MB | W4 import+build ms | W4 of which import | first W1 chain (cold) ms |');
  log('|---|---|---|---|---|---|---|---|---|');
  for (const c of contestants) {
    log(`| ${c} | ${fmt(abs(c, 'W1', 'perStepMs'))} | ${fmt(abs(c, 'W1s', 'perStepMs'))} | ${fmt(abs(c, 'W2', 'wallMsMedian'), 0)} | ${fmt(abs(c, 'W3', 'itemsPerSec'), 0)} | ${fmt(abs(c, 'W3', 'peakRssMB'), 1)} | ${fmt(abs(c, 'W4', 'importBuildMs'), 0)} | ${fmt(abs(c, 'W4', 'importMs'), 0)} | ${fmt(abs(c, 'W4', 'firstChainMs'), 0)} |`);
  }
  for (const c of contestants.filter((x) => x !== 'fetch')) {
    const ratios = ratiosFor(records, c);
    log(`\nRatios for ${c} against fetch + ajv in the same repeat (median of per-repeat ratios; each repeat in brackets):`);
    log('| figure | ratio | repeats | 95 % interval of the median | per repeat | target |');
    log('|---|---|---|---|---|---|');
    for (const key of Object.keys(targets) as RatioKey[]) {
      const { median: m, all } = ratios[key];
      const interval = medianInterval(all);
      log(`| ${key} (${targets[key].label}) | ${fmt(m, 3)} | ${all.length} | ${interval ? `${fmt(interval[0], 3)}–${fmt(interval[1], 3)}` : '—'} | ${all.map((x) => x.toFixed(3)).join(', ')} | ${verdict(key, m)} |`);
    }
    const problems = [...new Set(records.filter((r) => r.contestant === c).flatMap((r) => (r.ok ? (r.problems ?? []) : [`${r.workload} failed: ${r.error ?? ''}`])))];
    if (problems.length) log(`PROBLEMS reported by the harness for ${c}: ${problems.join('; ')}`);
  }
}

/** `name heap MB after full GC: start 9.1, rounds 10.2 10.3 …` → growth from round 1 to the last. */
function parseHeap(out: string): { name: string; start: number; rounds: number[] }[] {
  const rows: { name: string; start: number; rounds: number[] }[] = [];
  for (const line of out.split('\n')) {
    const m = /^(\S+)\s+heap MB after full GC: start ([\d.]+), rounds ([\d. ]+)$/.exec(line.trim());
    if (m) rows.push({ name: m[1] as string, start: Number(m[2]), rounds: (m[3] as string).trim().split(/\s+/).map(Number) });
  }
  return rows;
}

async function main(): Promise<void> {
  const t0 = Date.now();
  prepareHarness();
  const extra = multi('with').map((spec) => {
    const [name, file] = spec.split('=');
    if (!name || !file) throw new Error(`--with expects name=path/to/adapter.ts, got ${spec}`);
    return { name, file };
  });
  const modules = new Map<string, string>([[OURS, await bundle(OURS, path.join(root, 'scripts/bench/seamscope-contestant.ts'))]]);
  for (const { name, file } of extra) modules.set(name, await bundle(name, file));
  const contestantArgs = [...modules].flatMap(([name, mod]) => ['--contestant', `${name}=${mod}`]);
  const ours = [...modules.keys()];

  let checkSummary = 'skipped';
  if (!flag('no-check')) {
    log('\n== harness check: W1 with every 2nd first attempt schema-invalid (retry with feedback must repair it)');
    const check = await runHarness(['src/run.mjs', '--check', '--only', ['fetch', ...ours].join(','), ...contestantArgs]);
    const line = check.out.split('\n').find((l) => new RegExp(`^(PASS|FAIL) ${OURS}\\b`).test(l));
    checkSummary = line ?? `no result (exit ${check.code})`;
  }

  log('\n== benchmark run (the harness prints its own summary below)');
  const only = ['fetch', ...ours, ...(ALL ? ['langchain', 'langgraph', 'rivet', 'rivet-noretry'] : [])];
  const benchArgs = ['src/run.mjs', '--only', only.join(','), ...contestantArgs];
  if (QUICK) benchArgs.push('--quick');
  for (const name of ['repeats', 'workloads', 'worker-timeout']) {
    const v = opt(name);
    if (v) benchArgs.push(`--${name}`, v);
  }
  const bench = await runHarness(benchArgs);
  const rawRel = /^raw: (\S+)$/m.exec(bench.out)?.[1];
  if (bench.code !== 0 || !rawRel) throw new Error(`the harness run failed (exit ${bench.code}); no raw results`);
  const rawPath = path.join(SCRATCH, rawRel);
  const { records } = JSON.parse(readFileSync(rawPath, 'utf8')) as { records: HarnessRecord[] };

  // W1 and W1s take a few seconds a repeat, and one repeat's ratio moves by ±20 % with whatever
  // else the machine does in those seconds: the harness's 4 repeats leave the median of W1 to
  // chance (12 repeats still read anywhere from 1.04 to 1.16 for the same code). More repeats of
  // those two workloads only (same harness, same rotation of who goes first), pooled with the
  // first run's as further repeats, give the median something to stand on. W1 gets the most:
  // its target sits a few per cent from where it stands; W1s has room.
  const workloads = (opt('workloads') ?? 'W1,W1s').split(',');
  const extraRuns: [workload: string, repeats: number][] = [
    ['W1', Number(opt('w1-repeats') ?? (QUICK ? 0 : 36))],
    ['W1s', Number(opt('w1s-repeats') ?? (QUICK ? 0 : 8))],
  ];
  for (const [workload, repeats] of extraRuns) {
    if (repeats <= 0 || !workloads.includes(workload)) continue;
    log(`\n== ${repeats} more repeats of ${workload} (pooled with the runs above as further repeats)`);
    const more = await runHarness(['src/run.mjs', '--only', ['fetch', ...ours].join(','), ...contestantArgs, '--workloads', workload, '--repeats', String(repeats)]);
    const moreRel = /^raw: (\S+)$/m.exec(more.out)?.[1];
    if (more.code !== 0 || !moreRel) throw new Error(`the extra ${workload} repeats failed (exit ${more.code}); no raw results`);
    const offset = Math.max(0, ...records.map((r) => r.repeat));
    const extra = (JSON.parse(readFileSync(path.join(SCRATCH, moreRel), 'utf8')) as { records: HarnessRecord[] }).records;
    for (const r of extra) records.push({ ...r, repeat: r.repeat + offset });
  }

  let heapRows: ReturnType<typeof parseHeap> = [];
  if (!flag('no-heap')) {
    log('\n== harness heap check: map() over 1,000 new items per round, heap after a full GC');
    // heap-growth.mjs loads src/contestants/<name>.mjs, which is where the bundles are.
    const heap = await runHarness(['src/heap-growth.mjs', '--only', ['fetch', ...ours].join(','), '--rounds', QUICK ? '4' : '10']);
    heapRows = parseHeap(heap.out);
  }

  let w1Cpu: { fetch: number; ours: number }[] = [];
  if (!flag('no-cpu')) {
    log('\n== W1 by CPU time: the floor and our engine in one process, interleaved (see scripts/bench/w1-cpu.ts)');
    writeFileSync(path.join(SCRATCH, 'src/w1-cpu.mjs'), W1_CPU_SCRIPT);
    const cpu = await runHarness(['src/w1-cpu.mjs', path.join(SCRATCH, modules.get(OURS) as string), QUICK ? '2' : '8', QUICK ? '5' : '40']);
    w1Cpu = parseW1Cpu(cpu.out);
  }

  log(`\n== Seamscope engine vs the floor — ${QUICK ? 'QUICK (1 repeat, small counts: a smoke test, not figures)' : `${Math.max(0, ...records.map((r) => r.repeat))} repeat(s)`}`);
  log(`raw harness results: ${rawPath}`);
  log('trace recording included: every run goes through runChain with an in-memory run repository; token counting uses a length estimate (the app uses the real tokenizer)');
  printFigures(records, ['fetch', ...ours, ...only.filter((c) => !['fetch', ...ours].includes(c))]);
  log(`\nretry-with-feedback check (harness --check): ${checkSummary}`);
  for (const row of heapRows) {
    // The first rounds warm up (JIT tiers, pools, caches: a one-time step). Retained per-call state
    // raises the floor of the series round after round; a single high reading (a run's trace still
    // referenced at that GC) does not. So compare the lowest reading of three rounds after the
    // warm-up with the lowest of the last three.
    const warm = Math.min(3, Math.floor(row.rounds.length / 2));
    const early = Math.min(...row.rounds.slice(warm, warm + 3));
    const late = Math.min(...row.rounds.slice(-3));
    const growth = late - early;
    log(`heap check ${row.name}: start ${row.start} MB, rounds ${row.rounds.join(' ')} MB → lowest of rounds ${warm + 1}–${Math.min(warm + 3, row.rounds.length)} ${early} MB, of the last 3 ${late} MB: ${growth >= 0 ? '+' : ''}${growth.toFixed(1)} MB${growth > 1 ? '  GROWING' : ' (no growth)'}`);
  }
  const cpuRatios = w1Cpu.map((r) => r.ours / r.fetch);
  const w1CpuRatio = median(cpuRatios);
  if (w1Cpu.length) {
    log(`W1 by CPU time (one process, ${w1Cpu.length} interleaved rounds): floor ${fmt(median(w1Cpu.map((r) => r.fetch)), 3)} ms/step, ours ${fmt(median(w1Cpu.map((r) => r.ours)), 3)} ms/step, ratio ${fmt(w1CpuRatio, 3)} (rounds ${cpuRatios.map((x) => x.toFixed(2)).join(', ')}); ${verdict('w1', w1CpuRatio)}`);
  }
  log(`wall ${((Date.now() - t0) / 1000).toFixed(0)} s`);

  const r = ratiosFor(records, OURS);
  const line = { bench: 'engine', w1: round3(r.w1.median), w1s: round3(r.w1s.median), w2: round3(r.w2.median), w3_throughput: round3(r.w3_throughput.median), w3_memory: round3(r.w3_memory.median), w4: round3(r.w4.median), w1_cpu: round3(w1CpuRatio) };
  log(JSON.stringify(line));
}

main().catch((error: unknown) => {
  process.stderr.write(`bench-engine: ${(error as Error).message}\n`);
  process.exit(1);
});
