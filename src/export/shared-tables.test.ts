import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PLACEHOLDER_PATTERN } from '../chain/template.ts';
import { defaultTransportPolicy } from '../engine/call-model.ts';
import { HALT_STATUS } from '../engine/run.ts';
import { PROVIDER_ERROR_MESSAGES, RETRYABLE_CODES } from '../providers/errors.ts';
import { createScrubber, KEY_SHAPES, MAX_DEPTH, MIN_KEY_LENGTH, REDACTED } from '../providers/scrub.ts';
import { ESTIMATE_UNITS_PER_TOKEN, estimateTokens } from '../providers/tokenizer.ts';
import { FORMAT_SHAPES } from '../schema/format-names.ts';
import { BASE_CHECKS, CHECKS_PER_VALUE } from '../schema/interpret.ts';
import { UNSUPPORTED_KEYWORDS } from '../schema/schema-problems.ts';
import { DATA_FRAMING, feedbackMessage, schemaInstructions } from '../steps/model-prompt.ts';
import { BM25_PARAMS, SEARCH_BOOST, SEARCH_FIELDS, STOP_WORDS } from '../steps/retrieve-search.ts';
import { runProcess } from '../testing/conformance-harness.ts';
import { exportChain, runtimeFiles } from './export-chain.ts';
import { SHARED_TABLES_FILE, sharedTables } from './shared-tables.ts';

/**
 * The Python runtime keeps no copy of the tables it shares with the engine: the export writes
 * them from the TypeScript sources into seamscope_runtime/shared.json, and the runtime's
 * modules read them from there. Here the runtime as exported loads the file, and every table
 * it ends up with equals the engine's value; none of the texts is written in a .py file.
 */
const PROBE = `
import dataclasses, json, re, sys
sys.path.insert(0, ".")
from seamscope_runtime import formats, openai, prompt, retrieval, run, scrub, text, tokens, transport, validate

policy = transport.TransportPolicy()
sys.stdout.write(json.dumps({
    "dataFraming": prompt.DATA_FRAMING,
    "schemaInstructions": prompt.schema_instructions({"type": "object"}),
    "feedback": prompt.feedback_message(["first", "second"]),
    "placeholder": text.PLACEHOLDER.pattern,
    "messages": openai._MESSAGES,
    "retryable": sorted(openai._RETRYABLE),
    "transport": {"maxAttempts": policy.max_attempts, "baseDelayMs": policy.base_delay_ms, "maxDelayMs": policy.max_delay_ms, "timeoutMs": policy.timeout_ms},
    "haltStatus": run._HALT_STATUS,
    "stopWords": sorted(retrieval._STOP_WORDS),
    "boosts": list(retrieval._BOOSTS),
    "bm25": [retrieval._K, retrieval._B, retrieval._D],
    "redacted": scrub.REDACTED,
    "shapes": [[p.pattern, bool(p.flags & re.IGNORECASE), r] for p, r in scrub._SHAPES],
    "minKeyLength": scrub._MIN_KEY_LENGTH,
    "maxDepth": scrub._MAX_DEPTH,
    "scrubbed": scrub.Scrubber("sk-test-shared-key-1234").text(sys.stdin.read()),
    "unsupported": sorted(validate.UNSUPPORTED),
    "checks": [validate.BASE_CHECKS, validate.CHECKS_PER_VALUE],
    "formats": formats._SHAPES,
    "estimate": tokens.estimate_tokens("x" * 41),
}))
`;

const sample = 'Authorization: Bearer abcdefghijk and x-api-key="zyxwvutsrq" and sk-proj-ABCDEFGHIJ and sk-test-shared-key-1234 end';

describe('the tables the Python runtime shares with the engine', () => {
  it('come from the engine\'s TypeScript sources, one data file in every Python export', async () => {
    const tables = sharedTables();
    expect(tables.bm25.stopWords).toEqual([...STOP_WORDS]);
    expect(tables.providerErrors.messages).toEqual(PROVIDER_ERROR_MESSAGES);
    const chain = { format: 'seamscope.chain', version: 1, id: 't', name: 'T', inputs: [{ name: 'q', schema: { type: 'string' } }],
      steps: [{ id: 'o', kind: 'output', name: 'O', config: { bindings: { value: 'inputs.q' } } }] } as never;
    const { files } = await exportChain(chain, { lang: 'py' });
    const shared = files.filter((f) => f.path.endsWith(SHARED_TABLES_FILE));
    expect(shared.map((f) => f.path)).toEqual([`seamscope_runtime/${SHARED_TABLES_FILE}`]);
    expect(JSON.parse(shared[0]?.contents ?? '')).toEqual(JSON.parse(JSON.stringify(tables)));
  });

  it('the Python runtime loads the file, and each table equals the engine\'s value', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'seamscope-shared-'));
    try {
      await mkdir(join(dir, 'seamscope_runtime'));
      for (const [name, contents] of Object.entries(await runtimeFiles('py'))) await writeFile(join(dir, 'seamscope_runtime', name), contents);
      await writeFile(join(dir, 'probe.py'), PROBE);
      await writeFile(join(dir, 'sample.txt'), sample);
      const { stdout, stderr } = await runProcess('bash', ['-c', 'python3 probe.py < sample.txt'], dir, { PYTHONDONTWRITEBYTECODE: '1' });
      expect(stderr).toBe('');
      const got = JSON.parse(stdout) as Record<string, unknown>;
      expect(got).toEqual({
        dataFraming: DATA_FRAMING,
        schemaInstructions: schemaInstructions({ type: 'object' }),
        feedback: feedbackMessage(['first', 'second']),
        placeholder: PLACEHOLDER_PATTERN.source,
        messages: PROVIDER_ERROR_MESSAGES,
        retryable: [...RETRYABLE_CODES].sort(),
        transport: defaultTransportPolicy,
        haltStatus: HALT_STATUS,
        stopWords: [...STOP_WORDS].sort(),
        boosts: SEARCH_FIELDS.map((f) => SEARCH_BOOST[f] ?? 1),
        bm25: [BM25_PARAMS.k, BM25_PARAMS.b, BM25_PARAMS.d],
        redacted: REDACTED,
        shapes: KEY_SHAPES.map(([re, r]) => [re.source, re.flags.includes('i'), r.replace(/\$(\d)/g, '\\$1')]),
        minKeyLength: MIN_KEY_LENGTH,
        maxDepth: MAX_DEPTH,
        scrubbed: createScrubber(['sk-test-shared-key-1234']).text(sample),
        unsupported: [...UNSUPPORTED_KEYWORDS].sort(),
        checks: [BASE_CHECKS, CHECKS_PER_VALUE],
        formats: FORMAT_SHAPES,
        estimate: estimateTokens('x'.repeat(41)),
      });
      expect(ESTIMATE_UNITS_PER_TOKEN).toBe(4);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('no Python module holds a copy of a shared text', () => {
    const folder = new URL('./runtime/py/seamscope_runtime/', import.meta.url);
    const sources = readdirSync(folder).filter((f) => f.endsWith('.py')).map((f) => [f, readFileSync(new URL(f, folder), 'utf8')] as const);
    const texts = [DATA_FRAMING.slice(0, 40), 'Respond with only a JSON object', 'Your previous response was invalid', ...Object.values(PROVIDER_ERROR_MESSAGES),
      'whom why will', 'sk-(?:ant-|proj-)', 'unevaluatedProperties', '"rate_limited", "overloaded"', FORMAT_SHAPES.email as string, '[A-Za-z_][A-Za-z0-9_]*(?:'];
    for (const [name, source] of sources) for (const t of texts) expect(source.includes(t), `${name} holds "${t}"`).toBe(false);
  });
});
