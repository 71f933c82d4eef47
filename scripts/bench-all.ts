/**
 * `npm run bench`: every bench in turn, then one table of each headline figure against its
 * target (scripts/bench/headlines.ts) and one JSON line, so a regression shows at a glance.
 * Each bench's own output goes to a log file; the terminal gets a line per bench. Timings stay
 * out of tests: this prints figures and exits 0 whatever they are (1 only when a bench broke).
 * Run it on a quiet machine: a test suite on the same cores halves the figures.
 *
 *   npm run bench [-- --only engine,scale] [--skip canvas] [--log-dir /tmp/seamscope-bench]
 *
 * The benches and what they take (see the README for each): engine (the peer harness in
 * ../shared/bench/peers), scale, canvas (the harness in ../shared/bench/canvas and Chromium),
 * cli, eval, batch (redis-server, and PostgreSQL 15 for its second round), survival, inspect.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { benchLines, headlines, met, targetText, type BenchLine } from './bench/headlines.ts';
import { benchOption } from './bench/options.ts';

const BENCHES: { name: string; args: string[] }[] = [
  { name: 'engine', args: [] },
  { name: 'scale', args: [] },
  { name: 'canvas', args: [] },
  { name: 'cli', args: [] },
  { name: 'eval', args: [] },
  { name: 'batch', args: [] },
  { name: 'collect', args: [] },
  { name: 'survival', args: ['--json'] },
  { name: 'inspect', args: [] },
];

const argv = process.argv.slice(2);
const list = (name: string) => (benchOption(argv, name) ?? '').split(',').map((s) => s.trim()).filter(Boolean);
const only = list('only');
const skip = new Set(list('skip'));
const logDir = benchOption(argv, 'log-dir') ?? '/tmp/seamscope-bench';

function runBench(name: string, args: string[], log: string): Promise<{ code: number; output: string; seconds: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', `bench:${name}`, ...(args.length ? ['--', ...args] : [])], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    child.on('close', (code) => {
      writeFileSync(log, output);
      resolve({ code: code ?? 1, output, seconds: (performance.now() - started) / 1000 });
    });
  });
}

async function main(): Promise<void> {
  mkdirSync(logDir, { recursive: true });
  const lines: BenchLine[] = [];
  const broken: string[] = [];
  for (const bench of BENCHES) {
    if ((only.length && !only.includes(bench.name)) || skip.has(bench.name)) continue;
    const log = path.join(logDir, `${bench.name}.log`);
    process.stdout.write(`• bench:${bench.name} … `);
    const { code, output, seconds } = await runBench(bench.name, bench.args, log);
    const found = benchLines(output);
    lines.push(...found);
    if (code !== 0 || found.length === 0) broken.push(bench.name);
    console.log(`${code === 0 ? 'done' : `exit ${code}`} in ${seconds.toFixed(0)} s (${log})`);
  }
  const rows = headlines(lines);
  const fmt = (v: number | null) => (v === null ? '—' : Math.abs(v) >= 100 ? v.toFixed(0) : v.toFixed(v < 1 ? 3 : 2));
  console.log('\n| bench | figure | value | target | |');
  console.log('|---|---|---|---|---|');
  for (const h of rows) {
    const verdict = met(h);
    console.log(`| ${h.bench} | ${h.figure} | ${fmt(h.value)} | ${targetText(h)} | ${verdict === null ? 'NOT MEASURED' : verdict ? 'ok' : 'MISSED'} |`);
  }
  if (broken.length) console.log(`\nbroken (no figures, or a non-zero exit): ${broken.join(', ')}; see ${logDir}`);
  const missed = rows.filter((h) => met(h) === false).length;
  console.log(`\n${rows.length - missed - rows.filter((h) => met(h) === null).length} of ${rows.length} figures within target; ${missed} missed.`);
  console.log(JSON.stringify({ bench: 'all', at: new Date().toISOString(), broken, figures: rows.map((h) => ({ bench: h.bench, figure: h.figure, value: h.value, target: targetText(h), met: met(h) })) }));
  process.exitCode = broken.length ? 1 : 0;
}

await main();
