import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * The seamscope CLI as a process of its own, from the TypeScript sources (node --import tsx:
 * one process, so a kill -9 kills the CLI itself, not a launcher in front of it). For the
 * tests that kill a worker or a coordinator mid-batch. Every process started here is killed
 * when the test process exits.
 */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface CliProcess {
  child: ChildProcess;
  /** Everything written to stderr and stdout so far. */
  readonly err: string;
  readonly out: string;
  /** Resolves when stderr has shown `pattern`; rejects if the process ends first. */
  waitFor(pattern: RegExp): Promise<void>;
  exit: Promise<number | null>;
}

const started = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of started) child.kill('SIGKILL');
});

export function startCli(args: readonly string[], env: Record<string, string> = {}): CliProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', ...args], {
    cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'],
    // Only what the CLI needs: no key of the test runner's own environment leaks into the child.
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
  });
  started.add(child);
  let err = '';
  let out = '';
  const waiters: { pattern: RegExp; resolve: () => void }[] = [];
  child.stderr?.on('data', (d: Buffer) => {
    err += d.toString();
    for (const w of waiters.splice(0)) if (w.pattern.test(err)) w.resolve(); else waiters.push(w);
  });
  child.stdout?.on('data', (d: Buffer) => void (out += d.toString()));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => (started.delete(child), resolve(code))));
  return {
    child,
    get err() { return err; },
    get out() { return out; },
    waitFor: (pattern) => new Promise<void>((resolve, reject) => {
      if (pattern.test(err)) return resolve();
      waiters.push({ pattern, resolve });
      void exit.then(() => reject(new Error(`the CLI exited before printing ${pattern}:\n${err}`)));
    }),
    exit,
  };
}
