import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, open, readdir } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import type { Scrubber } from '../providers/scrub.ts';
import { MAX_TRACE_BYTES } from '../trace/otlp/index.ts';

/**
 * The collector's read API, for the app: `GET /v1/seamscope/runs?after=<cursor>` lists the run
 * files the collector holds, oldest first, each with its text, so the app imports them through
 * the same importer as a file it was given, and how many it lists in all. A browser page may read it only from the app's
 * origins (CORS), and every request must carry the token the collector made at start: any other
 * page the person has open could otherwise read their traces from 127.0.0.1.
 *
 * Files are named from the collector's own list, never from the request: the request carries a
 * cursor only. The list is what the folder held at start plus what was written since; a file is
 * read only when it is still a regular file (not a link) directly in the folder.
 */
export const READ_PATH = '/v1/seamscope/runs';

/** The app's origins when none are given: the dev server and `vite preview`, by address and by name. */
export const DEFAULT_APP_ORIGINS: readonly string[] = ['http://127.0.0.1:5173', 'http://localhost:5173', 'http://127.0.0.1:4173', 'http://localhost:4173'];

export interface ReadApiOptions {
  /** Origins whose pages may read (exact, e.g. http://127.0.0.1:5173). */
  appOrigins?: readonly string[];
  /** The bearer token; made here when not given. */
  token?: string;
}

/** What one answer holds at most: a poll is never a 100 MB body. */
const PAGE_RUNS = 20;
const PAGE_BYTES = 24 * 1024 * 1024;
const RUN_FILE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,200}\.run\.json$/;

export interface ReadApi {
  readonly token: string;
  readonly appOrigins: readonly string[];
  /** Whether a request is the read API's (its path, whatever the method). */
  serves(req: IncomingMessage): boolean;
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** A run file the collector has just written into its folder. */
  written(file: string): void;
}

/** An origin as the browser sends it: scheme, host and port, lower case, no path. */
export function normalOrigin(value: string): string | null {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    if (url.pathname !== '/' || url.search || url.hash || url.username || url.password) return null;
    return url.origin;
  } catch {
    return null;
  }
}

function tokenMatches(header: string | undefined, token: string): boolean {
  const given = /^Bearer ([A-Za-z0-9_-]{1,200})$/.exec(header ?? '')?.[1];
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string>): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(text)), 'Cache-Control': 'no-store', ...headers });
  res.end(text);
}

/** The text of a run file in `dir`, or null when it is gone, a link, not a file, or too large. */
async function readRunFile(dir: string, name: string): Promise<string | null> {
  const file = path.join(dir, name);
  if (path.dirname(file) !== dir) return null;
  try {
    const info = await lstat(file);
    if (!info.isFile() || info.size > MAX_TRACE_BYTES) return null;
    // O_NOFOLLOW: a link put in its place after the check is not followed either.
    const handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      const text = await handle.readFile({ encoding: 'utf8' });
      return text.length <= MAX_TRACE_BYTES ? text : null;
    } finally {
      await handle.close();
    }
  } catch {
    return null;
  }
}

/** The run files the folder holds now, oldest first (by modification time, then name). */
async function existingRunFiles(dir: string): Promise<string[]> {
  const found: { name: string; at: number }[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (!entry.isFile() || !RUN_FILE.test(entry.name)) continue;
    try {
      found.push({ name: entry.name, at: (await lstat(path.join(dir, entry.name))).mtimeMs });
    } catch {
      // Gone between the listing and the look: not listed.
    }
  }
  return found.sort((a, b) => a.at - b.at || a.name.localeCompare(b.name)).map((f) => f.name);
}

export async function createReadApi(dir: string, scrubber: Scrubber, options: ReadApiOptions = {}): Promise<ReadApi> {
  const folder = path.resolve(dir);
  const token = options.token ?? randomBytes(24).toString('base64url');
  const appOrigins = (options.appOrigins?.length ? options.appOrigins : DEFAULT_APP_ORIGINS).map((o) => normalOrigin(o) ?? o);
  // Which collector this is: a cursor means nothing to another one (restarted, or another folder).
  const instance = randomUUID();
  // Cursor n is files[n - 1]: the list only grows, so a cursor never moves.
  const files = await existingRunFiles(folder);
  const listed = new Set(files);

  const corsHeaders = (origin: string | undefined): Record<string, string> | null => {
    if (origin === undefined) return {};
    if (!appOrigins.includes(origin)) return null;
    return { 'Access-Control-Allow-Origin': origin, Vary: 'Origin' };
  };

  return {
    token,
    appOrigins,
    serves: (req) => (req.url ?? '/').split('?')[0] === READ_PATH,
    written(file) {
      const name = path.basename(file);
      if (path.resolve(path.dirname(file)) !== folder || !RUN_FILE.test(name) || listed.has(name)) return;
      listed.add(name);
      files.push(name);
    },
    async handle(req, res) {
      // A request that came with a body is answered and its connection closed, body unread.
      const hasBody = (req.headers['content-length'] ?? '0') !== '0' || req.headers['transfer-encoding'] !== undefined;
      const close: Record<string, string> = hasBody ? { Connection: 'close' } : {};
      const origin = req.headers.origin;
      const cors = corsHeaders(origin);
      // Another page's origin: refused, and with no CORS header its script cannot even read why.
      if (!cors) return sendJson(res, 403, { message: 'this origin may not read the collector; start it with --app-origin to allow one' }, close);
      if (req.method === 'OPTIONS') {
        const preflight = origin === undefined ? {} : {
          'Access-Control-Allow-Methods': 'GET',
          'Access-Control-Allow-Headers': 'Authorization',
          'Access-Control-Max-Age': '600',
          // Chromium asks before a page reaches a private address; the app's own origin may.
          ...(req.headers['access-control-request-private-network'] === 'true' ? { 'Access-Control-Allow-Private-Network': 'true' } : {}),
        };
        res.writeHead(204, { ...cors, ...preflight, ...close, 'Content-Length': '0' });
        return void res.end();
      }
      if (req.method !== 'GET') return sendJson(res, 405, { message: 'the read API answers GET' }, { ...cors, ...close, Allow: 'GET, OPTIONS' });
      if (!tokenMatches(req.headers.authorization, token)) {
        return sendJson(res, 401, { message: 'the token is missing or wrong: use the one `seamscope collect` printed at start' }, { ...cors, ...close, 'WWW-Authenticate': 'Bearer' });
      }
      const query = new URL(req.url ?? '/', 'http://collector').searchParams;
      const afterText = query.get('after') ?? '0';
      if (!/^\d{1,9}$/.test(afterText)) return sendJson(res, 400, { message: 'after must be a cursor this collector gave (a whole number)' }, { ...cors, ...close });
      // A cursor past the end is another collector's: the app starts again from the beginning.
      const after = Math.min(Number(afterText), files.length);
      const runs: { cursor: number; name: string; text: string }[] = [];
      let bytes = 0;
      let cursor = after;
      for (; cursor < files.length && runs.length < PAGE_RUNS; cursor++) {
        const name = files[cursor] as string;
        const text = await readRunFile(folder, name);
        if (text === null) continue;
        if (runs.length > 0 && bytes + text.length > PAGE_BYTES) break;
        bytes += text.length;
        // Written scrubbed; scrubbed again on the way out, for a file the collector did not write.
        runs.push({ cursor: cursor + 1, name, text: scrubber.text(text) });
      }
      // total: how many files it has listed (the last one's cursor), so the app can say how many
      // traces a collector already holds before it imports any of them.
      sendJson(res, 200, { collector: instance, runs, next: cursor, more: cursor < files.length, total: files.length }, { ...cors, ...close });
    },
  };
}
