import { createServer } from 'node:net';

/**
 * A port nothing listens on right now, on 127.0.0.1, for servers that cannot take port 0 and
 * report it (redis-server, PostgreSQL, a child process given --port). Between this and the
 * server's own bind another process may take it: callers that can, retry on a taken port.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
