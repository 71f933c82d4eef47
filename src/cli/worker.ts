import { evalQueueName, openBackend, parseQueueUrl, profileKey, startBatchWorker } from '../batch/index.ts';
import { createProviderForProfile, runModelSettings } from '../providers/profiles.ts';
import { stepRegistry } from '../steps/index.ts';
import type { OptionTable, ParsedArgs } from './args.ts';
import type { Io } from './load-chain.ts';
import { allowedWebhookOrigins, profileFromArgs } from './run.ts';
import { createNodeFetch } from './node-fetch.ts';
import { terminalLine } from './terminal-text.ts';

/**
 * `seamscope worker --queue URL`: runs the jobs of `seamscope eval --queue` for one endpoint
 * (the same --endpoint, --model and --protocol as the eval; the demo model without them) until
 * stopped. The API key is this machine's own (SEAMSCOPE_API_KEY, OPENAI_API_KEY or
 * ANTHROPIC_API_KEY) and is sent only to the endpoint named here; a job carries no endpoint and
 * no key. SIGINT or SIGTERM stops taking jobs and lets the running ones finish.
 */
export const workerUsage = `Usage: seamscope worker --queue redis://HOST:PORT[/DB] | postgres://[USER@]HOST[:PORT]/DB [--concurrency N]
                         [--endpoint URL --model M [--protocol openai|anthropic]] [--no-structured-output]
                         [--allow-webhook ORIGIN]... [--lock-ms N]
       Runs the jobs \`seamscope eval --queue\` puts on the queue for this endpoint (the same --endpoint, --model and
       --protocol as the eval; without them the offline demo model). The API key comes from this machine's environment.
       --lock-ms: how long a job stays this worker's between lock renewals (default 30000); a worker that dies
       loses its jobs to the others after about that long.`;
export const workerOptions: OptionTable = {
  queue: 'string', concurrency: 'string', endpoint: 'string', model: 'string', protocol: 'string', 'no-structured-output': 'flag',
  'allow-webhook': 'list', 'lock-ms': 'string', help: 'flag',
};

const whole = (raw: string | true | undefined, fallback: number, min: number, max: number): number | null => {
  if (raw === undefined) return fallback;
  const n = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : NaN;
  return Number.isInteger(n) && n >= min && n <= max ? n : null;
};

export async function workerCommand(args: ParsedArgs, io: Io, stop: Promise<void> = stopSignal()): Promise<number> {
  if (args.options.help !== undefined) return io.out(workerUsage), 0;
  if (typeof args.options.queue !== 'string') return io.err(`worker needs --queue\n${workerUsage}`), 2;
  const parsed = parseQueueUrl(args.options.queue);
  if (!parsed.ok) return io.err(`${parsed.message}\n${workerUsage}`), 2;
  const concurrency = whole(args.options.concurrency, 4, 1, 256);
  if (concurrency === null) return io.err(`--concurrency must be a whole number from 1 to 256\n${workerUsage}`), 2;
  const lockMs = whole(args.options['lock-ms'], 30_000, 1_000, 600_000);
  if (lockMs === null) return io.err(`--lock-ms must be a whole number of milliseconds from 1000 to 600000\n${workerUsage}`), 2;
  const allowEgress = allowedWebhookOrigins(args.lists['allow-webhook'] ?? []);
  const profile = profileFromArgs(args.options);
  const apiKey = io.env.SEAMSCOPE_API_KEY ?? (profile.kind === 'anthropic' ? io.env.ANTHROPIC_API_KEY : io.env.OPENAI_API_KEY);
  const key = profileKey(profile);
  const backend = await openBackend(parsed.target, io.env, { log: (line) => io.err(terminalLine(line)) });
  const worker = startBatchWorker({
    backend, profileKey: key, provider: createProviderForProfile(profile, { apiKey }), model: runModelSettings(profile),
    registry: stepRegistry, concurrency, allowEgress, lockDurationMs: lockMs, fetch: createNodeFetch(), log: (line) => io.err(terminalLine(line)),
  });
  io.err(`worker on ${terminalLine(parsed.target.display)}, queue ${evalQueueName(key)} (${profile.kind === 'demo' ? 'demo model' : terminalLine(`${profile.baseUrl} ${profile.model}`)}), concurrency ${concurrency}`);
  await stop;
  io.err('stopping: finishing the running jobs (signal again to stop at once)');
  await worker.close();
  await backend.close();
  io.err(`stopped: ${worker.completed} job(s) done, ${worker.failed} failed`);
  return 0;
}

function stopSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      // A second signal does not wait (for running jobs, or a queue server that went away):
      // the jobs this worker held go back to the queue once their locks expire.
      const now = () => process.exit(130);
      process.once('SIGINT', now);
      process.once('SIGTERM', now);
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
