import { createFileRunRepository } from './file-run-repository.ts';
import { runB2Chain } from './b2-chain.ts';
import type { Protocol } from './endpoints.ts';

/**
 * The process B2 kills with SIGKILL: runs the B2 chain against the parent's mock, storing its
 * trace on disk. Arguments: <mock url> <folder> <run id> <protocol> <stream 0|1>.
 */
const [url, folder, runId, protocol, stream] = process.argv.slice(2);
if (!url || !folder || !runId) {
  process.stderr.write('usage: b2-child <mock url> <folder> <run id> <protocol> <stream 0|1>\n');
  process.exit(2);
}
const meta = await runB2Chain({ protocol: (protocol as Protocol) ?? 'openai', url, repo: createFileRunRepository(folder), stream: stream === '1', runId });
// Reaching here means the parent did not kill us in time: it reports the case as not interrupted.
process.stdout.write(`${meta.status}\n`);
