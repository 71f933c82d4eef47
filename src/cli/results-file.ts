import { createReadStream } from 'node:fs';
import { firstIssue } from '../files/zod-issue.ts';
import { itemResultSchema, type ItemResult } from '../eval/item-result.ts';
import { terminalLine } from './terminal-text.ts';

/** One result line is a few KB; a line longer than this is no result this tool wrote. */
const MAX_RESULT_LINE_BYTES = 16 * 1024 * 1024;

export interface StoredResults {
  results: ItemResult[];
  /** Bytes of the file that hold whole lines; a torn tail beyond them is cut before anything is appended. */
  keepBytes: number;
  /** The file holds bytes past keepBytes (a torn last line, or a last line without its newline). */
  repair: 'none' | 'cut' | 'newline';
}

/**
 * Results an earlier run of the same eval wrote, streamed line by line (never read whole), each
 * line checked against the result schema: the folder is the user's, but anything could have
 * edited it. A torn last line (a crash mid-write) is reported for cutting, and that item runs
 * again; any other bad line is an error naming the file and line, and nothing runs or changes.
 */
export async function readResults(path: string): Promise<StoredResults | string> {
  const results: ItemResult[] = [];
  let keepBytes = 0;
  let lineNo = 0;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  // A line is checked once its newline has arrived; the last one (no newline) after the stream ends.
  const take = (line: Buffer, terminated: boolean): string | 'torn' | null => {
    lineNo++;
    const text = line.toString('utf8').replace(/\r$/, '');
    if (!text.trim()) return null;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return terminated ? `${terminalLine(path)} line ${lineNo}: not JSON` : 'torn';
    }
    const parsed = itemResultSchema.safeParse(value);
    if (!parsed.success) return `${terminalLine(path)} line ${lineNo}: ${firstIssue(parsed.error)}`;
    results.push(parsed.data);
    return null;
  };
  try {
    for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
      let from = 0;
      let at: number;
      // 0x0A never occurs inside a UTF-8 sequence, so lines split on bytes.
      while ((at = chunk.indexOf(0x0a, from)) >= 0) {
        const line = pending.length ? Buffer.concat([...pending, chunk.subarray(from, at)]) : chunk.subarray(from, at);
        pending = [];
        pendingBytes = 0;
        const problem = take(line, true);
        if (problem) return problem;
        keepBytes += line.length + 1;
        from = at + 1;
      }
      if (from < chunk.length) {
        pending.push(chunk.subarray(from));
        pendingBytes += chunk.length - from;
        if (pendingBytes > MAX_RESULT_LINE_BYTES) return `${terminalLine(path)} line ${lineNo + 1}: longer than ${MAX_RESULT_LINE_BYTES / 2 ** 20} MB, not a result line`;
      }
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { results: [], keepBytes: 0, repair: 'none' };
    return `${terminalLine(path)}: ${(error as Error).message}`;
  }
  if (!pendingBytes) return { results, keepBytes, repair: 'none' };
  const tail = Buffer.concat(pending);
  const problem = take(tail, false);
  if (problem === 'torn') return { results, keepBytes, repair: 'cut' };
  if (problem) return problem;
  return { results, keepBytes: keepBytes + tail.length, repair: tail.toString('utf8').trim() ? 'newline' : 'cut' };
}
