import { fstatSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createMockModelServer } from './mock-server.ts';

/**
 * `npm run mock`: the mock model server as a process, for the browser app and e2e tests.
 * It must never outlive whoever started it: it exits on SIGTERM/SIGINT, when its parent
 * process disappears, when a piped stdin closes, and (with --idle-exit) when unused.
 */

const USAGE = `Usage: npm run mock -- [--port 8787] [--api-key KEY] [--idle-exit MS]

  --port       port on 127.0.0.1 (default 8787; 0 picks a free one)
  --api-key    require this key (Authorization: Bearer / x-api-key); default: accept any
  --idle-exit  exit after this many ms without a request in flight`;

function parsePositiveInt(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) {
    console.error(`${name} must be a whole number, got ${JSON.stringify(value)}\n\n${USAGE}`);
    process.exit(2);
  }
  return n;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      'api-key': { type: 'string' },
      'idle-exit': { type: 'string' },
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
  });
  console.log(`Mock model server listening on ${server.url}`);
  console.log(`  OpenAI-compatible base URL: ${server.url}/v1`);
  console.log(`  Anthropic base URL:         ${server.url}`);
  console.log(`  Control API: POST ${server.url}/__mock/enqueue, GET ${server.url}/__mock/requests, POST ${server.url}/__mock/reset`);

  const stop = (why: string) => {
    console.log(`Mock model server stopping (${why})`);
    void server.close().then(() => process.exit(0));
    // Should close() ever stall, do not linger anyway.
    setTimeout(() => process.exit(0), 2000).unref();
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
  void server.closed.then(() => process.exit(0));

  // Parent gone: we were re-parented (ppid changes) or the old parent no longer exists.
  const parent = process.ppid;
  setInterval(() => {
    let alive = process.ppid === parent;
    if (alive) {
      try {
        process.kill(parent, 0);
      } catch (err) {
        alive = (err as NodeJS.ErrnoException).code === 'EPERM';
      }
    }
    if (!alive) stop('parent process exited');
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
