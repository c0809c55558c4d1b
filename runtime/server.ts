/**
 * The transport-independent JSON-RPC 2.0 server core (docs/protocol.md). Adapters (Node
 * http, connect middleware, fetch) only read the body within the size limit and hand it to
 * `handleHttp`; everything the protocol says lives here.
 */
import { ErrorCode, RPCError } from './errors.js';
import type { IdlJson, IdlJsonMethod } from './idl-json.js';
import { BodyBudget } from './body-budget.js';
import { DeadlineQueue } from './deadline-queue.js';
import { parseJsonBody } from './json-body.js';
import { isJsonMediaType } from './media-type.js';
import { compileValidators, formatPath, MAX_ISSUES, type ValidationIssue, type ValidatorTable } from './validation.js';

/** What the transport knows about the HTTP request a call arrived in. */
export interface RequestContext {
  /** Request headers, names lower-cased. */
  headers?: Record<string, string>;
  remoteAddress?: string;
  /** Aborted when the client goes away. */
  signal?: AbortSignal;
}

/** The context passed to a handler method as its last argument. */
export interface RpcContext {
  headers: Record<string, string>;
  remoteAddress?: string;
  /** The JSON-RPC id; `undefined` for a notification, `null` for the OpenAPI binding. */
  id: string | number | null | undefined;
  /** `"<Interface>.<method>"`. */
  method: string;
  /** Aborted when the client goes away or the handler times out. */
  signal: AbortSignal;
}

export interface RpcLogger {
  error(message: string, error?: unknown): void;
}

export interface RpcServerOptions {
  /** The IDL as JSON (served by `rpc-idl`, and the source of validators when none are given). */
  idl: IdlJson;
  /** One handler object per interface, keyed by interface name. */
  handlers: Record<string, object>;
  /** Validators compiled ahead of time by generated code; built from `idl` when absent. */
  validators?: ValidatorTable;
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
  /** Deepest JSON nesting accepted. Default 128. */
  maxDepth?: number;
  /** A handler taking longer fails with -32603 and its `ctx.signal` is aborted. 0 = no limit. Default 30 000. */
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
}

/** An HTTP answer, independent of any HTTP library. */
export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** An HTTP request whose body has already been read (adapters enforce `maxBodyBytes` while reading). */
export interface HttpRequestLike extends RequestContext {
  method: string;
  /** The request path (a query string is ignored). */
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
  /** `"<Interface>.<method>"` of every method with a registered handler. */
  readonly methodNames: ReadonlySet<string>;
  /** Answers one parsed JSON-RPC message or batch; `undefined` when nothing is to be sent. */
  handleJson(message: unknown, ctx?: RequestContext): Promise<unknown | undefined>;
  /** Answers a JSON-RPC body: 200 with JSON, or 204 when there is no response. */
  handleBody(body: string | Uint8Array, ctx?: RequestContext): Promise<HttpAnswer>;
  /** Answers any HTTP request: 405, 415, 413, the OpenAPI binding (`.../<Interface>/<method>`) or JSON-RPC. */
  handleHttp(request: HttpRequestLike): Promise<HttpAnswer>;
  /**
   * The answer to a request that carries no call (any verb but POST): the OpenAPI document for
   * `GET`/`HEAD` on `openApiPath` when one is configured, 405 otherwise. Adapters answer such
   * requests with it before reading any body.
   */
  answerWithoutCall(method: string, path: string): HttpAnswer;
}

type JsonRpcId = string | number | null;
type ErrorObject = { code: number; message: string; data?: unknown };
type Outcome = { result: unknown } | { error: ErrorObject };
type MaybePromise<T> = T | Promise<T>;

interface MethodEntry {
  name: string;
  method: IdlJsonMethod;
  parameterNames: string[];
  handler: object;
  fn: (...args: unknown[]) => unknown;
}

const JSON_HEADERS = { 'content-type': 'application/json' };
/** A fresh headers object per answer (callers may change it); a literal is cheaper than a spread. */
const jsonHeaders = (): Record<string, string> => ({ 'content-type': 'application/json' });
const INTERNAL_ERROR = 'Internal error';

export const DEFAULTS = {
  maxBatchSize: 100,
  maxBodyBytes: 1024 * 1024,
  maxBodyBytesInFlight: 64 * 1024 * 1024,
  maxDepth: 128,
  handlerTimeoutMs: 30_000,
} as const;

/** HTTP answer for a non-POST request (seed: exact body). */
export const METHOD_NOT_ALLOWED: HttpAnswer = {
  status: 405,
  headers: { ...JSON_HEADERS, allow: 'POST' },
  body: '{"error":"Method Not Allowed"}',
};

/** HTTP answer for a body past `maxBodyBytes`. */
export const PAYLOAD_TOO_LARGE: HttpAnswer = {
  status: 413,
  headers: { ...JSON_HEADERS, connection: 'close' },
  body: '{"error":"Payload Too Large"}',
};

/** HTTP answer for a request whose Content-Type is not JSON (see media-type.ts for why). */
export const UNSUPPORTED_MEDIA_TYPE: HttpAnswer = {
  status: 415,
  headers: { ...JSON_HEADERS },
  body: '{"error":"Unsupported Media Type","message":"Content-Type must be application/json"}',
};

/** HTTP answer for a body that does not fit in `maxBodyBytesInFlight` now. */
export const SERVICE_UNAVAILABLE: HttpAnswer = {
  status: 503,
  headers: { ...JSON_HEADERS, connection: 'close', 'retry-after': '1' },
  body: '{"error":"Service Unavailable","message":"too many request bodies in flight, retry later"}',
};

/** HTTP answer for a body whose stream failed before it was read completely. */
export const BODY_UNREADABLE: HttpAnswer = {
  status: 400,
  headers: { ...JSON_HEADERS, connection: 'close' },
  body: '{"error":"Bad Request","message":"the request body could not be read"}',
};

/** A copy of one of the constant answers above, which callers may change. */
function copyAnswer(answer: HttpAnswer): HttpAnswer {
  return { ...answer, headers: { ...answer.headers } };
}

/**
 * HTTP status of an error in the OpenAPI binding: bad input 400, unknown method 404, declared
 * and other application errors 422, internal and other reserved codes 500.
 */
export function httpStatusOfError(code: number): number {
  if (code === ErrorCode.ParseError || code === ErrorCode.InvalidRequest || code === ErrorCode.InvalidParams) return 400;
  if (code === ErrorCode.MethodNotFound) return 404;
  if (code >= -32768 && code <= -32000) return 500;
  return 422;
}

/** Creates the server core. Throws at once when handlers do not fit the IDL. */
export function createRpcServer(options: RpcServerOptions): RpcServer {
  const { idl } = options;
  const validateRequests = options.validateRequests ?? true;
  const validateResponses = options.validateResponses ?? true;
  const exposeErrors = options.exposeErrors ?? false;
  const maxBatchSize = options.maxBatchSize ?? DEFAULTS.maxBatchSize;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULTS.maxBodyBytes;
  const bodyBudget = new BodyBudget(bodyBytesInFlight(options.maxBodyBytesInFlight, maxBodyBytes));
  const maxDepth = options.maxDepth ?? DEFAULTS.maxDepth;
  const handlerTimeoutMs = options.handlerTimeoutMs ?? DEFAULTS.handlerTimeoutMs;
  const logger: RpcLogger = options.logger ?? { error: (message, error) => console.error(message, error) };
  const validators: ValidatorTable =
    options.validators ?? (validateRequests || validateResponses ? compileValidators(idl) : {});
  const methods = registerHandlers(idl, options.handlers);
  const openApi = servedDocument(options.openApiDocument, options.openApiPath);

  const errorOutcome = (code: number, message: string, data?: unknown): Outcome => ({
    error: data === undefined ? { code, message } : { code, message, data },
  });

  const log = (message: string, error?: unknown) => {
    try {
      logger.error(message, error);
    } catch {
      // A broken logger must not turn one failed call into a crashed server.
    }
  };

  const internalError = (context: string, error: unknown): Outcome => {
    log(`${context} failed`, error);
    if (!exposeErrors) return errorOutcome(ErrorCode.InternalError, INTERNAL_ERROR);
    const detail = error instanceof Error ? { message: describe(error.message), stack: describe(error.stack) } : { message: describe(error) };
    return errorOutcome(ErrorCode.InternalError, INTERNAL_ERROR, detail);
  };

  /** Maps params (positional, named, or none) to IDL order, or lists what is wrong. */
  function argumentsOf(entry: MethodEntry, params: unknown): { args: unknown[] } | { issues: ValidationIssue[] } {
    const names = entry.parameterNames;
    const count = `${names.length} parameter${names.length === 1 ? '' : 's'}`;
    if (params === undefined || params === null) {
      return names.length === 0 ? { args: [] } : { issues: [{ path: ['params'], message: `expected ${count} (${names.join(', ')}), got none` }] };
    }
    if (Array.isArray(params)) {
      if (params.length === names.length) return { args: params };
      return { issues: [{ path: ['params'], message: `expected ${count}, got ${params.length}` }] };
    }
    const named = params as Record<string, unknown>;
    const issues: ValidationIssue[] = [];
    for (const key of Object.keys(named)) {
      if (!names.includes(key)) issues.push({ path: ['params', key], message: `unknown parameter '${key}'` });
    }
    for (const name of names) {
      if (!Object.hasOwn(named, name)) issues.push({ path: ['params'], message: `missing parameter '${name}'` });
    }
    return issues.length > 0 ? { issues } : { args: names.map((name) => named[name]) };
  }

  // One timer for every pending handler of this server instead of one per call (docs/benchmarks.md).
  const deadlines = handlerTimeoutMs > 0 ? new DeadlineQueue(handlerTimeoutMs) : undefined;

  /**
   * Runs one call of a known method: params, validation, the handler, result validation. Returns
   * the outcome directly when the handler returns a plain value, so a synchronous handler costs no
   * promise at all. Otherwise returns PENDING and calls `deliver` exactly once, later (never
   * synchronously): when the handler settles or its deadline passes. Callbacks instead of a promise
   * per call: in a batch, a promise wrapping every member cost about a tenth of the throughput.
   */
  function execute(
    entry: MethodEntry,
    params: unknown,
    id: JsonRpcId | undefined,
    request: RequestContext,
    deliver: (outcome: Outcome) => void,
  ): Outcome | typeof PENDING {
    const mapped = argumentsOf(entry, params);
    if ('issues' in mapped) return invalidParams(mapped.issues);
    const { args } = mapped;
    const methodValidators = validators[entry.name];
    if (validateRequests && methodValidators) {
      let issues: ValidationIssue[] | undefined;
      const keyed = !Array.isArray(params) && params !== null && params !== undefined;
      for (let index = 0; index < args.length; index++) {
        const validator = methodValidators.params[index];
        const arg = args[index];
        if (validator && !validator.check(arg)) {
          const prefix = ['params', keyed ? entry.parameterNames[index] : index];
          for (const issue of validator.errors(arg)) (issues ??= []).push({ path: [...prefix, ...issue.path], message: issue.message });
        }
      }
      if (issues) return invalidParams(issues);
    }

    const ctx = new CallContext(request, id, entry.name);
    let pending: Promise<unknown>;
    try {
      const value: unknown = entry.fn.apply(entry.handler, [...args, ctx]);
      if (value instanceof Promise) {
        pending = value;
      } else {
        const then = thenOf(value);
        if (then === undefined) return resultOutcome(entry, value);
        // A foreign thenable: adopt it the way `await` would, a throwing `then` becoming a failure.
        pending = new Promise((resolve, reject) => then.call(value, resolve, reject));
      }
    } catch (error) {
      return failureOutcome(entry, error);
    }

    if (deadlines === undefined) {
      pending.then(
        (result) => deliver(resultOutcome(entry, result)),
        (error: unknown) => deliver(failureOutcome(entry, error)),
      );
      return PENDING;
    }
    // Whichever comes first answers: the handler settling, or its deadline (which also aborts
    // ctx.signal). The queue never expires a deleted deadline, so only `timedOut` needs checking.
    let timedOut = false;
    const deadline = deadlines.add(() => {
      timedOut = true;
      const timeoutError = new Error(`${entry.name} did not finish within ${handlerTimeoutMs} ms`);
      CallContext.abort(ctx, timeoutError);
      deliver(failureOutcome(entry, timeoutError));
    });
    pending.then(
      (result) => {
        if (timedOut) return;
        deadlines.delete(deadline);
        deliver(resultOutcome(entry, result));
      },
      (error: unknown) => {
        if (timedOut) return;
        deadlines.delete(deadline);
        deliver(failureOutcome(entry, error));
      },
    );
    return PENDING;
  }

  /** A handler's result: `undefined` becomes null, then the result is checked when asked to. */
  function resultOutcome(entry: MethodEntry, result: unknown): Outcome {
    if (result === undefined) result = null;
    const methodValidators = validators[entry.name];
    if (validateResponses && methodValidators && !methodValidators.result.check(result)) {
      const errors = methodValidators.result.errors(result).map((issue) => ({ path: formatPath(['result', ...issue.path]), message: issue.message }));
      log(`${entry.name} returned an invalid result: ${errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`);
      return errorOutcome(ErrorCode.InternalError, `${INTERNAL_ERROR}: invalid result of ${entry.name}`, exposeErrors ? { errors } : undefined);
    }
    return { result };
  }

  /** A handler's failure: an RPCError is sent as it is, anything else is an internal error. */
  function failureOutcome(entry: MethodEntry, error: unknown): Outcome {
    if (error instanceof RPCError) return errorOutcome(error.code, error.message, error.data);
    return internalError(entry.name, error);
  }

  function invalidParams(issues: ValidationIssue[]): Outcome {
    const errors = issues.slice(0, MAX_ISSUES).map((issue) => ({ path: formatPath(issue.path), message: issue.message }));
    return errorOutcome(ErrorCode.InvalidParams, `Invalid params: ${errors[0].path}: ${errors[0].message}`, { errors });
  }

  // The answer* functions below return a value directly when every handler involved returned a
  // plain value, and a promise otherwise: each `async` layer would cost a promise and a tick per
  // call. The public handle* methods wrap them so they always return a promise, as documented.

  /**
   * One JSON-RPC message (not a batch): a response object, or undefined for a notification; or
   * PENDING, and the same later through `deliver`.
   */
  function answerMessage(
    message: unknown,
    request: RequestContext,
    deliver: (response: object | undefined) => void,
  ): object | undefined | typeof PENDING {
    if (typeof message !== 'object' || message === null || Array.isArray(message)) {
      return errorResponse(null, ErrorCode.InvalidRequest, 'Invalid Request: expected a JSON object');
    }
    const m = message as Record<string, unknown>;
    const isNotification = !Object.hasOwn(m, 'id');
    const id = m.id;
    if (!isNotification && id !== null && typeof id !== 'string') {
      if (typeof id !== 'number') return errorResponse(null, ErrorCode.InvalidRequest, 'Invalid Request: id must be a string, a number or null');
      // 1e400 parses as Infinity, which JSON cannot send back: the answer would carry a different id.
      if (!Number.isFinite(id)) return errorResponse(null, ErrorCode.InvalidRequest, 'Invalid Request: id must be a finite number');
    }
    const replyId = isNotification ? null : (id as JsonRpcId);
    if (m.jsonrpc !== '2.0') return errorResponse(replyId, ErrorCode.InvalidRequest, 'Invalid Request: jsonrpc must be "2.0"');
    if (typeof m.method !== 'string' || m.method === '') {
      return errorResponse(replyId, ErrorCode.InvalidRequest, 'Invalid Request: method must be a non-empty string');
    }
    if (m.params !== undefined && m.params !== null && typeof m.params !== 'object') {
      return errorResponse(replyId, ErrorCode.InvalidRequest, 'Invalid Request: params must be an array or an object');
    }

    const respond = (settled: Outcome): object | undefined => {
      if (isNotification) return undefined;
      return 'error' in settled ? { jsonrpc: '2.0', error: settled.error, id: replyId } : { jsonrpc: '2.0', result: settled.result, id: replyId };
    };
    if (m.method === 'rpc-idl') return respond({ result: idl });
    const entry = methods.get(m.method);
    if (entry === undefined) return respond(errorOutcome(ErrorCode.MethodNotFound, `Method not found: ${m.method}`));
    const outcome = execute(entry, m.params, isNotification ? undefined : replyId, request, (settled) => deliver(respond(settled)));
    return outcome === PENDING ? PENDING : respond(outcome);
  }

  function errorResponse(id: JsonRpcId, code: number, message: string): object {
    return { jsonrpc: '2.0', error: { code, message }, id };
  }

  /** A message or a batch: the response(s), or undefined when nothing is to be sent. */
  function answerJson(message: unknown, request: RequestContext): MaybePromise<unknown | undefined> {
    if (!Array.isArray(message)) return settleLater((deliver) => answerMessage(message, request, deliver));
    if (message.length === 0) return errorResponse(null, ErrorCode.InvalidRequest, 'Invalid Request: empty batch');
    if (message.length > maxBatchSize) {
      return errorResponse(null, ErrorCode.InvalidRequest, `Invalid Request: batch of ${message.length} messages exceeds the limit of ${maxBatchSize}`);
    }
    // Members run concurrently (all are started before any is awaited); responses keep request order.
    // One promise for the whole batch, made only when some member is pending.
    const answers: (object | undefined)[] = new Array(message.length);
    let waiting = 0;
    let resolveBatch: ((responses: object[] | undefined) => void) | undefined;
    for (let index = 0; index < message.length; index++) {
      const answer = answerMessage(message[index], request, (response) => {
        answers[index] = response;
        if (--waiting === 0) resolveBatch!(responsesOf(answers));
      });
      if (answer === PENDING) waiting++;
      else answers[index] = answer;
    }
    if (waiting === 0) return responsesOf(answers);
    return new Promise((resolve) => {
      resolveBatch = resolve;
    });
  }

  /**
   * Serializes a response. A result JSON cannot carry (BigInt, cycles, throwing getters, a
   * function, a `toJSON` giving undefined) becomes -32603 instead of a broken or missing answer.
   */
  function serializeResponse(response: object): string {
    const { id = null, result, error } = response as { id?: JsonRpcId; result?: unknown; error?: ErrorObject };
    const idText = JSON.stringify(id);
    try {
      if (error) return `{"jsonrpc":"2.0","error":${JSON.stringify(error)},"id":${idText}}`;
      const resultText = JSON.stringify(result);
      if (resultText === undefined) throw new TypeError(`the result (${typeof result}) has no JSON form`);
      return `{"jsonrpc":"2.0","result":${resultText},"id":${idText}}`;
    } catch (failure) {
      const { error: body } = internalError('Serializing the response', failure) as { error: ErrorObject };
      return `{"jsonrpc":"2.0","error":${JSON.stringify(body)},"id":${idText}}`;
    }
  }

  function answerBody(body: string | Uint8Array, request: RequestContext): MaybePromise<HttpAnswer> {
    const parsed = parseJsonBody(body, maxDepth);
    if (!parsed.ok) {
      return { status: 200, headers: jsonHeaders(), body: JSON.stringify(errorResponse(null, ErrorCode.ParseError, `Parse error: ${parsed.detail}`)) };
    }
    const response = answerJson(parsed.value, request);
    return response instanceof Promise ? response.then(httpAnswerOf) : httpAnswerOf(response);
  }

  /**
   * Serializes a batch's responses. One `JSON.stringify` of the whole array is about a fifth
   * cheaper than one per response, and gives the same text, so it is tried first when no result
   * can be lost by it (a result with `toJSON`, or one JSON has no form for, would vanish from its
   * response instead of failing). Anything that throws falls back to one response at a time, which
   * turns only the broken responses into -32603.
   */
  function serializeBatch(responses: object[]): string {
    try {
      if (responses.every(hasPlainResult)) return JSON.stringify(responses);
    } catch {
      // A BigInt, a cycle or a throwing getter somewhere: find out which response has it, below.
    }
    return `[${responses.map(serializeResponse).join(',')}]`;
  }

  function httpAnswerOf(response: unknown | undefined): HttpAnswer {
    if (response === undefined) return { status: 204, headers: {}, body: '' };
    const text = Array.isArray(response) ? serializeBatch(response) : serializeResponse(response as object);
    return { status: 200, headers: jsonHeaders(), body: text };
  }

  /** The OpenAPI binding: named params in, bare result out; errors as `{code, message, data}`. */
  function answerOpenApiCall(entry: MethodEntry, body: string | Uint8Array, request: RequestContext): MaybePromise<HttpAnswer> {
    const isEmpty = typeof body === 'string' ? body.trim() === '' : body.length === 0;
    let params: unknown = {};
    if (!isEmpty) {
      const parsed = parseJsonBody(body, maxDepth);
      if (!parsed.ok) return openApiError({ code: ErrorCode.ParseError, message: `Parse error: ${parsed.detail}` });
      params = parsed.value;
    }
    if (typeof params !== 'object' || params === null || Array.isArray(params)) {
      return openApiError({ code: ErrorCode.InvalidRequest, message: 'Invalid Request: body must be a JSON object of named parameters' });
    }
    return settleLater((deliver) => {
      const outcome = execute(entry, params, null, request, (settled) => deliver(openApiAnswerOf(settled)));
      return outcome === PENDING ? PENDING : openApiAnswerOf(outcome);
    });
  }

  function openApiAnswerOf(outcome: Outcome): HttpAnswer {
    if ('error' in outcome) return openApiError(outcome.error);
    try {
      const text = JSON.stringify(outcome.result);
      if (text === undefined) throw new TypeError(`the result (${typeof outcome.result}) has no JSON form`);
      return { status: 200, headers: jsonHeaders(), body: text };
    } catch (error) {
      return openApiError((internalError('Serializing the response', error) as { error: ErrorObject }).error);
    }
  }

  function openApiError({ code, message, data }: ErrorObject): HttpAnswer {
    return { status: httpStatusOfError(code), headers: jsonHeaders(), body: serializeError({ code, message, data }) };
  }

  function serializeError(error: ErrorObject): string {
    try {
      return JSON.stringify(error.data === undefined ? { code: error.code, message: error.message } : error);
    } catch {
      return JSON.stringify({ code: error.code, message: error.message });
    }
  }

  function answerWithoutCall(method: string, path: string): HttpAnswer {
    if (openApi && (method === 'GET' || method === 'HEAD') && pathnameOf(path) === openApi.path) {
      return { status: 200, headers: { ...JSON_HEADERS }, body: method === 'HEAD' ? '' : openApi.text };
    }
    return copyAnswer(METHOD_NOT_ALLOWED);
  }

  function answerHttp(request: HttpRequestLike): MaybePromise<HttpAnswer> {
    const method = request.method;
    if (method !== 'POST' && method.toUpperCase() !== 'POST') return answerWithoutCall(method.toUpperCase(), request.path);
    if (!isJsonMediaType(request.contentType ?? request.headers?.['content-type'])) return copyAnswer(UNSUPPORTED_MEDIA_TYPE);
    if (exceedsLimit(request.body, maxBodyBytes)) return copyAnswer(PAYLOAD_TOO_LARGE);
    const entry = openApiRoute(request.path);
    return entry ? answerOpenApiCall(entry, request.body, request) : answerBody(request.body, request);
  }

  /** `.../<Interface>/<method>` naming a registered method selects the OpenAPI binding. */
  function openApiRoute(path: string): MethodEntry | undefined {
    // Index arithmetic instead of split: this runs for every request, and most paths are just '/'.
    const pathname = pathnameOf(path);
    const lastSlash = pathname.lastIndexOf('/');
    if (lastSlash <= 0) return undefined;
    const previousSlash = pathname.lastIndexOf('/', lastSlash - 1);
    if (previousSlash === -1) return undefined;
    return methods.get(`${pathname.slice(previousSlash + 1, lastSlash)}.${pathname.slice(lastSlash + 1)}`);
  }

  return {
    idl,
    maxBodyBytes,
    bodyBudget,
    methodNames: new Set(methods.keys()),
    handleJson: (message, request = {}) => promiseOf(() => answerJson(message, request)),
    handleBody: (body, request = {}) => promiseOf(() => answerBody(body, request)),
    handleHttp: (request) => promiseOf(() => answerHttp(request)),
    answerWithoutCall,
  };
}

/** The served OpenAPI document, serialized once; undefined when none is configured. */
function servedDocument(document: object | undefined, path = '/openapi.json'): { path: string; text: string } | undefined {
  if (document === undefined) return undefined;
  if (!path.startsWith('/')) throw new Error(`openApiPath must start with '/', got ${JSON.stringify(path)}`);
  return { path, text: JSON.stringify(document) };
}

function pathnameOf(path: string): string {
  const queryStart = path.indexOf('?');
  return queryStart === -1 ? path : path.slice(0, queryStart);
}

/**
 * The context a handler receives. `signal` is built the first time a handler reads it: an
 * AbortController plus AbortSignal.any per call was the largest cost of a call, and most handlers
 * never look at it. It is a getter on the class, not in an object literal: a getter closure per
 * object gives every context its own hidden class, which costs more than the signal did.
 */
class CallContext implements RpcContext {
  remoteAddress: string | undefined;
  id: string | number | null | undefined;
  method: string;
  readonly #request: RequestContext;
  #headers: Record<string, string> | undefined;
  #signal: AbortSignal | undefined;
  #controller: AbortController | undefined;
  #abortReason: Error | undefined;

  constructor(request: RequestContext, id: JsonRpcId | undefined, method: string) {
    this.remoteAddress = request.remoteAddress;
    this.id = id;
    this.method = method;
    this.#request = request;
  }

  /** Read from the request on first use: the Node adapter builds its header record only when asked. */
  get headers(): Record<string, string> {
    return (this.#headers ??= this.#request.headers ?? {});
  }

  set headers(value: Record<string, string>) {
    this.#headers = value;
  }

  get signal(): AbortSignal {
    if (this.#signal === undefined) {
      const controller = new AbortController();
      if (this.#abortReason !== undefined) controller.abort(this.#abortReason);
      this.#controller = controller;
      // AbortSignal.any, not a listener per call: a batch would pile listeners onto one request signal.
      const requestSignal = this.#request.signal;
      this.#signal = requestSignal ? AbortSignal.any([requestSignal, controller.signal]) : controller.signal;
    }
    return this.#signal;
  }

  /** Handlers could assign `ctx.signal` when it was a plain field; keep that working. */
  set signal(value: AbortSignal) {
    this.#signal = value;
  }

  /** Aborts the call's signal (now, or when it is first read). Static, so handlers never see it on ctx. */
  static abort(ctx: CallContext, reason: Error): void {
    ctx.#abortReason = reason;
    ctx.#controller?.abort(reason);
  }
}

/** Returned by a step whose answer comes later, through its `deliver` callback. */
const PENDING = Symbol('pending');

/**
 * Runs `start`, which answers at once or returns PENDING and later calls `deliver` (never
 * synchronously, so the resolver is in place by then); gives the answer or a promise of it.
 */
function settleLater<T>(start: (deliver: (value: T) => void) => T | typeof PENDING): MaybePromise<T> {
  let resolveLater: ((value: T) => void) | undefined;
  const value = start((settled) => resolveLater!(settled));
  if (value !== PENDING) return value;
  return new Promise<T>((resolve) => {
    resolveLater = resolve;
  });
}

/** The responses of a batch's members, notifications left out; undefined when none is left. */
function responsesOf(settled: (object | undefined)[]): object[] | undefined {
  const responses = settled.filter((response) => response !== undefined);
  return responses.length > 0 ? responses : undefined;
}

/**
 * Whether a response's `result` (if any) serializes as itself: a primitive JSON keeps, or an object
 * without `toJSON`. Error responses are built by the server and always qualify. May throw (a
 * throwing `toJSON` getter); the caller treats that as "no".
 */
function hasPlainResult(response: object): boolean {
  if (!('result' in response)) return true;
  const result = (response as { result: unknown }).result;
  switch (typeof result) {
    case 'string':
    case 'number':
    case 'boolean':
      return true;
    case 'object':
      return result === null || typeof (result as { toJSON?: unknown }).toJSON !== 'function';
    default:
      return false;
  }
}

/** Runs `answer` and always gives a promise: a synchronous throw becomes a rejection, as from an async function. */
function promiseOf<T>(answer: () => MaybePromise<T>): Promise<T> {
  try {
    return Promise.resolve(answer());
  } catch (error) {
    return Promise.reject(error);
  }
}

/** The `then` method of a thenable handler result, else undefined (read once: it may be a getter, and may throw). */
function thenOf(value: unknown): ((this: unknown, resolve: (v: unknown) => void, reject: (e: unknown) => void) => unknown) | undefined {
  if ((typeof value !== 'object' || value === null) && typeof value !== 'function') return undefined;
  const then = (value as { then?: unknown }).then;
  return typeof then === 'function' ? (then as ReturnType<typeof thenOf>) : undefined;
}

/** Text of any thrown value; never throws itself (`String(Object.create(null))` would). */
function describe(value: unknown): string {
  try {
    return String(value);
  } catch {
    return '[value without a text form]';
  }
}

const utf8Encoder = new TextEncoder();

/** Whether a body's UTF-8 size is past `limit`; encodes a string only when its length cannot decide. */
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
    throw new Error(`createRpcServer: maxBodyBytesInFlight (${option}) must be a number of bytes of at least maxBodyBytes (${maxBodyBytes})`);
  }
  return option;
}

/**
 * The handler's own method, or its class's (up the class chain), never one `Object.prototype`
 * lends every object: an IDL method named `toString` needs a handler that has one. Nor is a
 * class's `constructor` (the class itself) a method.
 */
function handlerMethod(handler: object, name: string): unknown {
  if (Object.hasOwn(handler, name)) return (handler as Record<string, unknown>)[name];
  if (name === 'constructor') return undefined;
  for (let owner = Object.getPrototypeOf(handler) as object | null; owner !== null && owner !== Object.prototype; owner = Object.getPrototypeOf(owner)) {
    if (Object.hasOwn(owner, name)) return (handler as Record<string, unknown>)[name];
  }
  return undefined;
}

/** Pairs every IDL method of a registered interface with its handler function. */
function registerHandlers(idl: IdlJson, handlers: Record<string, object>): Map<string, MethodEntry> {
  const interfaces = new Map((idl.interfaces ?? []).map((i) => [i.name, i] as const));
  const methods = new Map<string, MethodEntry>();
  for (const interfaceName of Object.keys(handlers)) {
    const iface = interfaces.get(interfaceName);
    if (!iface) {
      const known = [...interfaces.keys()].join(', ') || 'none';
      throw new Error(`createRpcServer: handler registered for "${interfaceName}", which is not an interface of the IDL (interfaces: ${known})`);
    }
    const handler = handlers[interfaceName];
    if (typeof handler !== 'object' || handler === null) throw new Error(`createRpcServer: the handler of ${interfaceName} must be an object`);
    for (const method of iface.methods ?? []) {
      const fn = handlerMethod(handler, method.name);
      if (typeof fn !== 'function') throw new Error(`createRpcServer: the handler of ${interfaceName} has no method ${method.name}`);
      const name = `${interfaceName}.${method.name}`;
      methods.set(name, { name, method, parameterNames: (method.parameters ?? []).map((p) => p.name), handler, fn: fn as MethodEntry['fn'] });
    }
  }
  return methods;
}
