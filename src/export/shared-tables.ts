import { PLACEHOLDER_PATTERN } from '../chain/template.ts';
import { defaultTransportPolicy } from '../engine/call-model.ts';
import { HALT_STATUS } from '../engine/run.ts';
import { PROVIDER_ERROR_MESSAGES, RETRYABLE_CODES } from '../providers/errors.ts';
import { KEY_SHAPES, MAX_DEPTH, MIN_KEY_LENGTH, REDACTED } from '../providers/scrub.ts';
import { ESTIMATE_UNITS_PER_TOKEN, LONG_RUN } from '../providers/tokenizer.ts';
import { FORMAT_SHAPES } from '../schema/format-names.ts';
import { BASE_CHECKS, CHECKS_PER_VALUE } from '../schema/interpret.ts';
import { UNSUPPORTED_KEYWORDS } from '../schema/schema-problems.ts';
import { DATA_FRAMING, FEEDBACK, SCHEMA_INSTRUCTIONS } from '../steps/model-prompt.ts';
import { BM25_PARAMS, SEARCH_BOOST, SEARCH_FIELDS, STOP_WORDS } from '../steps/retrieve-search.ts';

/**
 * The tables the Python runtime shares with the engine, taken from the engine's TypeScript
 * sources when a chain is exported and written as one data file beside the runtime
 * (`seamscope_runtime/shared.json`, read by `shared.py`): error codes and their words, the
 * framing and feedback text a prompt carries, BM25's fields, boosts, parameters and stop
 * words, the key shapes the scrubber removes, the schema keywords refused and the formats
 * enforced, the placeholder syntax, transport retry settings and tokenizer settings. The
 * Python modules keep no copy of any of them (runtime-py.test.ts checks each against these).
 */
export const SHARED_TABLES_FILE = 'shared.json';

/** A JavaScript pattern as Python's `re` reads it: the same source (these use no syntax the two spell differently), flags by name. */
function pattern(re: RegExp): { source: string; ignoreCase: boolean } {
  return { source: re.source, ignoreCase: re.flags.includes('i') };
}

export function sharedTables() {
  return {
    format: 'seamscope.shared-tables',
    version: 1,
    prompt: { dataFraming: DATA_FRAMING, schemaInstructions: SCHEMA_INSTRUCTIONS, feedback: { ...FEEDBACK } },
    placeholder: pattern(PLACEHOLDER_PATTERN),
    providerErrors: { messages: { ...PROVIDER_ERROR_MESSAGES }, retryable: [...RETRYABLE_CODES] },
    transport: { ...defaultTransportPolicy },
    haltStatus: { ...HALT_STATUS },
    bm25: { fields: [...SEARCH_FIELDS], boost: { ...SEARCH_BOOST }, ...BM25_PARAMS, stopWords: [...STOP_WORDS] },
    scrub: {
      redacted: REDACTED, minKeyLength: MIN_KEY_LENGTH, maxDepth: MAX_DEPTH,
      // `$1` in a JavaScript replacement is `\1` in Python's.
      shapes: KEY_SHAPES.map(([re, replacement]) => ({ ...pattern(re), replacement: replacement.replace(/\$(\d)/g, '\\$1') })),
    },
    schema: { unsupportedKeywords: [...UNSUPPORTED_KEYWORDS], formats: { ...FORMAT_SHAPES }, baseChecks: BASE_CHECKS, checksPerValue: CHECKS_PER_VALUE },
    // The engine counts with gpt-tokenizer's o200k_base; its rough estimate is this many UTF-16 units a token.
    // Runs of non-space characters at least this many UTF-16 units long are counted in pieces of this size.
    tokenizer: { encoding: 'o200k_base', estimateUnitsPerToken: ESTIMATE_UNITS_PER_TOKEN, longRun: LONG_RUN },
  };
}

export type SharedTables = ReturnType<typeof sharedTables>;

/** The data file's contents. */
export function sharedTablesJson(): string {
  return `${JSON.stringify(sharedTables(), null, 2)}\n`;
}
