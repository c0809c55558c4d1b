/**
 * Node adapters: a `(req, res)` listener, a standalone server, and connect-style middleware
 * (Vite, Express). They read a JSON body within `maxBodyBytes` and the server's body budget and
 * pass it to the core.
 */
// Named imports only: generated output copies this file and may compile it as CommonJS without esModuleInterop.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { normalizeBasePath, pathnameOf, pathUnderBase } from './base-path.js';
import type { BodyBudget } from './body-budget.js';
import type { BodyPace } from './body-pace.js';
import { isJsonMediaType } from './media-type.js';
import {
  copyAnswer,
  NOT_FOUND,
  PAYLOAD_TOO_LARGE,
  REQUEST_TIMEOUT,
  SERVICE_UNAVAILABLE,
  UNSUPPORTED_MEDIA_TYPE,
  type HttpAnswer,
} from './http-answer.js';
import { writeAnswerStream } from './node-answer-stream.js';
import type { HttpRequestLike, RpcServer } from './server.js';
import { addShutdown, DEFAULT_SHUTDOWN_TIMEOUT_MS, type RpcHttpServer, shutdownOnSignals } from './shutdown.js';

type Next = (error?: unknown) => void;

export interface NodeListenerOptions {
  /**
   * Where the binding lives: JSON-RPC on `basePath` and one segment below it, the OpenAPI binding on
   * `<basePath>/<Interface>/<method>`, 404 for every other POST. Default `/`.
   */
  basePath?: string;
  /**
   * A page answered on GET/HEAD beside the binding, e.g. `createDocsPage()` of
   * `unplugin-idl-rpc/runtime/docs-page` (the API reference page). Default none.
   */
  docsPage?: ServedPage;
}

/** A page served beside the binding (the shape of `createDocsPage`'s result; the adapter needs no more). */
export interface ServedPage {
  /** Checked once, before serving: throws when the page would take a path where the binding answers calls. */
  mount(binding: { basePath: string; methodNames: Iterable<string> }): void;
  /** Answers a request for the page and returns true; false leaves it to the binding. */
  answer(req: IncomingMessage, res: ServerResponse): boolean;
}

/**
 * A Node `request` listener: JSON-RPC and the OpenAPI binding under `basePath`
 * (docs/protocol.md, "Paths"); a POST outside it gets 404 before its body is read.
 */
export function createNodeListener(
  server: RpcServer,
  options: NodeListenerOptions = {},
): (req: IncomingMessage, res: ServerResponse) => void {
  const base = normalizeBasePath(options.basePath ?? '/', 'basePath');
  const page = options.docsPage;
  if (page) {
    page.mount({ basePath: base || '/', methodNames: server.methodNames });
    const binding = createNodeListener(server, { ...options, docsPage: undefined });
    return (req, res) => {
      if (!page.answer(req, res)) binding(req, res);
    };
  }
  if (base === '') {
    return (req, res) => {
      answerNodeRequest(server, req, res, req.url ?? '/');
    };
  }
  return (req, res) => {
    const url = req.url ?? '/';
    if (req.method !== 'POST') {
      // A read over GET is routed under the base, as a POST is; other verbs get the documents (at absolute paths) or 405.
      const pathname = pathnameOf(url);
      const path = req.method === 'GET' ? pathUnderBase(pathname, base) : undefined;
      if (path !== undefined && server.answersGet(path)) return answerNodeRequest(server, req, res, path + url.slice(pathname.length));
      return respond(res, server.answerWithoutCall(req.method ?? 'GET', url, req.headers));
    }
    const path = pathUnderBase(pathnameOf(url), base);
    if (path === undefined) return respond(res, withCors(server, req, NOT_FOUND));
    answerNodeRequest(server, req, res, path);
  };
}

export interface ListenOptions extends NodeListenerOptions {
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
  /**
   * Signals that shut the server down gracefully (`server.shutdown`), after which the signal is
   * raised again so the process ends as usual. `true` is `['SIGTERM', 'SIGINT']`. Default none.
   */
  shutdownSignals?: boolean | readonly NodeJS.Signals[];
  /** `timeoutMs` of the shutdown the signals start. Default 10 000 ms. */
  shutdownTimeoutMs?: number;
}

/**
 * Starts a standalone HTTP server for `server` and resolves once it listens. Slow or idle
 * connections are closed by the header, request and keep-alive timeouts. The `http.Server` it
 * gives has `shutdown({ timeoutMs })` too: stop accepting, let the calls in flight answer, free the port.
 */
export function listen(server: RpcServer, options: ListenOptions = {}): Promise<RpcHttpServer> {
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
    createNodeListener(server, { basePath: options.basePath, docsPage: options.docsPage }),
  );
  const signals = options.shutdownSignals === true ? (['SIGTERM', 'SIGINT'] as const) : options.shutdownSignals || [];
  const rpcHttpServer = addShutdown(httpServer, server);
  return new Promise((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(port, host, () => {
      httpServer.off('error', reject);
      if (signals.length > 0)
        shutdownOnSignals(rpcHttpServer, signals, { timeoutMs: options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS });
      resolve(rpcHttpServer);
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
  /**
   * Where the binding lives: JSON-RPC on `path` and one segment below it, the OpenAPI binding on
   * `<path>/<Interface>/<method>`, 404 for every other POST under it. Default `/rpc`.
   */
  path?: string;
}

/**
 * Connect-style middleware (Vite `configureServer`, Express, connect). Answers every POST under
 * `<path>` (docs/protocol.md, "Paths"), and other verbs on `<path>` itself and on
 * `<path>/<Interface>/<method>` of registered methods and on the MCP binding's path (405); every
 * other request goes to `next()`.
 * A body already parsed by an earlier body parser (`req.body`) is used as is.
 */
export function createMiddleware(server: RpcServer, options: MiddlewareOptions = {}) {
  const base = normalizeBasePath(options.path ?? '/rpc', 'createMiddleware: path');
  return (req: IncomingMessage, res: ServerResponse, next: Next): void => {
    const url = req.url ?? '/';
    const pathname = pathnameOf(url);
    const path = pathUnderBase(pathname, base);
    if (path === undefined) return next();
    // Other verbs stay with the app (pages, assets) except where the binding answers POSTs: its
    // path, a method's REST path (a GET of a @readonly method's is a call), and the MCP binding's
    // path (405 there: no server-initiated stream).
    if (req.method !== 'POST' && !answersOtherVerbs(server, path)) return next();
    // With the query: a GET read's params are in it.
    answerNodeRequest(server, req, res, path + url.slice(pathname.length));
  };
}

/** Whether `createMiddleware` answers a verb other than POST on `path` (under its base) itself. */
function answersOtherVerbs(server: RpcServer, path: string): boolean {
  return path === '/' || path === server.mcpPath || server.methodNames.has(path.slice(1).replace('/', '.'));
}

/**
 * Reads the body, hands it to the core and writes the answer. Callbacks rather than an async
 * function: on the hot path every promise and tick shows up in the server's throughput.
 */
function answerNodeRequest(server: RpcServer, req: IncomingMessage, res: ServerResponse, path: string): void {
  if (req.method !== 'POST') {
    // A read over GET: its params are in the query, and whatever body it has is left unread.
    if (req.method === 'GET' && server.answersGet(path)) return answerBody(server, req, res, path, '');
    return respond(res, server.answerWithoutCall(req.method ?? 'GET', path, req.headers));
  }
  // Before reading: a body that will be refused is never kept (Node discards it after the answer).
  if (!isJsonMediaType(req.headers['content-type'])) return respond(res, withCors(server, req, UNSUPPORTED_MEDIA_TYPE));
  readBody(
    req,
    server.maxBodyBytes,
    server.bodyBudget,
    server.bodyPace,
    (body) => {
      try {
        answerBody(server, req, res, path, body);
      } catch {
        fail(res);
      }
    },
    (refusal) => refuse(req, res, withCors(server, req, refusal), server.maxBodyBytes),
    () => fail(res),
  );
}

/** An answer the adapter makes itself, with the CORS headers of the request's origin when CORS is on. */
function withCors(server: RpcServer, req: IncomingMessage, answer: HttpAnswer): HttpAnswer {
  return server.cors === undefined ? answer : server.cors.decorate(copyAnswer(answer), req.headers.origin);
}

/** How long a refused body may go on arriving (read and dropped) after the answer: see `refuse`. */
const LINGER_MS = 2_000;

/**
 * Answers a body refused while it may still be arriving (413, 503, 408; with `connection: close`).
 * The answer goes out at once, complete with its Content-Length, but the response ends (and Node
 * closes the connection) only once the body has arrived, LINGER_MS have passed, or `dropLimit`
 * more bytes came; what arrives meanwhile is read and dropped. Closing at once, with the upload
 * still coming in, makes the kernel reset the connection, and the client often loses the answer
 * (some of 2,000 refused slow uploads saw none). Not reading would not do either: every paused
 * connection keeps its last read, up to 64 KB, outside any budget.
 */
function refuse(req: IncomingMessage, res: ServerResponse, answer: HttpAnswer, dropLimit: number): void {
  if (res.headersSent || res.destroyed) {
    req.destroy();
    return;
  }
  try {
    res.writeHead(answer.status, { ...answer.headers, 'content-length': Buffer.byteLength(answer.body) });
    res.write(answer.body);
  } catch {
    fail(res);
    return;
  }
  let dropped = 0;
  const close = () => {
    clearTimeout(timer);
    res.end();
  };
  const timer = setTimeout(close, LINGER_MS);
  res.once('close', () => clearTimeout(timer));
  req.once('end', close);
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > dropLimit) close();
  });
  req.resume();
}

function answerBody(server: RpcServer, req: IncomingMessage, res: ServerResponse, path: string, body: Buffer | string): void {
  server.handleHttp(new NodeRequest(req, res, path, body)).then(
    (answer) => respond(res, answer),
    () => fail(res),
  );
}

/** Writes an answer; a broken socket or stream gets `fail` instead of an exception nobody catches. */
function respond(res: ServerResponse, answer: HttpAnswer): void {
  try {
    send(res, answer);
  } catch {
    fail(res);
  }
}

/** The core never rejects; this only guards against a broken socket or stream. */
function fail(res: ServerResponse): void {
  try {
    if (!res.headersSent && !res.destroyed)
      send(res, { status: 500, headers: { 'content-type': 'application/json' }, body: '{"error":"Internal Server Error"}' });
    else res.destroy();
  } catch {
    res.destroy();
  }
}

/**
 * What the core needs of a Node request. `signal` is built only when a handler reads ctx.signal:
 * a controller and a 'close' listener per request cost a noticeable share of a fast call, and most
 * handlers never use them. (A class getter, not one in an object literal, which would give every
 * request object its own hidden class.)
 */
class NodeRequest implements HttpRequestLike {
  readonly method: string;
  readonly path: string;
  readonly body: Buffer | string;
  readonly contentType: string | undefined;
  readonly remoteAddress: string | undefined;
  readonly #req: IncomingMessage;
  readonly #res: ServerResponse;
  #headers: Record<string, string> | undefined;
  #signal: AbortSignal | undefined;

  constructor(req: IncomingMessage, res: ServerResponse, path: string, body: Buffer | string) {
    // POST, or GET for a read (answerNodeRequest sends nothing else).
    this.method = req.method === 'GET' ? 'GET' : 'POST';
    this.path = path;
    this.body = body;
    this.contentType = req.headers['content-type'];
    this.remoteAddress = req.socket.remoteAddress;
    this.#req = req;
    this.#res = res;
  }

  /** Request headers, one string each; flattened on first read (most handlers never read them). */
  get headers(): Record<string, string> {
    return (this.#headers ??= flattenHeaders(this.#req.headers));
  }

  /** Aborted when the client goes away before the answer is out (at once if it already has). */
  get signal(): AbortSignal {
    if (this.#signal === undefined) {
      const res = this.#res;
      const controller = new AbortController();
      const abort = () => controller.abort(new Error('client closed the connection'));
      if (res.closed) {
        if (!res.writableFinished) abort();
      } else {
        res.once('close', () => {
          if (!res.writableFinished) abort();
        });
      }
      this.#signal = controller.signal;
    }
    return this.#signal;
  }
}

/**
 * Calls `done` with the body, or `refused` with 413 once it passes `limit` (by its declared
 * Content-Length before reading), 503 once a chunk does not fit in `budget`, or 408 once it arrives
 * slower than `pace` allows (nothing of a refused body is kept). Each chunk is taken from the budget
 * as it arrives: a declared length costs nothing to announce, so it reserves nothing. What was taken
 * is given back when the body is complete, refused, or its connection dies.
 * The listeners stay on `req`: it is finished either way, and removing them costs more.
 */
function readBody(
  req: IncomingMessage,
  limit: number,
  budget: BodyBudget,
  pace: BodyPace,
  done: (body: Buffer | string) => void,
  refused: (answer: HttpAnswer) => void,
  failed: (error: Error) => void,
): void {
  const preParsed = (req as IncomingMessage & { body?: unknown }).body;
  if (preParsed !== undefined && req.readableEnded) {
    if (typeof preParsed === 'string' || Buffer.isBuffer(preParsed)) return done(preParsed);
    return done(JSON.stringify(preParsed));
  }
  // Node has already checked that Content-Length is one non-negative integer, if present.
  if (Number(req.headers['content-length']) > limit) return refused(PAYLOAD_TOO_LARGE);
  // Most bodies arrive in one chunk: keep it as it is and concatenate only when there are more.
  let first: Buffer | undefined;
  let more: Buffer[] | undefined;
  let finished = false;
  const paced = pace.watch(() => refuseWith(REQUEST_TIMEOUT));
  /** Every way out of reading comes through here once. */
  const finish = () => {
    finished = true;
    pace.unwatch(paced);
    budget.give(paced.received);
    paced.received = 0;
  };
  const refuseWith = (answer: HttpAnswer) => {
    if (finished) return;
    finish();
    first = more = undefined;
    refused(answer);
  };
  req.on('data', (chunk: Buffer) => {
    if (finished) return;
    if (paced.received + chunk.length > limit) return refuseWith(PAYLOAD_TOO_LARGE);
    if (!budget.take(chunk.length)) return refuseWith(SERVICE_UNAVAILABLE);
    paced.received += chunk.length;
    if (first === undefined) {
      first = chunk;
    } else {
      (more ??= [first]).push(chunk);
    }
  });
  req.on('end', () => {
    if (finished) return;
    const size = paced.received;
    finish();
    done(more ? Buffer.concat(more, size) : (first ?? Buffer.alloc(0)));
  });
  req.on('error', (error) => {
    // Also how a connection that dies mid-body shows up ('aborted', ECONNRESET).
    if (finished) return;
    finish();
    failed(error);
  });
}

function flattenHeaders(headers: IncomingMessage['headers']): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const name of Object.keys(headers)) {
    const value = headers[name];
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

function send(res: ServerResponse, answer: HttpAnswer): void {
  if (res.headersSent || res.destroyed) {
    answer.stream?.cancel();
    return;
  }
  if (answer.stream !== undefined) return writeAnswerStream(res, answer, answer.stream);
  // No body, and no Content-Length: a 304's would have to be the full answer's (RFC 9110 §8.6).
  if (answer.status === 204 || answer.status === 304) {
    res.writeHead(answer.status, answer.headers).end();
    return;
  }
  // Copied name by name, not with a spread: Node's writeHead walks the object with for...in, which
  // is about 4x slower over a spread copy (0.96 against 0.23 us per answer, a measurable share of a call).
  const headers: Record<string, string | number> = {};
  for (const name of Object.keys(answer.headers)) headers[name] = answer.headers[name];
  headers['content-length'] = Buffer.byteLength(answer.body);
  res.writeHead(answer.status, headers);
  res.end(answer.body);
}
