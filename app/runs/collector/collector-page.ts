/**
 * One read of a `seamscope collect` read API (src/collect/read-api.ts): the address checked,
 * the page fetched with the token, and its shape checked before anything reads it. The run
 * files' text inside is untrusted like any file: the importer checks it.
 */
export const READ_PATH = '/v1/seamscope/runs';
export const DEFAULT_COLLECTOR = 'http://127.0.0.1:4318';

export interface CollectorRun {
  cursor: number;
  name: string;
  text: string;
}

export interface CollectorPage {
  /** Which collector answered: a cursor means nothing to another. */
  collector: string;
  runs: CollectorRun[];
  next: number;
  more: boolean;
  /** How many run files the collector lists in all (the last one's cursor). */
  total: number;
}

export type PageRead = { ok: true; page: CollectorPage } | { ok: false; status: number | null; message: string };

/** The collector's origin from what the person typed (a bare host:port too), or why it is not one. */
export function collectorOrigin(address: string): { origin: string } | { problem: string } {
  const typed = address.trim();
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(typed) ? typed : `http://${typed}`);
  } catch {
    return { problem: 'the address is not a URL (e.g. http://127.0.0.1:4318)' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { problem: 'the address must start with http:// or https://' };
  if (url.username || url.password) return { problem: 'the address must not carry a user name or password' };
  return { origin: url.origin };
}

/** The token as `seamscope collect` prints it (base64url), or null for anything else. */
export function cleanToken(token: string): string | null {
  const t = token.trim();
  return /^[A-Za-z0-9_-]{8,200}$/.test(t) ? t : null;
}

const isRun = (r: unknown): r is CollectorRun => {
  const v = r as CollectorRun;
  return typeof v === 'object' && v !== null && Number.isSafeInteger(v.cursor) && typeof v.name === 'string' && v.name.length <= 300 && typeof v.text === 'string';
};

/** The body as a page, or null when it is not one. */
export function asPage(body: unknown): CollectorPage | null {
  const v = body as CollectorPage;
  if (typeof v !== 'object' || v === null || typeof v.collector !== 'string' || v.collector.length > 100) return null;
  if (!Array.isArray(v.runs) || v.runs.length > 100 || !v.runs.every(isRun)) return null;
  if (!Number.isSafeInteger(v.next) || v.next < 0 || typeof v.more !== 'boolean') return null;
  if (!Number.isSafeInteger(v.total) || v.total < v.next) return null;
  return { collector: v.collector, runs: v.runs.map((r) => ({ cursor: r.cursor, name: r.name, text: r.text })), next: v.next, more: v.more, total: v.total };
}

/** Reads the runs after `after`. Never throws: a network failure, a refusal and a bad body are each said in words. */
export async function readCollectorPage(origin: string, token: string, after: number, signal?: AbortSignal, appOrigin = globalThis.location?.origin): Promise<PageRead> {
  let res: Response;
  try {
    // No cookies, no referrer: the token is the only thing the collector is told.
    res = await fetch(`${origin}${READ_PATH}?after=${after}`, { headers: { Authorization: `Bearer ${token}` }, credentials: 'omit', referrerPolicy: 'no-referrer', cache: 'no-store', signal });
  } catch (error) {
    if (signal?.aborted) return { ok: false, status: null, message: 'disconnected' };
    // A refused origin gets no CORS header, which a page sees as a network error too.
    const from = appOrigin ? ` and let this app read (--app-origin ${appOrigin})` : '';
    return { ok: false, status: null, message: `could not read ${origin}: is \`seamscope collect\` running there${from}? (${(error as Error).message})` };
  }
  if (res.status === 401) return { ok: false, status: 401, message: 'the collector refused the token: use the one it printed when it started (a new one each start)' };
  if (!res.ok) return { ok: false, status: res.status, message: `the collector answered ${res.status}` };
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    return { ok: false, status: res.status, message: 'the collector answered with something that is not JSON' };
  }
  const page = asPage(body);
  return page ? { ok: true, page } : { ok: false, status: res.status, message: 'the collector answered with something that is not a page of runs' };
}
