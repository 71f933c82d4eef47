import { parseStrictJson } from '../files/strict-json.ts';
import { parseStrictYaml } from '../files/strict-yaml.ts';
import { checkRelativePath } from '../files/relative-path.ts';
import type { ChainFormatContext } from './format.ts';

/**
 * The files a promptfoo config names with `file://` (prompts, tests), read from the config's own
 * folder only: the name must pass the shared relative-path check here (no `..`, nothing absolute,
 * no scheme), and `ctx.readSibling` (the CLI's) resolves real paths, so a link out of the folder
 * is refused too. Where one file is read alone (the Library) there is no reader, and the file
 * is refused by name. Globs and code (`.js`, `.py`, `file.py:fn`) are refused: an import never runs code.
 */

export type SiblingRead<T> = { ok: true; value: T; file: string } | { ok: false; problem: string };

const CODE = /\.(js|cjs|mjs|ts|py)(:.*)?$/i;

function readNamed(ref: string, ctx: Pick<ChainFormatContext, 'readSibling'>): SiblingRead<string> {
  const file = ref.slice('file://'.length);
  if (/[*?[\]{}]/.test(file)) return { ok: false, problem: `${ref} is a glob: name each file` };
  if (CODE.test(file)) return { ok: false, problem: `${ref} is code, which an import never runs` };
  const check = checkRelativePath(file);
  if (!check.ok) return { ok: false, problem: `${ref} is refused: ${check.reason}; only files inside the config's own folder are read` };
  if (!ctx.readSibling) return { ok: false, problem: `${ref} is a file beside the config: this import reads the config alone (import it with the CLI, which reads its folder)` };
  const read = ctx.readSibling(check.path);
  return typeof read === 'string' ? { ok: true, value: read, file: check.path } : { ok: false, problem: `${ref} is not read: ${read.error}` };
}

/** A structured file's value (.json strictly, .yaml/.yml strictly), or why not. */
function readValue(ref: string, ctx: Pick<ChainFormatContext, 'readSibling'>): SiblingRead<unknown> {
  const read = readNamed(ref, ctx);
  if (!read.ok) return read;
  if (/\.json$/i.test(read.file)) {
    const parsed = parseStrictJson(read.value);
    return parsed.ok ? { ok: true, value: parsed.value, file: read.file } : { ok: false, problem: `${ref} is not read: ${parsed.message}` };
  }
  if (/\.ya?ml$/i.test(read.file)) {
    const parsed = parseStrictYaml(read.value, { fileName: read.file });
    return parsed.ok ? { ok: true, value: parsed.value, file: read.file } : { ok: false, problem: `${ref} is not read: ${parsed.message}` };
  }
  return { ok: false, problem: `${ref} is neither .json nor .yaml (a .csv of tests is not imported yet)` };
}

/**
 * The prompts a `file://` prompt names: a .txt or .md file is one prompt per part between lines
 * of `---` (promptfoo's separator); a .json file is a list of chat messages; a .yaml file a list
 * of them too. Each comes back as promptfoo would send it: raw text, or messages.
 */
export type PromptSource = { kind: 'text'; text: string } | { kind: 'messages'; messages: unknown };

export function readPromptFile(ref: string, ctx: Pick<ChainFormatContext, 'readSibling'>): SiblingRead<PromptSource[]> {
  if (/\.(txt|md)$/i.test(ref)) {
    const read = readNamed(ref, ctx);
    if (!read.ok) return read;
    const parts = read.value.split(/^---\s*$/m).map((p) => p.trim()).filter(Boolean);
    return { ok: true, value: parts.map((text) => ({ kind: 'text', text })), file: read.file };
  }
  const value = readValue(ref, ctx);
  if (!value.ok) {
    // A chat prompt in .json is usually Nunjucks around JSON: say so rather than "not JSON".
    const raw = /\.json$/i.test(ref) ? readNamed(ref, ctx) : null;
    if (raw?.ok && /\{%|\{#/.test(raw.value)) return { ok: true, value: [{ kind: 'text', text: raw.value }], file: raw.file };
    return value;
  }
  return { ok: true, value: [{ kind: 'messages', messages: value.value }], file: value.file };
}

/** The tests a `file://` names: a list of tests (or one test) in .json or .yaml. */
export function readTestsFile(ref: string, ctx: Pick<ChainFormatContext, 'readSibling'>): SiblingRead<unknown[]> {
  const value = readValue(ref, ctx);
  if (!value.ok) return value;
  return { ok: true, value: Array.isArray(value.value) ? value.value : [value.value], file: value.file };
}
