import { fstatSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { CONTROL_TOKEN_HEADER, createMockModelServer } from './mock-server.ts';

/**
 * `npm run mock`: the mock model server as a process, for the browser app and e2e tests.
 * It must never outlive whoever started it: it exits on SIGTERM/SIGINT, when its parent
 * process disappears, when a piped stdin closes, and (with --idle-exit) when unused.
 */

const USAGE = `Usage: npm run mock -- [--port 8787] [--api-key KEY] [--idle-exit MS] [--control-token TOKEN]

  --port           port on 127.0.0.1 (default 8787; 0 picks a free one)
  --api-key        require this key (Authorization: Bearer / x-api-key); default: accept any
  --idle-exit      exit after this many ms without a request in flight
  --control-token  the token the /__mock/* control routes require (header x-mock-control-token);
                   default: $SEAMSCOPE_MOCK_CONTROL_TOKEN, else a random one printed at start`;

function parsePositiveInt(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) {
    console.error(`${name} must be a whole number, got ${JSON.stringify(value)}\n\n${USAGE}`);
    process.exit(2);
  }
  return n;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Our parent and up to `depth - 1` of its ancestors (Linux /proc; elsewhere just the parent), never init. */
function ancestorPids(parent: number, depth: number): number[] {
  const pids = [parent];
  let pid = parent;
  while (pids.length < depth) {
    let next = 0;
    try {
      // /proc/<pid>/stat: "pid (comm) state ppid …"; comm may contain spaces, so cut after ')'.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      next = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    } catch {
      break;
    }
    if (!Number.isInteger(next) || next <= 1) break;
    pids.push(next);
    pid = next;
  }
  return pids;
}

async function main(): Promise<void> {
  // When the parent dies, our stdout pipe dies with it: a log line must not crash the exit path.
  process.stdout.on('error', () => undefined);
  process.stderr.on('error', () => undefined);
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      'api-key': { type: 'string' },
      'idle-exit': { type: 'string' },
      'control-token': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const server = await createMockModelServer({
    port: parsePositiveInt(values.port, '--port') ?? 8787,
    apiKey: values['api-key'],
    idleExitMs: parsePositiveInt(values['idle-exit'], '--idle-exit') || undefined,
    // From the harness that started us (the Playwright config sets the variable), so it can script us.
    controlToken: values['control-token'] || process.env.SEAMSCOPE_MOCK_CONTROL_TOKEN || undefined,
  });
  console.log(`Mock model server listening on ${server.url}`);
  console.log(`  OpenAI-compatible base URL: ${server.url}/v1`);
  console.log(`  Anthropic base URL:         ${server.url}`);
  console.log(`  Control API: POST ${server.url}/__mock/enqueue, GET ${server.url}/__mock/requests, POST ${server.url}/__mock/reset`);
  // A test credential for this process only, printed so whoever started it can script it.
  console.log(`  Control token (header ${CONTROL_TOKEN_HEADER}): ${server.controlToken}`);

  let stopping = false;
  const stop = (why: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`Mock model server stopping (${why})`);
    void server.close().then(() => process.exit(0));
    // Should close() ever stall, do not linger anyway.
    setTimeout(() => process.exit(0), 2000).unref();
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
  void server.closed.then(() => {
    console.log('Mock model server closed');
    process.exit(0);
  });

  // Parent gone: `npm run mock` runs us under npm → sh → tsx, so the process that matters
  // (a test runner, a terminal) is a few levels up. Watch those ancestors, not just ppid.
  const ancestors = ancestorPids(process.ppid, 4);
  setInterval(() => {
    if (process.ppid !== ancestors[0] || !ancestors.every(isAlive)) stop('parent process exited');
  }, 1000).unref();

  // Only a pipe means "my parent holds the other end"; /dev/null or a TTY would end at once
  // or never, so they are not watched.
  if (fstatSync(0).isFIFO()) {
    process.stdin.on('end', () => stop('stdin closed'));
    process.stdin.resume();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
