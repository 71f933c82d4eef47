import { createRequire, syncBuiltinESMExports } from 'node:module';

/**
 * Records every outgoing request of this process and refuses the ones a case is not meant to
 * make: `fetch` (the engine's only way out), `http(s).request/get`, and the sockets under them
 * (`net.connect`, `tls.connect`), which also catches clients that bypass both. The CommonJS
 * module objects are patched because Node's own fetch (undici) calls `net.connect` on them;
 * `syncBuiltinESMExports` carries the patch to `import { request } from 'node:http'` too.
 */
export interface TrappedRequest {
  via: 'fetch' | 'http' | 'https' | 'net' | 'tls';
  target: string;
  allowed: boolean;
}

export interface NetworkTrap {
  readonly requests: readonly TrappedRequest[];
  /** Requests that were not allowed (and were refused). */
  unexpected(): TrappedRequest[];
  restore(): void;
}

export interface TrapOptions {
  /** Hosts (`127.0.0.1:4321`) a case may reach, e.g. the mock model server. Default none. */
  allowHosts?: readonly string[];
}

const require = createRequire(import.meta.url);

type Patchable = Record<string, unknown>;

export class TrappedNetworkError extends Error {
  override name = 'TrappedNetworkError';
}

export function installNetworkTrap(opts: TrapOptions = {}): NetworkTrap {
  const allow = new Set(opts.allowHosts ?? []);
  const requests: TrappedRequest[] = [];
  const restorers: (() => void)[] = [];
  const note = (via: TrappedRequest['via'], target: string, host: string) => {
    const allowed = allow.has(host);
    requests.push({ via, target, allowed });
    if (!allowed) throw new TrappedNetworkError(`network trap: ${via} to ${target} refused`);
  };
  const patch = (owner: Patchable, name: string, wrap: (original: (...args: unknown[]) => unknown) => (...args: unknown[]) => unknown) => {
    const original = owner[name] as (...args: unknown[]) => unknown;
    owner[name] = wrap(original);
    restorers.push(() => void (owner[name] = original));
  };

  patch(globalThis as unknown as Patchable, 'fetch', (original) => (input: unknown, init?: unknown) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : (input as Request).url);
    try {
      note('fetch', url.href, url.host);
    } catch (error) {
      return Promise.reject(error);
    }
    return original(input, init);
  });
  for (const via of ['http', 'https'] as const) {
    const mod = require(`node:${via}`) as Patchable;
    for (const fn of ['request', 'get']) {
      patch(mod, fn, (original) => (...args: unknown[]) => {
        note(via, describeHttpTarget(args[0]), hostOfHttp(args[0], via));
        return original(...args);
      });
    }
  }
  for (const via of ['net', 'tls'] as const) {
    const mod = require(`node:${via}`) as Patchable;
    for (const fn of via === 'net' ? ['connect', 'createConnection'] : ['connect']) {
      patch(mod, fn, (original) => (...args: unknown[]) => {
        const { host, port } = socketTarget(args);
        note(via, `${host}:${port}`, `${host}:${port}`);
        return original(...args);
      });
    }
  }
  syncBuiltinESMExports();
  return {
    requests,
    unexpected: () => requests.filter((r) => !r.allowed),
    restore: () => {
      for (const restore of restorers.splice(0).reverse()) restore();
      syncBuiltinESMExports();
    },
  };
}

function describeHttpTarget(arg: unknown): string {
  if (typeof arg === 'string') return arg;
  if (arg instanceof URL) return arg.href;
  const o = (arg ?? {}) as { host?: string; hostname?: string; port?: number | string; path?: string };
  return `${o.hostname ?? o.host ?? 'localhost'}:${o.port ?? ''}${o.path ?? ''}`;
}

function hostOfHttp(arg: unknown, via: 'http' | 'https'): string {
  if (typeof arg === 'string' || arg instanceof URL) return new URL(String(arg)).host;
  const o = (arg ?? {}) as { host?: string; hostname?: string; port?: number | string };
  const port = o.port ?? (via === 'https' ? 443 : 80);
  return `${o.hostname ?? o.host ?? 'localhost'}:${port}`;
}

function socketTarget(args: unknown[]): { host: string; port: string } {
  const [a, b] = args;
  if (typeof a === 'object' && a !== null) {
    const o = a as { host?: string; port?: number | string; path?: string };
    if (o.path) return { host: 'unix', port: o.path };
    return { host: o.host ?? 'localhost', port: String(o.port ?? '') };
  }
  return { host: typeof b === 'string' ? b : 'localhost', port: String(a ?? '') };
}
