import { CST, isScalar, Lexer, parseDocument, visit, type Document } from 'yaml';

/**
 * A strict YAML reader for files that arrive from elsewhere (Prompt flow, promptfoo and Dify
 * files), held to the limits of the strict JSON reader beside it.
 *
 * YAML can say much more than JSON, and a shared file must not use most of it: an alias
 * expands a value many times (a few hundred bytes of "billion laughs" become gigabytes), a tag
 * asks the reader to build a typed object (`!!js/function`, `!!binary`, `!python/object`), a key
 * written twice silently wins, and nesting deep enough exhausts the stack of any reader that
 * recurses. This one reads only the YAML 1.2 core schema (plain maps, lists, strings, numbers,
 * booleans and null), refuses any explicit tag, refuses duplicate keys, caps alias expansion,
 * bounds the nesting depth before the document is built (a linear lexer pass, so a deep file
 * is refused before anything recurses), caps the size, and reads exactly one document. Merge
 * keys (`<<`) are off: `<<` is an ordinary key. Never throws; a refusal names the file, the line
 * and the column.
 */

export type StrictYamlErrorCode = 'syntax' | 'duplicate-key' | 'tag' | 'alias' | 'depth' | 'size' | 'non-finite';

export type StrictYamlResult =
  | { ok: true; value: unknown }
  | { ok: false; code: StrictYamlErrorCode; message: string; line: number; column: number };

export interface StrictYamlOptions {
  /** The file's path or name, to begin each message with (as the CLI and the Library show it). */
  fileName?: string;
  /** Largest text accepted, in UTF-16 code units (default 2 MiB: YAML configs are small). */
  maxBytes?: number;
  /** Deepest nesting of maps and lists accepted (default 256). */
  maxDepth?: number;
  /** Most alias nodes resolved while building the value (default 100). */
  maxAliasCount?: number;
}

export const MAX_YAML_BYTES = 2 * 1024 * 1024;
const DEFAULT_MAX_DEPTH = 256;
const DEFAULT_MAX_ALIAS_COUNT = 100;

/** Lexer tokens that mark a context and are not text of the source (so they take no column). */
const MARKERS = new Set(['\u0002', '\u0018', '\u001f']);

interface Place { line: number; column: number }

function placeOf(text: string, offset: number): Place {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: offset - start + 1 };
}

/**
 * Where the nesting first goes deeper than `maxDepth`, or null. An upper bound, from the lexer's
 * tokens alone (linear, no recursion): the open flow brackets, plus on each line its indentation
 * and its block indicators (`-`, `?`, `:`), each of which can open one level at most.
 */
function tooDeepAt(text: string, maxDepth: number): number | null {
  let offset = 0;
  let flow = 0;
  let line = 0;
  for (const token of new Lexer().lex(text)) {
    const at = offset;
    if (!(token.length === 1 && MARKERS.has(token))) offset += token.length;
    // A line break, or a scalar or comment that spans lines (block scalar text ends with its own
    // breaks, and the lexer calls it "space" by its first character), starts a new line.
    if (token.includes('\n')) line = 0;
    else {
      switch (CST.tokenType(token)) {
        case 'flow-seq-start': case 'flow-map-start': flow++; break;
        case 'flow-seq-end': case 'flow-map-end': flow = Math.max(0, flow - 1); break;
        case 'space': line += token.length; break;
        case 'seq-item-ind': case 'explicit-key-ind': case 'map-value-ind': line++; break;
        default: break;
      }
    }
    if (flow + line > maxDepth) return at;
  }
  return null;
}

/** Which limit a YAML error code is, for the callers that word their own limits. */
function codeOf(yamlCode: string): StrictYamlErrorCode {
  if (yamlCode === 'DUPLICATE_KEY') return 'duplicate-key';
  if (yamlCode === 'TAG_RESOLVE_FAILED' || yamlCode === 'BAD_COLLECTION_TYPE') return 'tag';
  if (yamlCode === 'RESOURCE_EXHAUSTION') return 'depth';
  return 'syntax';
}

/**
 * The first node a shared file must not hold, with where it is: an explicit tag (`!foo`,
 * `!!binary`, even `!!str`) or a number that is not finite (`.inf`, `.nan`: no schema means one).
 */
function firstRefusedNode(doc: Document): { code: StrictYamlErrorCode; message: string; offset: number } | null {
  let found: { code: StrictYamlErrorCode; message: string; offset: number } | null = null;
  visit(doc, {
    Node(_key, node) {
      const offset = node.range?.[0] ?? 0;
      if (node.tag !== undefined) found = { code: 'tag', message: `the tag ${shortTag(node.tag)} is not read: only plain maps, lists, strings, numbers, booleans and null are (a tag asks the reader to build a typed value)`, offset };
      else if (isScalar(node) && typeof node.value === 'number' && !Number.isFinite(node.value)) found = { code: 'non-finite', message: `the number ${String(node.source ?? node.value)} is not finite`, offset };
      return found ? visit.BREAK : undefined;
    },
  });
  return found;
}

/** `!!binary` for `tag:yaml.org,2002:binary`: the tag as it was likely written. */
const shortTag = (tag: string) => tag.replace(/^tag:yaml\.org,2002:/, '!!');

/**
 * Reads YAML text strictly: one document of the core schema, no tags, no duplicate keys, few
 * aliases, bounded size and depth.
 *
 * @example
 * const read = parseStrictYaml('a: 1\na: 2', { fileName: 'flow.dag.yaml' });
 * // { ok: false, code: 'duplicate-key', message: 'flow.dag.yaml:2:1: the key "a" appears twice in the same map', line: 2, column: 1 }
 */
export function parseStrictYaml(text: string, options: StrictYamlOptions = {}): StrictYamlResult {
  const maxBytes = options.maxBytes ?? MAX_YAML_BYTES;
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  const maxAliasCount = options.maxAliasCount ?? DEFAULT_MAX_ALIAS_COUNT;
  const prefix = options.fileName ? `${options.fileName}:` : '';
  const refuse = (code: StrictYamlErrorCode, message: string, offset: number): StrictYamlResult => {
    const { line, column } = placeOf(text, offset);
    return { ok: false, code, message: `${prefix}${line}:${column}: ${message}`, line, column };
  };

  if (text.length > maxBytes) return refuse('size', `the file is ${text.length} characters, more than the ${maxBytes} a YAML file may be`, 0);
  const deep = tooDeepAt(text, maxDepth);
  if (deep !== null) return refuse('depth', `nesting is deeper than ${maxDepth} levels`, deep);

  let doc: Document;
  try {
    doc = parseDocument(text, { schema: 'core', merge: false, uniqueKeys: true, strict: true, prettyErrors: false });
  } catch (error) {
    // The depth bound above keeps the composer's recursion short; this is a last guard.
    return refuse('syntax', `the YAML could not be read (${error instanceof Error ? error.message : String(error)})`, 0);
  }
  const error = doc.errors[0];
  if (error) {
    const code = codeOf(error.code);
    const key = text.slice(error.pos[0], Math.min(error.pos[1], error.pos[0] + 80)).trim();
    const message = code === 'duplicate-key' ? `the key ${JSON.stringify(key)} appears twice in the same map` : error.message;
    return refuse(code, message, error.pos[0]);
  }
  const refused = firstRefusedNode(doc);
  if (refused) return refuse(refused.code, refused.message, refused.offset);
  const warning = doc.warnings[0];
  if (warning) return refuse(codeOf(warning.code), warning.message, warning.pos[0]);

  try {
    return { ok: true, value: doc.toJS({ maxAliasCount }) };
  } catch (caught) {
    // toJS throws for an alias expanded too often, and for one that names no anchor.
    const message = caught instanceof Error ? caught.message : String(caught);
    const excessive = /alias count/i.test(message);
    return refuse(excessive ? 'alias' : 'syntax', excessive ? `aliases expand to more than ${maxAliasCount} copies (a YAML alias bomb)` : message, 0);
  }
}
