/**
 * The shared canvas harness (../shared/bench/canvas) run from a scratch copy, and the product
 * build it measures. Nothing of the harness lives in this project.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { freePort } from '../../src/testing/free-port.ts';
import path from 'node:path';

export function run(cmd: string, args: string[], opts: { cwd: string; env?: Record<string, string> }): void {
  const r = spawnSync(cmd, args, { cwd: opts.cwd, stdio: 'inherit', env: { ...process.env, ...opts.env } });
  if (r.status !== 0) throw new Error(`${path.basename(cmd)} ${args.join(' ')} exited with ${r.status}`);
}

const lockHash = (dir: string) => createHash('sha256').update(readFileSync(path.join(dir, 'package-lock.json'))).digest('hex');

/** Copies the harness to `scratch` (writable) and runs `npm ci` there when its lockfile changed. */
export function prepareHarness(source: string, scratch: string): void {
  const stamp = path.join(scratch, '.seamscope-lock');
  const wanted = lockHash(source);
  const fresh = existsSync(stamp) && readFileSync(stamp, 'utf8') === wanted && existsSync(path.join(scratch, 'node_modules/playwright-core'));
  if (!fresh) {
    rmSync(scratch, { recursive: true, force: true });
    cpSync(source, scratch, { recursive: true, filter: (p) => !p.includes(`${path.sep}node_modules`) && !p.includes(`${path.sep}dist`) });
    spawnSync('chmod', ['-R', 'u+w', scratch]);
    run('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: scratch });
    writeFileSync(stamp, wanted);
  } else {
    // Keep the harness's scripts and pages current without reinstalling.
    cpSync(source, scratch, { recursive: true, filter: (p) => !p.includes(`${path.sep}node_modules`) && !p.includes(`${path.sep}dist`) && !p.includes(`${path.sep}results`) });
    spawnSync('chmod', ['-R', 'u+w', scratch]);
  }
}

/** The harness's own bare React Flow page (flow.html), built into scratch/dist/app. */
export function buildBarePage(scratch: string): void {
  run(process.execPath, [path.join(scratch, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], { cwd: scratch, env: { BENCH_TARGET: 'app' } });
}


/** `vite preview` of a built folder on 127.0.0.1; resolves once it answers. */
export async function startPreview(root: string, dist: string, port: number): Promise<{ url: string; stop(): void }> {
  const child: ChildProcess = spawn(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'preview', '--outDir', dist, '--host', '127.0.0.1', '--port', String(port), '--strictPort'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(url)).ok) return { url, stop: () => child.kill('SIGTERM') };
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  child.kill('SIGTERM');
  throw new Error(`vite preview did not start on ${url}`);
}
export { freePort };
