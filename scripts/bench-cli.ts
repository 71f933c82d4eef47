/**
 * Benchmark: a cold `seamscope validate` of a demo chain against `node -e 0`, the floor of any
 * Node program, on this machine, in the same run. Prints figures and the ratio against the
 * target (≤ 3×, issue #12); it asserts nothing.
 *
 *   npm run bench:cli [-- --runs 21] [--chain public/demo/<name>.chain.json] [--skip-build]
 *
 * Each run is a new process (cold: nothing cached in Node; the OS file cache is warm after one
 * discarded warm-up run per command). The commands take turns, so slow drift on a shared
 * machine spreads over all of them. Wall time is measured around spawnSync; peak RSS comes from
 * one extra run of each under GNU time (`/usr/bin/time -f %M`), when it is installed.
 *
 * Rows: `node -e 0`; the built CLI (dist-cli/seamscope.mjs, what `bin` runs); and the same
 * command from the TypeScript sources through tsx, as the CLI started before it shipped built.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchOption } from './bench/options.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const argv = process.argv.slice(2);
const opt = (name: string) => benchOption(argv, name);
const RUNS = Math.max(1, Number(opt('runs') ?? 21));
const CHAIN = opt('chain') ?? 'public/demo/summarise-then-answer.chain.json';
const TARGET = 3;
// tsx's loader, as the bin started before the CLI shipped built (resolved from the repository).
const TSX = 'tsx';
const GNU_TIME = '/usr/bin/time';

interface Command {
  name: string;
  args: string[];
}

const commands: Command[] = [
  { name: 'node -e 0', args: ['-e', '0'] },
  { name: 'seamscope validate (dist-cli)', args: [path.join(root, 'dist-cli/seamscope.mjs'), 'validate', CHAIN] },
  { name: 'seamscope validate (sources through tsx)', args: ['--import', TSX, path.join(root, 'src/cli/bin.ts'), 'validate', CHAIN] },
];

function runOnce(args: string[]): number {
  const start = performance.now();
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = performance.now() - start;
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status}: ${String(r.stderr)}`);
  return ms;
}

/** Peak resident set of one run, in MB, or NaN without GNU time. */
function peakRssMb(args: string[]): number {
  if (!existsSync(GNU_TIME)) return Number.NaN;
  const r = spawnSync(GNU_TIME, ['-f', '%M', process.execPath, ...args], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const kb = Number(r.stderr.trim().split('\n').at(-1));
  return r.status === 0 && Number.isFinite(kb) ? kb / 1024 : Number.NaN;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};
const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '—');

if (!argv.includes('--skip-build')) {
  console.log('• building the CLI (npm run build:cli)');
  const r = spawnSync(process.execPath, ['--import', TSX, path.join(root, 'scripts/build-cli.ts')], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

console.log(`• ${RUNS} runs of each, taking turns, after one warm-up run each: validate ${CHAIN}`);
const times = new Map<string, number[]>(commands.map((c) => [c.name, []]));
for (const c of commands) runOnce(c.args);
for (let i = 0; i < RUNS; i++) for (const c of commands) times.get(c.name)?.push(runOnce(c.args));

const floor = median(times.get('node -e 0') ?? []);
const rows = commands.map((c) => {
  const ms = times.get(c.name) ?? [];
  return { name: c.name, median: median(ms), min: Math.min(...ms), max: Math.max(...ms), rss: peakRssMb(c.args) };
});

console.log(`\nCLI cold start: median of ${RUNS} runs, ms (min–max); ratio = median ÷ node -e 0's median; target ≤ ${TARGET}× for the built CLI.\n`);
console.log('| command | median ms | min–max ms | × node -e 0 | peak RSS MB | target | |');
console.log('|---|---|---|---|---|---|---|');
for (const r of rows) {
  const ratio = r.median / floor;
  const isTarget = r.name.includes('dist-cli');
  console.log(`| ${r.name} | ${fmt(r.median)} | ${fmt(r.min)}–${fmt(r.max)} | ${fmt(ratio, 2)}× | ${fmt(r.rss)} | ${isTarget ? `≤ ${TARGET}×` : ''} | ${isTarget ? (ratio <= TARGET ? 'ok' : 'MISSED') : ''} |`);
}
const built = rows[1];
const source = rows[2];
console.log(JSON.stringify({
  bench: 'cli', runs: RUNS, chain: CHAIN, nodeMs: Math.round(floor),
  validateMs: Math.round(built?.median ?? Number.NaN), ratio: Number(((built?.median ?? Number.NaN) / floor).toFixed(2)),
  viaTsxMs: Math.round(source?.median ?? Number.NaN), viaTsxRatio: Number(((source?.median ?? Number.NaN) / floor).toFixed(2)),
  peakRssMb: { node: Math.round(rows[0]?.rss ?? Number.NaN), validate: Math.round(built?.rss ?? Number.NaN), viaTsx: Math.round(source?.rss ?? Number.NaN) },
  targetMet: (built?.median ?? Infinity) / floor <= TARGET,
}));
