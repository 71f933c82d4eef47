import type { IncomingMessage } from 'node:http';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';

/**
 * A request body read under a size limit that holds both on the wire and after gunzip, checked
 * as the bytes arrive: a body that passes it is stopped there (the rest is never buffered, nor
 * inflated), so a gzip bomb costs at most the limit, never its expanded size.
 *
 * The request stream itself is never destroyed here: the caller still answers (413, 400) and
 * closes the connection after the answer (`Connection: close`).
 */
export type BodyResult =
  | { ok: true; body: Buffer }
  | { ok: false; status: 400 | 413 | 415; message: string };

class TooLarge extends Error {}

/** Passes bytes through until `limit` have passed, then fails. */
function counter(limit: number, where: string): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
      seen += chunk.length;
      if (seen > limit) done(new TooLarge(`the body is larger than ${limit} bytes ${where}; requests are limited to ${limit} bytes`));
      else done(null, chunk);
    },
  });
}

export async function readBody(req: IncomingMessage, limit: number): Promise<BodyResult> {
  const encoding = String(req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  if (encoding !== 'identity' && encoding !== 'gzip') {
    return { ok: false, status: 415, message: `Content-Encoding "${encoding.slice(0, 40)}" is not supported (gzip or none)` };
  }
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    return { ok: false, status: 413, message: `the body is ${declared} bytes; requests are limited to ${limit} bytes` };
  }
  const chunks: Buffer[] = [];
  let size = 0;
  const wire = counter(limit, 'on the wire');
  req.pipe(wire);
  // pipe() forwards no error: a client that goes away mid-body must still end the read.
  const gone = (error?: Error) => wire.destroy(error ?? new Error('the client closed the connection'));
  req.once('error', gone);
  req.once('close', () => {
    if (!req.complete) gone();
  });
  try {
    const collect = async (source: AsyncIterable<Buffer>) => {
      for await (const chunk of source) {
        chunks.push(chunk);
        size += chunk.length;
      }
    };
    if (encoding === 'gzip') await pipeline(wire, createGunzip(), counter(limit, 'after gunzip'), collect);
    else await pipeline(wire, collect);
  } catch (error) {
    req.unpipe(wire);
    if (error instanceof TooLarge) return { ok: false, status: 413, message: error.message };
    return { ok: false, status: 400, message: encoding === 'gzip' ? `the body is not valid gzip (${(error as Error).message})` : `the body could not be read (${(error as Error).message})` };
  }
  return { ok: true, body: Buffer.concat(chunks, size) };
}

/**
 * Reads and throws away what is left of a request body before it is refused, so the client has
 * sent its whole request when the answer and the close arrive: a client still writing when the
 * connection closes sees a reset instead of the 413 or 429 (the "lingering close" web servers do).
 * Bounded in bytes and time, so a sender that never stops costs at most that: past either bound
 * the caller answers anyway and the client may see the reset.
 */
export function discardRest(req: IncomingMessage, maxBytes: number, maxMs: number): Promise<void> {
  if (req.complete || req.readableEnded || req.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    let seen = 0;
    const done = () => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', done);
      req.off('close', done);
      req.off('error', done);
      req.pause();
      resolve();
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > maxBytes) done();
    };
    const timer = setTimeout(done, maxMs);
    req.on('data', onData);
    req.once('end', done);
    req.once('close', done);
    req.once('error', done);
    req.resume();
  });
}
