import { readFile, stat } from 'node:fs/promises';
import { formatJsonPath, parseStrictJson } from '../files/strict-json.ts';
import { isRecord } from '../files/json-value.ts';
import type { CountedUnit } from '../steps/index.ts';

/**
 * `--units FILE`: a job described by numbers alone, `[{"id", "tokens", "startsSection"}]`.
 * The file is data from anywhere, so it is bounded (size, count, each number) and every problem
 * names the file and the item. A unit that does not start a section continues the one before.
 */
export const MAX_UNITS_FILE_BYTES = 10 * 1024 * 1024;
export const MAX_UNITS = 100_000;
const MAX_UNIT_TOKENS = 10_000_000;

export class PlanDataError extends Error {}

export async function readUnitsFile(path: string): Promise<CountedUnit[]> {
  const fail = (why: string): never => {
    throw new PlanDataError(`${path}: ${why}`);
  };
  let size: number;
  try {
    const info = await stat(path);
    if (!info.isFile()) fail('is not a regular file');
    size = info.size;
  } catch (error) {
    if (error instanceof PlanDataError) throw error;
    return fail(`cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  if (size > MAX_UNITS_FILE_BYTES) fail(`is ${(size / 1048576).toFixed(1)} MB (a units file is limited to ${MAX_UNITS_FILE_BYTES / 1048576} MB)`);
  const read = parseStrictJson(await readFile(path, 'utf8'));
  if (!read.ok) return fail(`${formatJsonPath(read.path)}  ${read.message}`);
  if (!Array.isArray(read.value)) return fail('a units file is a JSON list of {"id", "tokens", "startsSection"}');
  if (read.value.length === 0) fail('the list of units is empty');
  if (read.value.length > MAX_UNITS) fail(`has ${read.value.length} units (at most ${MAX_UNITS})`);
  const ids = new Set<string>();
  let section = 0;
  return read.value.map((item: unknown, i) => {
    const at = `[${i}]`;
    if (!isRecord(item)) return fail(`${at} is not an object {"id", "tokens", "startsSection"}`);
    const { id, tokens, startsSection } = item;
    if (typeof id !== 'string' && typeof id !== 'number') return fail(`${at}.id must be a string`);
    const key = String(id);
    if (key === '' || key.length > 200) fail(`${at}.id must be 1–200 characters`);
    if (ids.has(key)) fail(`${at}.id "${key}" appears twice`);
    ids.add(key);
    if (typeof tokens !== 'number' || !Number.isInteger(tokens) || tokens < 0 || tokens > MAX_UNIT_TOKENS) fail(`${at}.tokens must be a whole number from 0 to ${MAX_UNIT_TOKENS}`);
    if (startsSection !== undefined && typeof startsSection !== 'boolean') fail(`${at}.startsSection must be true or false`);
    if (i === 0 || startsSection === true) section++;
    return { id: key, tokens: tokens as number, section: `s${section}` };
  });
}
