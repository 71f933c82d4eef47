/**
 * W1 by CPU time, for a shared machine: the harness times W1 by the wall clock, each contestant
 * in its own process one after the other, ten chains each, so another engineer's build landing
 * in one of them moves the ratio by tens of percent either way. Here the floor and our engine
 * run in ONE process against the harness's mock (its own process), interleaved round by round,
 * and each is charged the CPU time this process spent on its chains (what the engine adds over
 * the floor is CPU work: the wait for the mock is the same for both and is not counted).
 * bench-engine.ts writes this script into the harness's scratch copy and runs it there.
 */
export const W1_CPU_SCRIPT = String.raw`
import { spawn } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
const [ours, roundsArg, itersArg] = process.argv.slice(2);
const rounds = Number(roundsArg), iters = Number(itersArg);
const { SPEC } = await import('./lib/spec.mjs');
const mock = spawn(process.execPath, [path.join(import.meta.dirname, 'mock-server.mjs'), '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
const url = await new Promise((resolve) => {
  let out = '';
  mock.stdout.on('data', (d) => { out += d; const m = /MOCK_LISTENING (\d+)/.exec(out); if (m) resolve('http://127.0.0.1:' + m[1]); });
});
const env = { baseURL: url + '/lat/0/v1', apiKey: 'sk-mock-not-a-key', model: SPEC.MODEL, stream: false, spec: SPEC };
const engines = {
  fetch: await (await import('./contestants/fetch.mjs')).default(env),
  ours: await (await import(pathToFileURL(path.resolve(ours)).href)).default(env),
};
const steps = SPEC.W1.steps.length;
for (const e of Object.values(engines)) for (let i = 0; i < 20; i++) await e.sequential(SPEC.W1.input);
const rows = [];
// Each round runs both sides in both orders (floor, ours, ours, floor; the next round the other
// way round): whichever side runs first after a switch pays more (caches, the other side's GC
// debt), so a round that ran each side once in one order read 0.8 and 1.5 by turns.
for (let r = 0; r < rounds; r++) {
  const cpu = { fetch: 0, ours: 0 };
  for (const k of r % 2 ? ['ours', 'fetch', 'fetch', 'ours'] : ['fetch', 'ours', 'ours', 'fetch']) {
    const c0 = process.cpuUsage();
    for (let i = 0; i < iters; i++) await engines[k].sequential(SPEC.W1.input);
    const c = process.cpuUsage(c0);
    cpu[k] += c.user + c.system;
  }
  rows.push({ fetch: cpu.fetch / 1000 / (2 * iters) / steps, ours: cpu.ours / 1000 / (2 * iters) / steps });
}
mock.kill();
process.stdout.write('W1CPU ' + JSON.stringify(rows) + '\n');
process.exit(0);
`;

/** Per round: CPU ms per step of the floor and of ours, from the script's last line. */
export function parseW1Cpu(out: string): { fetch: number; ours: number }[] {
  const line = out.split('\n').find((l) => l.startsWith('W1CPU '));
  return line ? (JSON.parse(line.slice('W1CPU '.length)) as { fetch: number; ours: number }[]) : [];
}
