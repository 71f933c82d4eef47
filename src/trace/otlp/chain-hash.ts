import { hashString, stableStringify } from '../../chain/hash.ts';
import type { Chain } from '../../chain/schema.ts';

/**
 * An imported chain's revision (hashValue(chain)) and each step's config hash (hashValue(config)),
 * with each config put into its stable text once: hashing the chain stringified every config a
 * second time, and the configs (the recorded prompts) are most of the chain's text, hashed for
 * every trace the collector writes. The chain's text is the one stableStringify gives, the two
 * outer levels (the chain, its steps) put together here by the same rule, so the hashes are the same.
 */
export interface ChainHashes {
  revision: string;
  /** By step id. */
  configs: Map<string, string>;
}

/** stableStringify's rule for an object: keys sorted by code unit, undefined members left out; `text` gives a member's text. */
function stableObject(record: object, text: (key: string, value: unknown) => string): string {
  const keys = Object.keys(record).sort();
  let out = '{';
  let first = true;
  for (const key of keys) {
    const item: unknown = Reflect.get(record, key);
    if (item === undefined) continue;
    out += `${first ? '' : ','}${JSON.stringify(key)}:${text(key, item)}`;
    first = false;
  }
  return `${out}}`;
}

export function chainHashes(chain: Chain): ChainHashes {
  const configTexts = chain.steps.map((s) => stableStringify(s.config));
  const configs = new Map(chain.steps.map((s, i) => [s.id, hashString(configTexts[i] as string)]));
  const steps = `[${chain.steps.map((s, i) => stableObject(s, (key, value) => (key === 'config' ? configTexts[i] as string : stableStringify(value)))).join(',')}]`;
  const revision = hashString(stableObject(chain, (key, value) => (key === 'steps' ? steps : stableStringify(value))));
  return { revision, configs };
}
