import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { anthropicModule, countTokens } from './mock-anthropic.ts';
import { defaultReply } from './mock-tools.ts';
import { parseMockReply, performReply, sendBody } from './mock-faults.ts';
import { openAIError, openAIModule } from './mock-openai.ts';
import { anthropicError } from './mock-anthropic-shape.ts';
import type { MockCall, MockReply, MockResponder, ProtocolModule, RecordedRequest } from './mock-types.ts';

export type { MockCall, MockReply, MockResponder, RecordedRequest } from './mock-types.ts';

/**
 * A local stand-in for OpenAI and Anthropic endpoints, for tests, e2e runs and demos without
 * a key. It validates requests like the real APIs, answers with the real shapes (JSON and
 * SSE), and plays scripted faults. It listens on 127.0.0.1 only and can stop by itself.
 */
export interface MockServerOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** When set, requests must carry this key or get the real 401: OpenAI reads Bearer; Anthropic x-api-key, else Bearer. */
  apiKey?: string;
  /** Close after this long with no request in flight, so a forgotten server never lingers. */
  idleExitMs?: number;
  /** The token the control routes require; default: a random one per start (see `controlToken`). */
  controlToken?: string;
}

/**
 * The header control requests carry. The control routes (`/__mock/*`) read captured prompts
 * and script answers, so they need this per-start token and answer no CORS: another page open
 * in the browser can neither read nor script them. Only the model routes answer CORS.
 */
export const CONTROL_TOKEN_HEADER = 'x-mock-control-token';

export interface MockModelServer {
  /** `http://127.0.0.1:<port>`; OpenAI base URL is `${url}/v1`, Anthropic's is `url`. */
  readonly url: string;
  readonly port: number;
  /** Send it as `x-mock-control-token` to use the `/__mock/*` routes. */
  readonly controlToken: string;
  /** Queues replies: unkeyed ones answer in turn, a reply with `match` answers the request that contains it. */
  enqueue(...replies: MockReply[]): void;
  /** Answers requests when the queue is empty; null restores the demo model. */
  setResponder(fn: MockResponder | null): void;
  /** Every model request received, oldest first (the same array across reset()). */
  readonly requests: RecordedRequest[];
  /** Replies still queued. */
  queued(): number;
  /** Empties the queue and the request log and removes the responder. */
  reset(): void;
  close(): Promise<void>;
  /** Resolves once the server has closed (by close() or idle exit). */
  readonly closed: Promise<void>;
}

/** `GET /v1/models`, as OpenAI-compatible servers answer it (clients list models; e2e waits on it). */
const MODELS = { object: 'list', data: [{ id: 'mock-model', object: 'model', created: 0, owned_by: 'seamscope-mock' }] };

const ROUTES: Record<string, ProtocolModule> = {
  '/v1/chat/completions': openAIModule,
  '/v1/messages': anthropicModule,
};

const COUNT_TOKENS = '/v1/messages/count_tokens';

const CORS: Record<string, string> = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'authorization, content-type, accept, x-api-key, anthropic-version, anthropic-dangerous-direct-browser-access',
  // Without this a page cannot read Retry-After: it is not a CORS-safelisted response header.
  'access-control-expose-headers': 'retry-after, retry-after-ms, request-id, x-request-id',
  'access-control-max-age': '600',
};

const MAX_BODY_BYTES = 32 * 1024 * 1024;
const REDACTED = new Set(['authorization', 'x-api-key']);

function headerMap(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function redact(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name] = REDACTED.has(name) ? '[redacted]' : value;
  return out;
}

function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        resolve(null);
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function parseBody(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The queued reply for this request: the first keyed one whose `match` it contains, else the first unkeyed one. */
export function takeReply(queue: MockReply[], call: MockCall): MockReply | undefined {
  let at = -1;
  if (queue.some((r) => r.match !== undefined)) {
    const text = call.messages.map((m) => m.content).join('\n');
    at = queue.findIndex((r) => r.match !== undefined && text.includes(r.match));
  }
  if (at < 0) at = queue.findIndex((r) => r.match === undefined);
  return at < 0 ? undefined : queue.splice(at, 1)[0];
}

export async function createMockModelServer(opts: MockServerOptions = {}): Promise<MockModelServer> {
  const queue: MockReply[] = [];
  const requests: RecordedRequest[] = [];
  const hanging = new Set<ServerResponse>();
  const sockets = new Set<Socket>();
  let responder: MockResponder | null = null;
  let inFlight = 0;
  let idleTimer: ReturnType<typeof setTimeout> | undefined;
  let closing = false;
  let markClosed: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => (markClosed = resolve));

  const fallback = async (call: MockCall): Promise<MockReply> =>
    responder ? responder(call) : defaultReply(call);

  const armIdle = () => {
    if (!opts.idleExitMs || closing) return;
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => void close(), opts.idleExitMs);
  };

  const controlToken = opts.controlToken ?? randomBytes(24).toString('base64url');
  const expected = Buffer.from(controlToken);
  const authorised = (req: IncomingMessage): boolean => {
    const sent = req.headers[CONTROL_TOKEN_HEADER];
    const given = Buffer.from(typeof sent === 'string' ? sent : '');
    return given.length === expected.length && timingSafeEqual(given, expected);
  };

  // No CORS on any control answer: a page in the browser cannot read them (nor preflight a POST).
  const control = async (req: IncomingMessage, res: ServerResponse, path: string): Promise<void> => {
    if (!authorised(req)) return sendBody(res, 401, { error: `control routes need the ${CONTROL_TOKEN_HEADER} header printed at start` }, {});
    if (req.method === 'GET' && path === '/__mock/requests') return sendBody(res, 200, requests, {});
    if (req.method === 'GET' && path === '/__mock/health') return sendBody(res, 200, { ok: true, queued: queue.length }, {});
    if (req.method === 'POST' && path === '/__mock/reset') {
      server.reset();
      return sendBody(res, 200, { ok: true }, {});
    }
    if (req.method === 'POST' && path === '/__mock/enqueue') {
      const text = await readBody(req);
      try {
        const parsed = JSON.parse(text ?? '') as unknown;
        const replies = (Array.isArray(parsed) ? parsed : [parsed]).map(parseMockReply);
        queue.push(...replies);
        return sendBody(res, 200, { queued: queue.length }, {});
      } catch (err) {
        return sendBody(res, 400, { error: err instanceof Error ? err.message : String(err) }, {});
      }
    }
    sendBody(res, 404, { error: `unknown control route ${req.method} ${path}` }, {});
  };

  const model = async (req: IncomingMessage, res: ServerResponse, module: ProtocolModule | undefined, path: string): Promise<void> => {
    const text = await readBody(req);
    const headers = headerMap(req);
    requests.push({ protocol: module?.protocol ?? (path === COUNT_TOKENS ? 'anthropic' : 'unknown'), method: req.method ?? '', path, headers: redact(headers), body: text === null ? '[too large]' : parseBody(text), rawBody: text });
    if (path === COUNT_TOKENS && req.method === 'POST') {
      if (text === null) return sendBody(res, 413, anthropicModule.errorBody(413), CORS);
      const counted = countTokens(headers, text, opts.apiKey);
      return sendBody(res, counted.status, counted.body, { ...CORS, ...anthropicModule.responseHeaders() });
    }
    if (!module || req.method !== 'POST') {
      // Anthropic paths answer 404 in Anthropic's shape, as its SDK expects.
      if (path.startsWith('/v1/messages')) return sendBody(res, 404, anthropicError('not_found_error', `Not Found: ${req.method} ${path}`), CORS);
      return sendBody(res, 404, openAIError(`Invalid URL (${req.method} ${path})`), CORS);
    }
    const base = { ...CORS, ...module.responseHeaders() };
    if (text === null) return sendBody(res, 413, module.errorBody(413), base);
    const checked = module.check(headers, text, opts.apiKey);
    if (!checked.ok) return sendBody(res, checked.status, checked.body, base);
    const call = checked.call;
    const reply = takeReply(queue, call) ?? (await fallback(call));
    const sentKey = (headers.authorization ?? '').replace(/^Bearer\s+/i, '') || (headers['x-api-key'] ?? '');
    await performReply({ module, call, res, headers: base, fallback: () => fallback(call), hang: (r) => hanging.add(r), sentKey }, reply);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (path.startsWith('/__mock/') || path === '/__mock') {
      // A preflight gets no CORS headers, so the browser never sends the request itself.
      if (req.method === 'OPTIONS') return sendBody(res, 403, { error: 'control routes answer no cross-origin requests' }, {});
      return control(req, res, path);
    }
    if (req.method === 'OPTIONS') {
      res.writeHead(204, CORS);
      res.end();
      return;
    }
    if (req.method === 'GET' && path === '/v1/models') return sendBody(res, 200, MODELS, CORS);
    return model(req, res, ROUTES[path], path);
  };

  const http = createServer((req, res) => {
    inFlight++;
    clearTimeout(idleTimer);
    res.once('close', () => {
      hanging.delete(res);
      inFlight--;
      if (inFlight === 0) armIdle();
    });
    handle(req, res).catch((err: unknown) => {
      // A responder that throws is a test bug: make it loud, not a silent hang.
      const isControl = (req.url ?? '').startsWith('/__mock');
      if (!res.headersSent) sendBody(res, 500, { error: `mock server failure: ${err instanceof Error ? err.message : String(err)}` }, isControl ? {} : CORS);
      else res.destroy();
    });
  });
  // Clients (undici's fetch above all) reuse an idle connection for up to about 4 s; Node closes
  // one after 5 s by default, so a request sent just as the server closes its socket fails with
  // "other side closed" (seen in CI under load). Idle connections stay open far longer than any
  // client keeps them; close() still ends every socket at once.
  http.keepAliveTimeout = 120_000;
  http.headersTimeout = 121_000;
  http.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  async function close(): Promise<void> {
    if (!closing) {
      closing = true;
      clearTimeout(idleTimer);
      http.close(() => markClosed());
      // Hanging answers and keep-alive sockets would keep close() waiting forever.
      for (const res of hanging) res.destroy();
      for (const socket of sockets) socket.destroy();
    }
    return closed;
  }

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    // 127.0.0.1 only: the mock must never be reachable from another machine.
    http.listen(opts.port ?? 0, '127.0.0.1', () => {
      http.off('error', reject);
      resolve();
    });
  });
  const port = (http.address() as AddressInfo).port;
  armIdle();

  const server: MockModelServer = {
    url: `http://127.0.0.1:${port}`,
    port,
    controlToken,
    enqueue: (...replies) => void queue.push(...replies),
    setResponder: (fn) => void (responder = fn),
    requests,
    queued: () => queue.length,
    reset: () => {
      queue.length = 0;
      requests.length = 0;
      responder = null;
    },
    close,
    closed,
  };
  return server;
}
