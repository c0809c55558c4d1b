/**
 * Node adapters: a `(req, res)` listener, a standalone server, and connect-style middleware
 * (Vite, Express). They read the body within `maxBodyBytes` and pass it to the core.
 */
// Named imports only: generated output copies this file and may compile it as CommonJS without esModuleInterop.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { METHOD_NOT_ALLOWED, PAYLOAD_TOO_LARGE, type HttpAnswer, type RpcServer } from './server.js';

type Next = (error?: unknown) => void;

/** A Node `request` listener answering JSON-RPC on every path (plus the OpenAPI binding). */
export function createNodeListener(server: RpcServer): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    void answerNodeRequest(server, req, res, req.url ?? '/');
  };
}

export interface ListenOptions {
  /** Default: `SERVER_PORT`, else 8080. 0 picks a free port. */
  port?: number;
  /** Default `0.0.0.0` (all IPv4 interfaces). */
  host?: string;
  /** Time allowed to receive the request headers. Default 10 000 ms. */
  headersTimeoutMs?: number;
  /** Time allowed to receive the whole request. Default 30 000 ms. */
  requestTimeoutMs?: number;
  /** How long an idle keep-alive connection stays open. Default 5 000 ms. */
  keepAliveTimeoutMs?: number;
}

/**
 * Starts a standalone HTTP server for `server` and resolves once it listens. Slow or idle
 * connections are closed by the header, request and keep-alive timeouts.
 */
export function listen(server: RpcServer, options: ListenOptions = {}): Promise<Server> {
  const { port, host } = listenAddress(options);
  const headersTimeout = options.headersTimeoutMs ?? 10_000;
  const requestTimeout = Math.max(options.requestTimeoutMs ?? 30_000, headersTimeout);
  const httpServer = createServer(
    {
      headersTimeout,
      requestTimeout,
      keepAliveTimeout: options.keepAliveTimeoutMs ?? 5_000,
      // How often Node checks the two timeouts above (its default, 30 s, lets slow clients linger).
      connectionsCheckingInterval: Math.min(1_000, headersTimeout),
    },
    createNodeListener(server),
  );
  return new Promise((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(port, host, () => {
      httpServer.off('error', reject);
      resolve(httpServer);
    });
  });
}

/** Where `listen` binds: `options.port`, else `SERVER_PORT`, else 8080; `options.host`, else 0.0.0.0. */
export function listenAddress(options: Pick<ListenOptions, 'port' | 'host'> = {}, env: Record<string, string | undefined> = process.env) {
  return { port: options.port ?? portFromEnvironment(env.SERVER_PORT) ?? 8080, host: options.host ?? '0.0.0.0' };
}

function portFromEnvironment(text: string | undefined): number | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`SERVER_PORT must be an integer from 0 to 65535, got "${text}"`);
  }
  return port;
}

export interface MiddlewareOptions {
  /** Where JSON-RPC is answered; the OpenAPI binding lives under `<path>/<Interface>/<method>`. Default `/rpc`. */
  path?: string;
}

/**
 * Connect-style middleware (Vite `configureServer`, Express, connect). Answers `<path>` and
 * `<path>/<Interface>/<method>` for registered methods; every other request goes to `next()`.
 * A body already parsed by an earlier body parser (`req.body`) is used as is.
 */
export function createMiddleware(server: RpcServer, options: MiddlewareOptions = {}) {
  const base = (options.path ?? '/rpc').replace(/\/+$/, '');
  return (req: IncomingMessage, res: ServerResponse, next: Next): void => {
    const pathname = (req.url ?? '/').split('?', 1)[0];
    let route: string;
    if (pathname === base || pathname === `${base}/`) {
      route = '/';
    } else if (pathname.startsWith(`${base}/`)) {
      route = pathname.slice(base.length);
      const segments = route.split('/');
      if (segments.length !== 3 || !server.methodNames.has(`${segments[1]}.${segments[2]}`)) return next();
    } else {
      return next();
    }
    void answerNodeRequest(server, req, res, route);
  };
}

async function answerNodeRequest(server: RpcServer, req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  try {
    if (req.method !== 'POST') return send(res, METHOD_NOT_ALLOWED);
    const body = await readBody(req, server.maxBodyBytes);
    if (body === undefined) {
      // Stop reading; the connection closes once the answer is out.
      send(res, PAYLOAD_TOO_LARGE);
      res.once('finish', () => req.destroy());
      return;
    }
    let signal: AbortSignal | undefined;
    const answer = await server.handleHttp({
      method: 'POST',
      path,
      body,
      headers: flattenHeaders(req.headers),
      remoteAddress: req.socket.remoteAddress,
      // Built only when a handler reads ctx.signal: a controller and a 'close' listener per request
      // cost a noticeable share of a fast call, and most handlers never use them.
      get signal() {
        return (signal ??= closeSignal(res));
      },
    });
    send(res, answer);
  } catch {
    // The core never rejects; this only guards against a broken socket or stream.
    if (!res.headersSent && !res.destroyed) send(res, { status: 500, headers: { 'content-type': 'application/json' }, body: '{"error":"Internal Server Error"}' });
    else res.destroy();
  }
}

/** A signal aborted when the client goes away before the answer is out (also if it already has). */
function closeSignal(res: ServerResponse): AbortSignal {
  const controller = new AbortController();
  const abort = () => controller.abort(new Error('client closed the connection'));
  if (res.closed) {
    if (!res.writableFinished) abort();
  } else {
    res.once('close', () => {
      if (!res.writableFinished) abort();
    });
  }
  return controller.signal;
}

/** The body, or `undefined` once it passes `limit` (nothing past the limit is kept). */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | string | undefined> {
  const preParsed = (req as IncomingMessage & { body?: unknown }).body;
  if (preParsed !== undefined && req.readableEnded) {
    if (typeof preParsed === 'string' || Buffer.isBuffer(preParsed)) return Promise.resolve(preParsed);
    return Promise.resolve(JSON.stringify(preParsed));
  }
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        chunks.length = 0;
        req.pause();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

function flattenHeaders(headers: IncomingMessage['headers']): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

function send(res: ServerResponse, answer: HttpAnswer): void {
  if (res.headersSent || res.destroyed) return;
  if (answer.status === 204) {
    res.writeHead(204, answer.headers).end();
    return;
  }
  res.writeHead(answer.status, { ...answer.headers, 'content-length': Buffer.byteLength(answer.body) });
  res.end(answer.body);
}
