import { describe, expect, it } from 'vitest';
import { hashValue } from '../../chain/hash.ts';
import type { Chain } from '../../chain/schema.ts';
import { stepRegistry } from '../../steps/index.ts';
import { readCorpus } from '../../testing/corpus.ts';
import { chainHashes } from './chain-hash.ts';
import { importOtlpTrace } from './import.ts';

/** The imported chain's hashes, each config stringified once, against hashing the chain and each config as a whole. */
const CAPTURES = ['openinference-openai-agents-2025-09-30.otlp.json', 'openllmetry-js-0.27-openai.otlp.json', 'vercel-ai-sdk-v6-openai.otlp.json', 'openinference-openai-js-prompt-template.otlp.json'];

describe('chainHashes', () => {
  for (const name of CAPTURES) {
    it(`gives hashValue's revision and config hashes for ${name}'s chain`, () => {
      const result = importOtlpTrace(readCorpus(`traces/otlp/${name}`), stepRegistry);
      if (!result.ok) throw new Error(result.message);
      const chain = result.run.chain as Chain;
      const hashes = chainHashes(chain);
      expect(hashes.revision).toBe(hashValue(chain));
      expect(result.run.chainRevision).toBe(hashValue(chain));
      expect(chain.steps.length).toBeGreaterThan(0);
      expect([...hashes.configs]).toEqual(chain.steps.map((s) => [s.id, hashValue(s.config)]));
    });
  }

  it('leaves out undefined members and sorts keys as stableStringify does', () => {
    const chain = { format: 'f', version: 1, id: 'c', name: 'n', inputs: [], meta: { b: 1, a: undefined }, steps: [{ id: 's', kind: 'model', name: 'S', position: { y: 0, x: 1 }, config: { z: 'é"\\u2028', a: [1, undefined, null] }, extra: undefined }] };
    const hashes = chainHashes(chain as never);
    expect(hashes.revision).toBe(hashValue(chain));
    expect(hashes.configs.get('s')).toBe(hashValue(chain.steps[0]?.config));
  });
});
