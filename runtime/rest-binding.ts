/**
 * The REST binding (docs/protocol.md §3, what openapi.json describes): a POST to
 * `.../<Interface>/<method>` naming a registered method is one call with named params in the body
 * and the bare result out; errors are `{code, message, data}` with an HTTP status by code. This
 * file routes a path to its method and frames the answer; the call itself runs in the call pipeline.
 */
import type { RequestContext } from './call-context.js';
import { PENDING, settleLater, type ErrorObject, type FailureReporter, type MaybePromise, type Outcome } from './call-outcome.js';
import type { CallPipeline } from './call-pipeline.js';
import { ErrorCode } from './errors.js';
import { jsonHeaders, type HttpAnswer } from './http-answer.js';
import { parseJsonBody } from './json-body.js';
import type { MethodEntry } from './method-table.js';
import { resultSerializers, serializeResult, type ResultSerializer, type SerializerTable } from './result-serializer.js';
import { REST_FRAMING } from './streams/sse-framing.js';
import type { StreamCalls } from './streams/stream-calls.js';

export interface RestBindingOptions {
  methods: ReadonlyMap<string, MethodEntry>;
  calls: CallPipeline;
  failures: FailureReporter;
  maxDepth: number;
  /** HTTP status of declared errors by code (the `httpStatus` option); others by `httpStatusOfError`. */
  errorStatus?: ReadonlyMap<number, number>;
  /** Result serializers generated from the IDL (the `serializers` server option). Default none. */
  serializers?: SerializerTable;
  /** Where calls of stream methods go (runtime/streams/). */
  streams: StreamCalls;
}

/** What `route` gives for a path that is the JSON-RPC endpoint rather than a method. */
export const JSON_RPC = Symbol('JSON-RPC');

export interface RestBinding {
  /**
   * What a path under the binding's base (no query) selects: JSON_RPC for the base itself and one
   * segment below it; the method its last two segments name (`.../<Interface>/<method>`) when it is
   * registered; undefined for every other path (answered with `notFound`).
   */
  route(pathname: string): MethodEntry | typeof JSON_RPC | undefined;
  /** Runs one call of `entry` with the body's named params; the answer directly or a promise of it. */
  answer(entry: MethodEntry, body: string | Uint8Array, request: RequestContext): MaybePromise<HttpAnswer>;
  /** Runs one call of `entry` with named params read already (a GET's query, read-binding.ts). */
  answerParams(entry: MethodEntry, params: object, request: RequestContext): MaybePromise<HttpAnswer>;
  /** The binding's answer to an error: its error body, with the HTTP status of its code. */
  errorAnswer(error: ErrorObject): HttpAnswer;
}

/**
 * HTTP status of an error in the OpenAPI binding: bad input 400, unknown method 404, contract
 * mismatch 409, too many requests 429, declared and other application errors 422, internal and
 * other reserved codes 500.
 */
export function httpStatusOfError(code: number): number {
  if (code === ErrorCode.ParseError || code === ErrorCode.InvalidRequest || code === ErrorCode.InvalidParams) return 400;
  if (code === ErrorCode.MethodNotFound) return 404;
  if (code === ErrorCode.ContractMismatch) return 409;
  if (code === ErrorCode.TooManyRequests) return 429;
  if (code >= -32768 && code <= -32000) return 500;
  return 422;
}

export function createRestBinding(options: RestBindingOptions): RestBinding {
  const { methods, calls, failures, maxDepth } = options;
  const errorStatus = options.errorStatus?.size ? options.errorStatus : undefined;
  const serializers = resultSerializers(options.serializers, methods.keys());
  const errorAnswer = (error: ErrorObject): HttpAnswer =>
    errorAnswerWith(errorStatus?.get(error.code) ?? httpStatusOfError(error.code), error);

  function route(pathname: string): MethodEntry | typeof JSON_RPC | undefined {
    // Index arithmetic instead of split: this runs for every request, and most paths are just '/'.
    const start = pathname.charCodeAt(0) === 47 /* '/' */ ? 1 : 0;
    const slash = pathname.indexOf('/', start);
    // The base, or one segment below it (with or without a trailing slash): JSON-RPC.
    if (slash === -1 || slash === pathname.length - 1) return JSON_RPC;
    // The last two segments, so that a prefix kept by a proxy (or an OpenAPI `servers` URL) still works.
    const lastSlash = pathname.lastIndexOf('/');
    const previousSlash = pathname.lastIndexOf('/', lastSlash - 1);
    return methods.get(`${pathname.slice(previousSlash + 1, lastSlash)}.${pathname.slice(lastSlash + 1)}`);
  }

  function answer(entry: MethodEntry, body: string | Uint8Array, request: RequestContext): MaybePromise<HttpAnswer> {
    const isEmpty = typeof body === 'string' ? body.trim() === '' : body.length === 0;
    let params: unknown = {};
    if (!isEmpty) {
      const parsed = parseJsonBody(body, maxDepth);
      if (!parsed.ok) return errorAnswer({ code: ErrorCode.ParseError, message: `Parse error: ${parsed.detail}` });
      params = parsed.value;
    }
    if (typeof params !== 'object' || params === null || Array.isArray(params)) {
      return errorAnswer({ code: ErrorCode.InvalidRequest, message: 'Invalid Request: body must be a JSON object of named parameters' });
    }
    return answerParams(entry, params, request);
  }

  function answerParams(entry: MethodEntry, params: object, request: RequestContext): MaybePromise<HttpAnswer> {
    const serializer = serializers.get(entry.name);
    if (entry.method.stream === true) return options.streams.answer(entry, params, null, request, REST_FRAMING, serializer);
    return settleLater((deliver) => {
      const outcome = calls.execute(entry, params, null, request, (settled) => deliver(answerOf(settled, serializer)));
      return outcome === PENDING ? PENDING : answerOf(outcome, serializer);
    });
  }

  function answerOf(outcome: Outcome, serializer: ResultSerializer | undefined): HttpAnswer {
    if ('error' in outcome) return errorAnswer(outcome.error);
    try {
      return { status: 200, headers: jsonHeaders(), body: serializeResult(outcome.result, serializer) };
    } catch (error) {
      return errorAnswer((failures.internalError('Serializing the response', error) as { error: ErrorObject }).error);
    }
  }

  return { route, answer, answerParams, errorAnswer };
}

/** The answer to a POST to a path under the base that names no method: 404 with the binding's error body. */
export function notFound(pathname: string): HttpAnswer {
  return errorAnswerWith(404, { code: ErrorCode.MethodNotFound, message: `Method not found: ${pathname}` });
}

function errorAnswerWith(status: number, { code, message, data }: ErrorObject): HttpAnswer {
  return { status, headers: jsonHeaders(), body: serializeError({ code, message, data }) };
}

function serializeError(error: ErrorObject): string {
  try {
    return JSON.stringify(error.data === undefined ? { code: error.code, message: error.message } : error);
  } catch {
    return JSON.stringify({ code: error.code, message: error.message });
  }
}
