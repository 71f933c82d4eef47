/**
 * Benchmark: the per-call cost of validating the peer benchmark's W1 step answer, each way in a
 * fresh process (W1 is measured from the 11th run of a fresh process, so the early calls, run
 * while most of the code is still in V8's interpreter, are the ones that count). Prints figures;
 * it asserts nothing.
 *
 *   npx tsx scripts/bench-schema.ts [--processes N] [--calls N] [--modes interpret,checker,compiled]
 *
 * The children run this file bundled by esbuild under plain Node (as the benchmark's contestant
 * is): under tsx, its loader's own optimising compiles ran beside the timed calls.
 *
 * Modes (one child process each, N times, interleaved; the median per figure is printed):
 * - `interpret`: interpret(schema, value), the walk the checker made on every call before;
 * - `checker`: createSchemaChecker()(schema, value), what the engine calls (compiled when it can);
 * - `compiled`: the compiled validity function alone.
 * Each call gets its own parsed value (as each model answer is), parsed before the clock starts
 * and moved out of the young generation (two full GCs), so that a scavenge during the timed
 * calls does not copy 10,000 values. Times are the process's CPU time (user + system: V8's
 * optimising compiles on other threads included), which a loaded machine disturbs less than the
 * wall clock; the wall clock is printed too.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const MODES = ['interpret', 'checker', 'compiled'] as const;
type Mode = (typeof MODES)[number];

// The peer harness's W1 stepSchema (../shared/bench/peers/src/lib/spec.mjs) and the answer its mock sends.
const stepSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['step', 'title', 'summary', 'keywords', 'confidence', 'next_action'],
  properties: {
    step: { type: 'integer', minimum: 1 },
    title: { type: 'string', minLength: 1 },
    summary: { type: 'string', minLength: 1 },
    keywords: { type: 'array', items: { type: 'string' }, minItems: 1 },
    confidence: { type: 'number', minimum: 0, maximum: 1 },
    next_action: { type: 'string', enum: ['refine', 'expand', 'stop'] },
  },
};
const answer = JSON.stringify({
  step: 3, title: 'lorem ipsum dolor sit', summary: 'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua ut enim ad minim veniam quis',
  keywords: ['alpha beta gamma delta', 'beta gamma delta epsilon', 'gamma delta epsilon zeta'], confidence: 0.75, next_action: 'refine',
});
/** Call ranges reported: the first 100, the rest of the first 400, and the steady state after. */
const RANGES: [number, number][] = [[0, 100], [100, 400], [400, Infinity]];

async function child(mode: Mode, calls: number): Promise<void> {
  const values = Array.from({ length: calls }, () => JSON.parse(answer) as unknown);
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run the child with --expose-gc');
  gc();
  gc();
  let call: (value: unknown) => boolean;
  if (mode === 'interpret') {
    const { interpret } = await import('../src/schema/interpret.ts');
    call = (value) => interpret(stepSchema, value).length === 0;
  } else if (mode === 'checker') {
    const { createSchemaChecker } = await import('../src/schema/checker.ts');
    const check = createSchemaChecker();
    call = (value) => check(stepSchema, value).length === 0;
  } else {
    const { compileValidity } = await import('../src/schema/compile.ts');
    const valid = compileValidity(stepSchema);
    if (!valid) throw new Error('the step schema did not compile');
    call = valid;
  }
  const cpu: number[] = [];
  const wall: number[] = [];
  for (const [from, to] of RANGES) {
    const end = Math.min(to, calls);
    const start = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    for (let i = from; i < end; i++) if (!call(values[i])) throw new Error('the answer did not validate');
    wall.push(Number(process.hrtime.bigint() - t0) / (end - from));
    const used = process.cpuUsage(start);
    cpu.push(((used.user + used.system) * 1000) / (end - from));
  }
  process.stdout.write(`${JSON.stringify({ cpu, wall })}\n`);
}

const BUNDLE = '/tmp/seamscope-bench-schema.mjs';

async function parent(processes: number, calls: number, modes: readonly Mode[]): Promise<void> {
  const { build } = await import('esbuild');
  await build({ entryPoints: [fileURLToPath(import.meta.url)], bundle: true, external: ['esbuild'], platform: 'node', format: 'esm', target: 'node20', outfile: BUNDLE, logLevel: 'warning' });
  const runs: Record<Mode, { cpu: number[]; wall: number[] }[]> = { interpret: [], checker: [], compiled: [] };
  for (let p = 0; p < processes; p++) {
    for (const mode of modes) {
      const r = spawnSync(process.execPath, ['--expose-gc', BUNDLE, '--child', mode, '--calls', String(calls)], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`${mode}: ${r.stderr}`);
      runs[mode].push(JSON.parse(r.stdout.trim().split('\n').pop() as string) as { cpu: number[]; wall: number[] });
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
  const labels = RANGES.map(([from, to]) => `calls ${from + 1}-${to === Infinity ? calls : to}`);
  for (const clock of ['cpu', 'wall'] as const) {
    console.log(`ns of ${clock === 'cpu' ? 'CPU' : 'wall-clock time'} per call, median of ${processes} fresh processes (${calls} calls each)`);
    console.log(['mode'.padEnd(10), ...labels.map((l) => l.padStart(16))].join(''));
    for (const mode of modes) {
      console.log([mode.padEnd(10), ...RANGES.map((_, i) => median(runs[mode].map((r) => r[clock][i] as number)).toFixed(0).padStart(16))].join(''));
    }
  }
}

const argv = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = argv.indexOf(name);
  return i >= 0 ? Number(argv[i + 1]) : fallback;
};
const calls = option('--calls', 10_000);
if (argv[0] === '--child') await child(argv[1] as Mode, calls);
else {
  const i = argv.indexOf('--modes');
  await parent(option('--processes', 5), calls, i >= 0 ? (argv[i + 1] as string).split(',') as Mode[] : MODES);
}
