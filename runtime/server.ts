/**
 * The transport-independent JSON-RPC 2.0 server core (docs/protocol.md). Adapters (Node http,
 * connect middleware, fetch) only read the body within the size limit and hand it to `handleHttp`;
 * everything the protocol says lives in the core. This file is its front door: the options, the
 * HTTP checks every request passes (verb, media type, size), and the choice between the two
 * bindings. The parts (docs/architecture.md):
 *
 *     json-rpc-binding.ts  JSON-RPC framing and serialization (messages, batches, responses)
 *     rest-binding.ts      routing a path (JSON-RPC, `/<Interface>/<method>`, 404), the REST answers
 *     read-binding.ts      reads over GET: `@readonly` methods with params in the query, ETag, 304
 *                          (query-params.ts, entity-tag.ts, cache-rules.ts: the `cache` option)
 *     result-serializer.ts the `serializers` option: results written by generated serializers
 *     call-pipeline.ts     call execution: params, validation, the handler (and the seam for
 *                          per-call interceptors), its deadline, result validation
 *     method-table.ts      handlers paired with IDL methods at start-up
 *     call-context.ts      the context a handler receives
 *     call-outcome.ts      outcomes, PENDING, failure reporting (shared by the above)
 *     middleware.ts        the `middleware` options, as interceptors of the pipeline
 *     call-observer.ts     the `onCall` hook
 *     call-instrumentation.ts  the `instrumentation` option (tracing: a span per call and batch)
 *     cors.ts              the `cors` option: preflights and the headers of cross-origin answers
 *     declared-error-status.ts  the `httpStatus` option (REST status of declared errors)
 *     http-answer.ts       HttpAnswer and the fixed answers
 *     streams/             stream methods: negotiation, limits, the SSE answer (stream-calls.ts)
 *     mounted-binding.ts   the seam of bindings in their own entry (the `mcp` option: runtime/mcp/)
 */
import { pathnameOf, queryOf } from './base-path.js';
import { BodyBudget } from './body-budget.js';
import type { CacheOptions } from './cache-rules.js';
import { BodyPace, DEFAULT_BODY_GRACE_MS, DEFAULT_MIN_BODY_BYTES_PER_SECOND } from './body-pace.js';
import type { RequestContext } from './call-context.js';
import { instrumentedPipeline, type CallInstrumentation } from './call-instrumentation.js';
import { observedPipeline, type CallEvent } from './call-observer.js';
import { FailureReporter, promiseOf, type MaybePromise, type RpcLogger } from './call-outcome.js';
import { createCallPipeline } from './call-pipeline.js';
import { type ContractMismatchPolicy, createContractCheck } from './contract-check.js';
import { CorsPolicy, type CorsOptions, type CorsRules, type RequestHeaders } from './cors.js';
import { declaredErrorStatuses } from './declared-error-status.js';
import { copyAnswer, jsonHeaders, METHOD_NOT_ALLOWED, PAYLOAD_TOO_LARGE, UNSUPPORTED_MEDIA_TYPE, type HttpAnswer } from './http-answer.js';
import type { IdlJson } from './idl-json.js';
import { createJsonRpcBinding } from './json-rpc-binding.js';
import { isJsonMediaType } from './media-type.js';
import { registerHandlers } from './method-table.js';
import { middlewareInterceptors, type AnyRpcMiddleware } from './middleware.js';
import type { BindingMount } from './mounted-binding.js';
import { createReadBinding } from './read-binding.js';
import { createRestBinding, JSON_RPC, notFound } from './rest-binding.js';
import type { SerializerTable } from './result-serializer.js';
import { createStreamCalls } from './streams/stream-calls.js';
import { streamLimitsOf } from './streams/stream-limits.js';
import { compileValidators, type ValidatorTable } from './validation.js';

export type { RequestContext, RpcContext } from './call-context.js';
export type { RpcLogger } from './call-outcome.js';
export type { ContractMismatch, ContractMismatchPolicy } from './contract-check.js';
export type { CallEvent } from './call-observer.js';
export type { CorsOptions } from './cors.js';
export type { CacheOptions, CacheRule } from './cache-rules.js';
export type { AnswerStream, HttpAnswer } from './http-answer.js';
export { httpStatusOfError } from './rest-binding.js';
export type { BindingMount, BindingParts, MountedBinding, MountedRequest } from './mounted-binding.js';

export interface RpcServerOptions {
  /** The IDL as JSON (served by `rpc-idl`, and the source of validators when none are given). */
  idl: IdlJson;
  /** One handler object per interface, keyed by interface name. */
  handlers: Record<string, object>;
  /** Validators compiled ahead of time by generated code; built from `idl` when absent. */
  validators?: ValidatorTable;
  /**
   * Result serializers generated from the IDL, keyed `"<Interface>.<method>"` (generated servers
   * pass their own): a result is written with its known fields only, extra keys dropped
   * (docs/protocol.md, "Results are written field by field"), and falls back to `JSON.stringify`
   * when it is not what the IDL says. Default none: every result goes through `JSON.stringify`.
   */
  serializers?: SerializerTable;
  /** Check params before the handler runs. Default true. */
  validateRequests?: boolean;
  /** Check results before they are sent. Default true. */
  validateResponses?: boolean;
  /** Send the text and stack of unexpected handler errors to clients (dev servers only). Default false. */
  exposeErrors?: boolean;
  /** Largest batch accepted. Default 100. */
  maxBatchSize?: number;
  /** Largest body accepted, in bytes. Default 1 MiB. */
  maxBodyBytes?: number;
  /**
   * Most bytes of request bodies held at once while they arrive, over all connections; a body
   * that does not fit gets HTTP 503. At least `maxBodyBytes`. Default 64 MiB (or `maxBodyBytes`
   * when that is larger); `Infinity` turns the budget off.
   */
  maxBodyBytesInFlight?: number;
  /**
   * Time every request body has to arrive, in milliseconds, before `minBodyBytesPerSecond` adds
   * to it; a body still arriving when its time is up gets HTTP 408 and its connection closes.
   * Default 10 000; `Infinity` turns the check off.
   */
  bodyGraceMs?: number;
  /**
   * Each this many bytes a body has sent give it one second more than `bodyGraceMs`: a body must
   * arrive at this pace on average. Default 8 192.
   */
  minBodyBytesPerSecond?: number;
  /** Deepest JSON nesting accepted. Default 128. */
  maxDepth?: number;
  /**
   * A handler taking longer fails with -32603 and its `ctx.signal` is aborted (checked ten times per
   * this length, so at most a tenth later). 0 = no limit. Default 30 000.
   */
  handlerTimeoutMs?: number;
  /** Where unexpected errors are logged. Default `console`. */
  logger?: RpcLogger;
  /**
   * An OpenAPI document to serve on `GET openApiPath` (and `HEAD`), e.g. the `openapi.json` the
   * plugin or `idlrpc -idl-to-openapi` wrote. Default: none (every GET is 405).
   */
  openApiDocument?: object;
  /** Where `openApiDocument` is served. Default `/openapi.json`. */
  openApiPath?: string;
  /**
   * An OpenRPC document (docs/openrpc.md), e.g. the `openrpc.json` the plugin or `idlrpc
   * -idl-to-openrpc` wrote: served on `GET openRpcPath` (and `HEAD`) and, unless `rpcDiscover` is
   * false, as the result of the method `rpc.discover`. Default: none.
   */
  openRpcDocument?: object;
  /** Where `openRpcDocument` is served. Default `/openrpc.json`. */
  openRpcPath?: string;
  /**
   * Whether `rpc.discover` answers `openRpcDocument` (OpenRPC's service discovery). Default `true`
   * when a document is given; without one, or with `false`, `rpc.discover` is an unknown method (-32601).
   */
  rpcDiscover?: boolean;
  /**
   * Method names that answer the IDL besides `rpc-idl`, for clients of other implementations that
   * ask under their own name first (e.g. `['pulserpc-idl', 'barrister-idl']`). Default none.
   */
  idlMethodNames?: readonly string[];
  /**
   * Calls from clients generated from another version of the method's interface (their
   * `x-idlrpc-contract` header differs from this server's fingerprint, docs/protocol.md): `'log'`
   * the first call of each client version, `'reject'` each with error -32001, or a function called
   * for each (count them; return `'reject'` to refuse). Default: not checked.
   */
  contractMismatch?: ContractMismatchPolicy;
  /**
   * Cross-origin calls from browsers: allowed origins, credentials, max age, allowed and exposed
   * headers (docs/runtime.md, "CORS"). Default off: no CORS headers, every OPTIONS is 405.
   */
  cors?: CorsOptions;
  /** Middleware around every call, the first outermost (docs/runtime.md, "Middleware"). Default none. */
  middleware?: readonly AnyRpcMiddleware[];
  /**
   * Middleware of one interface (`"CartService"`) or one method (`"CartService.addToCart"`), run
   * inside `middleware`, the interface's before the method's. Default none.
   */
  middlewareFor?: Readonly<Record<string, readonly AnyRpcMiddleware[]>>;
  /**
   * The REST binding's HTTP status for declared errors, by IDL error name, e.g.
   * `{ Unauthorized: 401, Forbidden: 403 }`; others are 422. (Give the same map to the OpenAPI
   * generator so openapi.json lists these answers.) Default none.
   */
  httpStatus?: Readonly<Record<string, number>>;
  /**
   * How the GET answers of `@readonly` methods may be cached, by `"<Interface>.<method>"`:
   * `Cache-Control` (`maxAgeSeconds`, `sharedMaxAgeSeconds`, `staleWhileRevalidateSeconds`,
   * `private`, `noCache`) and `etag` (default true: an `ETag`, and 304 for `If-None-Match`)
   * (docs/runtime.md, "Reads over GET"). Default: an ETag and no Cache-Control for every one.
   */
  cache?: CacheOptions;
  /** Told of every answered call: method, id, duration, outcome (for logs and metrics). Default none. */
  onCall?: (event: CallEvent) => void;
  /**
   * Tracing: each call (and batch) started, run and ended through it, e.g. the OpenTelemetry
   * adapter's (`unplugin-idl-rpc/runtime/adapters/opentelemetry`). Default none.
   */
  instrumentation?: CallInstrumentation;
  /**
   * Streams (stream methods' calls) open at once; past it a new stream gets HTTP 503 with error
   * -32000 `Server busy: ...`. Default 1 000.
   */
  maxStreams?: number;
  /**
   * Longest wait for a stream handler's next item, in milliseconds: then the stream ends with a
   * reconnect message and the handler's `ctx.signal` aborts. Default 300 000; `Infinity` turns it off.
   */
  streamIdleTimeoutMs?: number;
  /** Longest life of one stream, in milliseconds, ended the same way. Default 3 600 000; `Infinity` turns it off. */
  streamMaxDurationMs?: number;
  /** A heartbeat comment after this long without a chunk, in milliseconds. Default 15 000; `Infinity` sends none. */
  streamHeartbeatMs?: number;
  /** The reconnect delay a reconnect message tells clients (SSE `retry:`), in milliseconds. Default 1 000. */
  streamRetryMs?: number;
  /**
   * The MCP binding (docs/mcp.md): `mcpBinding({...})` from `unplugin-idl-rpc/runtime/mcp`, which
   * answers POSTs to its path (default `/mcp`) before the JSON-RPC and REST bindings. Default none.
   */
  mcp?: BindingMount;
}

/** An HTTP request whose body has already been read (adapters enforce `maxBodyBytes` while reading). */
export interface HttpRequestLike extends RequestContext {
  method: string;
  /**
   * The request path under the binding's base (the whole path when the binding is at `/`): `/` and
   * one segment below it are JSON-RPC, `.../<Interface>/<method>` of a registered method the REST
   * binding, anything else 404. The query is ignored, except by a GET of a `@readonly` method,
   * whose params it holds (`answersGet`).
   */
  path: string;
  body: string | Uint8Array;
  /** The Content-Type header; when absent, `headers['content-type']` is read. It must name JSON (HTTP 415 otherwise). */
  contentType?: string;
}

export interface RpcServer {
  readonly idl: IdlJson;
  readonly maxBodyBytes: number;
  /** Bytes of bodies being received, shared by every adapter of this server (`maxBodyBytesInFlight`). */
  readonly bodyBudget: BodyBudget;
  /** The pace bodies must keep while they arrive (`bodyGraceMs`, `minBodyBytesPerSecond`), shared by every adapter of this server. */
  readonly bodyPace: BodyPace;
  /**
   * The `cors` option, checked; undefined when CORS is off. Adapters pass the answers they make
   * themselves (413, 415, 404, ...) through `cors.decorate(answer, origin)`.
   */
  readonly cors: CorsRules | undefined;
  /** `"<Interface>.<method>"` of every method with a registered handler. */
  readonly methodNames: ReadonlySet<string>;
  /** The path the `mcp` binding answers (docs/mcp.md); undefined without one. */
  readonly mcpPath: string | undefined;
  /** Answers one parsed JSON-RPC message or batch; `undefined` when nothing is to be sent. */
  handleJson(message: unknown, ctx?: RequestContext): Promise<unknown | undefined>;
  /** Answers a JSON-RPC body: 200 with JSON, or 204 when there is no response. */
  handleBody(body: string | Uint8Array, ctx?: RequestContext): Promise<HttpAnswer>;
  /**
   * Answers any HTTP request: 405, 415, 413, JSON-RPC, the OpenAPI binding (`/<Interface>/<method>`),
   * a GET of a `@readonly` method (its params in the query of `path`) or 404.
   */
  handleHttp(request: HttpRequestLike): Promise<HttpAnswer>;
  /**
   * Whether a GET of `path` (under the binding's base; a query is ignored) is a call: the GET form
   * of a `@readonly` method (docs/protocol.md, "Reads over GET"). Adapters give such a GET, with its
   * query, to `handleHttp`, and every other request without a body to `answerWithoutCall`.
   */
  answersGet(path: string): boolean;
  /**
   * The answer to a request that carries no call (any verb but POST): a CORS preflight's 204 (with
   * `cors`, from an allowed origin), the OpenAPI or OpenRPC document for `GET`/`HEAD` on `openApiPath` / `openRpcPath` when
   * one is configured, 405 otherwise. Adapters answer such requests with it before reading any
   * body; `headers` (lower-case names) are needed for CORS only.
   */
  answerWithoutCall(method: string, path: string, headers?: RequestHeaders): HttpAnswer;
  /**
   * Ends every open stream with a reconnect message (its client resumes, on this server once it is
   * back or on another), aborts their handlers, and resolves when every handler has finished.
   * Streams asked for after it get HTTP 503. Adapters' `shutdown()` call it first.
   */
  closeStreams(): Promise<void>;
  /** The streams open now (started, and their handlers not finished). */
  readonly openStreams: number;
}

export const DEFAULTS = {
  maxBatchSize: 100,
  maxBodyBytes: 1024 * 1024,
  maxBodyBytesInFlight: 64 * 1024 * 1024,
  maxDepth: 128,
  handlerTimeoutMs: 30_000,
} as const;

/** Creates the server core. Throws at once when handlers do not fit the IDL. */
export function createRpcServer(options: RpcServerOptions): RpcServer {
  const { idl } = options;
  const validateRequests = options.validateRequests ?? true;
  const validateResponses = options.validateResponses ?? true;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULTS.maxBodyBytes;
  const bodyBudget = new BodyBudget(bodyBytesInFlight(options.maxBodyBytesInFlight, maxBodyBytes));
  const bodyPace = new BodyPace(
    positiveOption('bodyGraceMs', options.bodyGraceMs, DEFAULT_BODY_GRACE_MS, true),
    positiveOption('minBodyBytesPerSecond', options.minBodyBytesPerSecond, DEFAULT_MIN_BODY_BYTES_PER_SECOND, false),
  );
  const maxDepth = options.maxDepth ?? DEFAULTS.maxDepth;
  // A message alone is logged alone (console.error(message, undefined) would add "undefined").
  const logger: RpcLogger = options.logger ?? {
    error: (message, error) => (error === undefined ? console.error(message) : console.error(message, error)),
  };
  const failures = new FailureReporter(logger, options.exposeErrors ?? false);
  const validators: ValidatorTable = options.validators ?? (validateRequests || validateResponses ? compileValidators(idl) : {});
  const methods = registerHandlers(idl, options.handlers);
  const openApi = servedDocument('openApi', options.openApiDocument, options.openApiPath ?? '/openapi.json');
  const openRpc = servedDocument('openRpc', options.openRpcDocument, options.openRpcPath ?? '/openrpc.json');
  if (openApi && openRpc && openApi.path === openRpc.path) {
    throw new Error(
      `createRpcServer: openApiPath and openRpcPath are both ${JSON.stringify(openApi.path)}; serve the two documents at two paths`,
    );
  }

  const interceptors = middlewareInterceptors(methods, options.middleware, options.middlewareFor);
  const pipeline = createCallPipeline({
    validators,
    validateRequests,
    validateResponses,
    handlerTimeoutMs: options.handlerTimeoutMs ?? DEFAULTS.handlerTimeoutMs,
    failures,
    contractCheck: createContractCheck(options.contractMismatch, idl, logger),
    interceptors: interceptors.everyCall,
    interceptorsByMethod: interceptors.byMethod,
  });
  const observed = options.onCall === undefined ? pipeline : observedPipeline(pipeline, options.onCall, failures);
  const { instrumentation } = options;
  const calls = instrumentation === undefined ? observed : instrumentedPipeline(observed, instrumentation, failures);
  const maxBatchSize = options.maxBatchSize ?? DEFAULTS.maxBatchSize;
  const streams = createStreamCalls({ calls, failures, limits: streamLimitsOf(options) });
  const jsonRpc = createJsonRpcBinding({
    idl,
    idlMethodNames: checkedIdlMethodNames(options.idlMethodNames, methods),
    discoverDocument: options.rpcDiscover === false ? undefined : options.openRpcDocument,
    methods,
    calls,
    failures,
    maxBatchSize,
    maxDepth,
    startBatch: instrumentation?.startBatch ? (size, request) => instrumentation.startBatch!({ size, request }) : undefined,
    serializers: options.serializers,
    streams,
  });
  const mcp = options.mcp?.({ idl, methods, calls, failures, maxDepth, maxBatchSize, serializers: options.serializers });
  const rest = createRestBinding({
    methods,
    calls,
    failures,
    maxDepth,
    errorStatus: declaredErrorStatuses(idl, options.httpStatus),
    serializers: options.serializers,
    streams,
  });
  const reads = createReadBinding({ methods, rest, cache: options.cache, maxQueryLength: maxBodyBytes, maxDepth });
  const cors = options.cors === undefined ? undefined : new CorsPolicy(options.cors, mcp?.requestHeaders, reads.any ? 'GET, POST' : 'POST');

  function answerWithoutCall(method: string, path: string, headers?: RequestHeaders): HttpAnswer {
    const served = method === 'GET' || method === 'HEAD' ? [openApi, openRpc].find((d) => d?.path === pathnameOf(path)) : undefined;
    if (served) {
      const document = { status: 200, headers: jsonHeaders(), body: method === 'HEAD' ? '' : served.text };
      return cors && headers ? cors.decorate(document, firstOf(headers.origin)) : document;
    }
    return cors?.preflight(method, headers) ?? copyAnswer(METHOD_NOT_ALLOWED);
  }

  /** With CORS on, every answer to a call says whether the caller's origin may read it. */
  function answerHttpWithCors(request: HttpRequestLike): MaybePromise<HttpAnswer> {
    const answer = answerHttp(request);
    const verb = request.method.toUpperCase();
    // Other verbs got answerWithoutCall's answer, which has its CORS headers already.
    if (cors === undefined || (verb !== 'POST' && !(verb === 'GET' && answersGet(request.path)))) return answer;
    const origin = request.headers?.origin;
    return answer instanceof Promise ? answer.then((settled) => cors.decorate(settled, origin)) : cors.decorate(answer, origin);
  }

  // Returns the answer directly when every handler involved returned a plain value; the public
  // handle* methods wrap it so they always return a promise, as documented.
  function answerHttp(request: HttpRequestLike): MaybePromise<HttpAnswer> {
    const method = request.method;
    if (method !== 'POST' && method.toUpperCase() !== 'POST') {
      const verb = method.toUpperCase();
      const read = verb === 'GET' ? reads.route(pathnameOf(request.path)) : undefined;
      if (read !== undefined) return reads.answer(read, queryOf(request.path), request);
      return answerWithoutCall(verb, request.path, request.headers);
    }
    // The MCP binding checks the Origin before anything else, so it sees its POSTs first.
    if (mcp !== undefined && pathnameOf(request.path) === mcp.path) {
      // Adapters refuse such a body while reading it; this covers bodies given to handleHttp directly (stdio).
      return exceedsLimit(request.body, maxBodyBytes) ? copyAnswer(PAYLOAD_TOO_LARGE) : mcp.answer(request);
    }
    if (!isJsonMediaType(request.contentType ?? request.headers?.['content-type'])) return copyAnswer(UNSUPPORTED_MEDIA_TYPE);
    if (exceedsLimit(request.body, maxBodyBytes)) return copyAnswer(PAYLOAD_TOO_LARGE);
    const pathname = pathnameOf(request.path);
    const route = rest.route(pathname);
    if (route === JSON_RPC) return jsonRpc.answerBody(request.body, request);
    return route ? rest.answer(route, request.body, request) : notFound(pathname);
  }

  function answersGet(path: string): boolean {
    return reads.route(pathnameOf(path)) !== undefined;
  }

  return {
    idl,
    maxBodyBytes,
    bodyBudget,
    bodyPace,
    cors,
    methodNames: new Set(methods.keys()),
    mcpPath: mcp?.path,
    handleJson: (message, request = {}) => promiseOf(() => jsonRpc.answerJson(message, request)),
    handleBody: (body, request = {}) => promiseOf(() => jsonRpc.answerBody(body, request)),
    handleHttp:
      cors === undefined ? (request) => promiseOfAnswer(answerHttp, request) : (request) => promiseOfAnswer(answerHttpWithCors, request),
    answerWithoutCall,
    answersGet,
    closeStreams: () => streams.close(),
    get openStreams() {
      return streams.open;
    },
  };
}

/** A served document (OpenAPI, OpenRPC), serialized once; undefined when none is configured. */
function servedDocument(
  option: 'openApi' | 'openRpc',
  document: object | undefined,
  path: string,
): { path: string; text: string } | undefined {
  if (document === undefined) return undefined;
  if (!path.startsWith('/')) throw new Error(`${option}Path must start with '/', got ${JSON.stringify(path)}`);
  return { path, text: JSON.stringify(document) };
}

/** `idlMethodNames` as a set; throws when one is not a usable method name or shadows a method. */
function checkedIdlMethodNames(names: readonly string[] | undefined, methods: ReadonlyMap<string, unknown>): ReadonlySet<string> {
  if (names === undefined) return new Set();
  if (!Array.isArray(names)) throw new Error('createRpcServer: idlMethodNames must be an array of method names');
  for (const name of names) {
    if (typeof name !== 'string' || name === '') {
      throw new Error(`createRpcServer: idlMethodNames must hold non-empty strings, got ${JSON.stringify(name)}`);
    }
    if (methods.has(name)) throw new Error(`createRpcServer: idlMethodNames: "${name}" is a method of the IDL`);
  }
  return new Set(names);
}

const utf8Encoder = new TextEncoder();

/** Whether a body's UTF-8 size is past `limit`; encodes a string only when its length cannot decide. */
/**
 * `answer(request)` as a promise, a synchronous throw a rejection: `promiseOf` without the
 * closure it would take per request.
 */
function promiseOfAnswer(answer: (request: HttpRequestLike) => MaybePromise<HttpAnswer>, request: HttpRequestLike): Promise<HttpAnswer> {
  try {
    return Promise.resolve(answer(request));
  } catch (error) {
    return Promise.reject(error);
  }
}

function exceedsLimit(body: string | Uint8Array, limit: number): boolean {
  if (typeof body !== 'string') return body.byteLength > limit;
  // A UTF-16 code unit takes 1 to 3 UTF-8 bytes.
  if (body.length > limit) return true;
  if (body.length * 3 <= limit) return false;
  return utf8Encoder.encode(body).byteLength > limit;
}

/** `maxBodyBytesInFlight`, checked: a budget smaller than one body would refuse every large body. */
function bodyBytesInFlight(option: number | undefined, maxBodyBytes: number): number {
  if (option === undefined) return Math.max(DEFAULTS.maxBodyBytesInFlight, maxBodyBytes);
  if (!(option >= maxBodyBytes)) {
    throw new Error(
      `createRpcServer: maxBodyBytesInFlight (${option}) must be a number of bytes of at least maxBodyBytes (${maxBodyBytes})`,
    );
  }
  return option;
}

/** A positive number option (`Infinity` only when `infinite` allows it), or `fallback` when not given. */
function positiveOption(name: string, option: number | undefined, fallback: number, infinite: boolean): number {
  if (option === undefined) return fallback;
  if (!(option > 0) || (!infinite && option === Number.POSITIVE_INFINITY)) {
    throw new Error(`createRpcServer: ${name} (${option}) must be a positive number${infinite ? ' or Infinity' : ''}`);
  }
  return option;
}

function firstOf(value: string | readonly string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : value?.[0];
}
