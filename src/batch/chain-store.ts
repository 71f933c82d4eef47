import type { Queue } from 'bullmq';
import { hashString, hashValue } from '../chain/hash.ts';
import { parseChain } from '../chain/parse.ts';
import type { Chain } from '../chain/schema.ts';
import type { EndpointProfile } from '../providers/profile.ts';
import type { StepRegistry } from '../steps/registry.ts';

/**
 * Names in the store, and the chains by content hash. A job names its chain by hash; the
 * chain itself is stored once per batch as a job of its own in a paused queue that no worker
 * serves (`seamscope-chains`, job id `chain-<hash>`): a key-value store made of BullMQ's own
 * API, so it lives in Redis or PostgreSQL alike. A worker reads a chain once, checks that its
 * content hashes to the name it was asked for, and checks it as any chain file is checked.
 */
export const CHAINS_QUEUE = 'seamscope-chains';

/** The endpoint a batch calls, as a key: its queue's name, and what its rate limit belongs to. */
export function profileKey(profile: EndpointProfile): string {
  return hashValue({ kind: profile.kind, baseUrl: profile.baseUrl, model: profile.model, structuredOutput: profile.structuredOutput });
}

/** One queue per endpoint profile, so BullMQ's limiter on it is that endpoint's limit for every worker. */
export const evalQueueName = (key: string) => `seamscope-eval-${key}`;

export const chainHash = (chain: Chain) => hashValue(chain);

const chainJobId = (hash: string) => `chain-${hash}`;
const textJobId = (hash: string) => `text-${hash}`;

/** An input this long travels once per batch, by hash, not once per job (a 50 KB statute × 1,200 items × 5 variants). */
export const SHARED_TEXT_CHARS = 4_096;
export const textHash = (text: string) => hashString(text);

/** Stores each long input text under its hash, beside the chains. */
export async function storeTexts(queue: Queue, texts: ReadonlyMap<string, string>): Promise<void> {
  await queue.pause();
  const jobs = [...texts].map(([hash, text]) => ({ name: 'text', data: { hash, text }, opts: { jobId: textJobId(hash) } }));
  for (let i = 0; i < jobs.length; i += 100) await queue.addBulk(jobs.slice(i, i + 100));
}

/** Reads stored texts by hash for a worker, checking each hashes to its name; the last 64 are kept. */
export function createTextReader(queue: Queue): (hash: string) => Promise<string> {
  const cache = new Map<string, string>();
  return async (hash) => {
    const hit = cache.get(hash);
    if (hit !== undefined) return hit;
    const job = await queue.getJob(textJobId(hash));
    const text: unknown = (job?.data as { text?: unknown } | undefined)?.text;
    if (typeof text !== 'string') throw new ChainNotFound(`input text ${hash} is not in the queue store (was the batch's store cleared?)`);
    if (hashString(text) !== hash) throw new Error(`input text ${hash}: the stored text does not hash to its name; refusing it`);
    cache.set(hash, text);
    if (cache.size > 64) cache.delete(cache.keys().next().value as string);
    return text;
  };
}

/** Stores each chain under its hash (a chain already there is left as it is). */
export async function storeChains(queue: Queue, chains: readonly Chain[]): Promise<void> {
  // Paused, so even a worker someone points at this queue by mistake takes nothing from it.
  await queue.pause();
  const unique = new Map(chains.map((c) => [chainHash(c), c]));
  await queue.addBulk([...unique].map(([hash, chain]) => ({ name: 'chain', data: { hash, text: JSON.stringify(chain) }, opts: { jobId: chainJobId(hash) } })));
}

export class ChainNotFound extends Error {}

/** Reads chains by hash for a worker; each is fetched and checked once per process. */
export function createChainReader(queue: Queue, registry: StepRegistry): (hash: string) => Promise<Chain> {
  const cache = new Map<string, Promise<Chain>>();
  const read = async (hash: string): Promise<Chain> => {
    const job = await queue.getJob(chainJobId(hash));
    const text: unknown = (job?.data as { text?: unknown } | undefined)?.text;
    if (typeof text !== 'string') throw new ChainNotFound(`chain ${hash} is not in the queue store (was the batch's store cleared?)`);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new Error(`chain ${hash}: the stored text is not JSON`);
    }
    if (hashValue(value) !== hash) throw new Error(`chain ${hash}: the stored chain does not hash to its name; refusing it`);
    const parsed = parseChain(value, registry);
    if (!parsed.ok) throw new Error(`chain ${hash}: ${parsed.problems[0]?.path ?? '$'}: ${parsed.problems[0]?.message ?? 'invalid'}`);
    return parsed.chain;
  };
  return (hash) => {
    let found = cache.get(hash);
    if (!found) {
      found = read(hash);
      cache.set(hash, found);
      // A failed read is not cached: the next job asks again.
      found.catch(() => cache.delete(hash));
    }
    return found;
  };
}
