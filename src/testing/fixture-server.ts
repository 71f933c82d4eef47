import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * Replays recorded bytes over real HTTP, so the providers' parsers are tested on exactly
 * what the real endpoints sent (the mock server only produces our own idea of it).
 */
export interface RawReply {
  status?: number;
  headers?: Record<string, string>;
  body: string;
  /** Send only this many bytes of the body, then drop the connection. */
  cutAfterBytes?: number;
}

export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface FixtureServer {
  url: string;
  /** Replies are used in order; the last one repeats. */
  reply(...replies: RawReply[]): void;
  requests: SeenRequest[];
  close(): Promise<void>;
}

export async function createFixtureServer(): Promise<FixtureServer> {
  let replies: RawReply[] = [];
  const requests: SeenRequest[] = [];
  const sockets = new Set<Socket>();
  const http = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const reply = replies.length > 1 ? replies.shift() : replies[0];
      if (!reply) {
        res.writeHead(500).end('no fixture reply scripted');
        return;
      }
      const headers = { 'content-type': 'application/json', ...reply.headers };
      if (reply.cutAfterBytes === undefined) {
        res.writeHead(reply.status ?? 200, headers);
        res.end(reply.body);
        return;
      }
      const bytes = Buffer.from(reply.body, 'utf8');
      res.writeHead(reply.status ?? 200, headers);
      res.write(bytes.subarray(0, reply.cutAfterBytes), () => res.socket?.destroy());
    });
  });
  http.on('connection', (s: Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    reply: (...r) => {
      replies = r;
    },
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
  };
}
