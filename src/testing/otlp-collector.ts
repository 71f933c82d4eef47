import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A minimal OTLP/HTTP trace collector for tests: it listens on 127.0.0.1, keeps the body of
 * every `POST /v1/traces` exactly as the exporter sent it, and answers the empty success
 * OTLP expects. Real exporters can then be pointed at it and their output imported as is.
 */
export interface TestCollector {
  /** The traces endpoint, `http://127.0.0.1:<port>/v1/traces`. */
  readonly url: string;
  /** Each export request: its content type and body text, oldest first. */
  readonly requests: { contentType: string; body: string }[];
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 20 * 1024 * 1024;

export async function startTestCollector(): Promise<TestCollector> {
  const requests: { contentType: string; body: string }[] = [];
  const server: Server = createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/v1/traces') {
      res.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => {
      if (size > MAX_BODY_BYTES) {
        res.writeHead(413).end();
        return;
      }
      requests.push({ contentType: String(req.headers['content-type'] ?? ''), body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/traces`,
    requests,
    close: () => new Promise<void>((resolve, reject) => {
      server.close((error) => (error ? reject(error) : resolve()));
      // An exporter keeps its connection alive; without this close() would wait for it to time out.
      server.closeAllConnections();
    }),
  };
}
