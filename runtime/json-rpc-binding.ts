/**
 * The JSON-RPC 2.0 binding (docs/protocol.md §1): framing and serialization. It parses a body,
 * checks each message's envelope, answers `rpc-idl` (and its configured aliases) and `rpc.discover`, finds the method, hands the call to the call
 * pipeline, and frames and serializes the responses of a message or a batch. It knows nothing of
 * HTTP verbs, media types or paths (server.ts) and nothing of how a call runs (call-pipeline.ts).
 */
import type { RequestContext } from './call-context.js';
import {
  errorOutcome,
  PENDING,
  settleLater,
  type ErrorObject,
  type FailureReporter,
  type JsonRpcId,
  type MaybePromise,
  type Outcome,
} from './call-outcome.js';
import type { InstrumentedBatch } from './call-instrumentation.js';
import type { CallPipeline } from './call-pipeline.js';
import { ErrorCode } from './errors.js';
import { jsonHeaders, type HttpAnswer } from './http-answer.js';
import type { IdlJson } from './idl-json.js';
import { parseJsonBody } from './json-body.js';
import type { MethodEntry } from './method-table.js';
import { resultSerializers, serializeResult, type ResultSerializer, type SerializerTable } from './result-serializer.js';
import { jsonRpcFraming } from './streams/sse-framing.js';
import type { StreamCalls } from './streams/stream-calls.js';

/** OpenRPC's service discovery method: it answers the OpenRPC document of the server. */
export const DISCOVER_METHOD = 'rpc.discover';

export interface JsonRpcBindingOptions {
  /** Served as the result of `rpc-idl` and of every name in `idlMethodNames`. */
  idl: IdlJson;
  /** Further method names that answer the IDL (never a registered `Interface.method`). Default none. */
  idlMethodNames?: ReadonlySet<string>;
  /** Served as the result of `rpc.discover` (the OpenRPC document, docs/openrpc.md). Default none: the method is not found. */
  discoverDocument?: object;
  methods: ReadonlyMap<string, MethodEntry>;
  calls: CallPipeline;
  failures: FailureReporter;
  maxBatchSize: number;
  maxDepth: number;
  /** Starts a batch for the `instrumentation` option (its members run inside it). Default none. */
  startBatch?: (size: number, request: RequestContext) => InstrumentedBatch;
  /** Result serializers generated from the IDL (the `serializers` server option). Default none. */
  serializers?: SerializerTable;
  /** Where calls of stream methods go (runtime/streams/). */
  streams: StreamCalls;
}

/**
 * Where a message stands, which decides what a stream method's call gets: the stream when it is
 * an HTTP body's only message; an error in a batch; an error from `handleJson`, which has no body
 * to stream into.
 */
type MessagePlace = 'alone' | 'batch' | 'parsed';

/** The answer of a stream method's call, standing for the body's response (answerBody gives it as it is). */
class StreamedAnswer {
  constructor(readonly answer: HttpAnswer) {}
}

/**
 * The binding's two entries. Each gives its answer directly when every handler involved returned a
 * plain value, and a promise otherwise: each `async` layer would cost a promise and a tick per call.
 */
export interface JsonRpcBinding {
  /** A parsed message or batch: the response(s), or undefined when nothing is to be sent. */
  answerJson(message: unknown, request: RequestContext): MaybePromise<unknown | undefined>;
  /** A body: 200 with the serialized response(s) (a parse error included), or 204 when there is none. */
  answerBody(body: string | Uint8Array, request: RequestContext): MaybePromise<HttpAnswer>;
}

export function createJsonRpcBinding(options: JsonRpcBindingOptions): JsonRpcBinding {
  const { idl, methods, calls, failures, maxBatchSize, maxDepth, startBatch, streams } = options;
  const idlMethodNames = options.idlMethodNames ?? new Set<string>();
  const { discoverDocument } = options;
  const serializers = resultSerializers(options.serializers, methods.keys());

  /**
   * How the responses of a call are framed: as response objects (`answerJson`), or, for a body,
   * as text right away when the method has a result serializer (its result is then written field
   * by field; a response object stands for every other response, serialized at the end).
   */
  type Framed = object | string;

  /**
   * One JSON-RPC message (not a batch): a response object, or undefined for a notification; or
   * PENDING, and the same later through `deliver`.
   */
  function answerMessage(
    message: unknown,
    request: RequestContext,
    asText: boolean,
    place: MessagePlace,
    deliver: (response: Framed | undefined) => void,
  ): Framed | undefined | typeof PENDING {
    if (typeof message !== 'object' || message === null || Array.isArray(message)) {
      return errorResponse(null, ErrorCode.InvalidRequest, 'Invalid Request: expected a JSON object');
    }
    const m = message as Record<string, unknown>;
    const isNotification = !Object.hasOwn(m, 'id');
    const id = m.id;
    if (!isNotification && id !== null && typeof id !== 'string') {
      if (typeof id !== 'number')
        return errorResponse(null, ErrorCode.InvalidRequest, 'Invalid Request: id must be a string, a number or null');
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

    const entry = methods.get(m.method);
    if (entry === undefined) {
      // Looked up only after the method table: the IDL names never collide with it (checked at start-up).
      if (m.method === 'rpc-idl' || idlMethodNames.has(m.method)) return responseOf({ result: idl }, isNotification, replyId);
      if (m.method === DISCOVER_METHOD && discoverDocument !== undefined)
        return responseOf({ result: discoverDocument }, isNotification, replyId);
      return responseOf(errorOutcome(ErrorCode.MethodNotFound, `Method not found: ${m.method}`), isNotification, replyId);
    }
    if (entry.method.stream === true) return answerStreamMessage(entry, m.params, request, place, isNotification, replyId);
    const serializer = asText ? serializers.get(entry.name) : undefined;
    const outcome = calls.execute(entry, m.params, isNotification ? undefined : replyId, request, (settled) =>
      deliver(framedResponseOf(settled, isNotification, replyId, serializer)),
    );
    return outcome === PENDING ? PENDING : framedResponseOf(outcome, isNotification, replyId, serializer);
  }

  /**
   * A message naming a stream method: its stream when it is a body's only message; in a batch
   * (or through `handleJson`) an error, since a batch's answer is one JSON array; a notification
   * runs nothing (JSON-RPC lets it have no reply, and a stream is nothing but replies), logged.
   */
  function answerStreamMessage(
    entry: MethodEntry,
    params: unknown,
    request: RequestContext,
    place: MessagePlace,
    isNotification: boolean,
    id: JsonRpcId,
  ): Framed | undefined {
    if (isNotification) {
      failures.warn(`${entry.name} answers with a stream: a notification of it (a message without id) ran nothing`);
      return undefined;
    }
    if (place === 'batch') {
      return errorResponse(
        id,
        ErrorCode.InvalidRequest,
        `Invalid Request: ${entry.name} answers with a stream; call it alone, not in a batch`,
      );
    }
    if (place === 'parsed') {
      return errorResponse(
        id,
        ErrorCode.InvalidRequest,
        `Invalid Request: ${entry.name} answers with a stream (text/event-stream); call it over HTTP`,
      );
    }
    return new StreamedAnswer(streams.answer(entry, params, id, request, jsonRpcFraming(id), serializers.get(entry.name)));
  }

  /** `responseOf`, with a result written as text at once by the method's serializer when it has one. */
  function framedResponseOf(
    settled: Outcome,
    isNotification: boolean,
    id: JsonRpcId,
    serializer: ResultSerializer | undefined,
  ): Framed | undefined {
    if (serializer === undefined || isNotification || 'error' in settled) return responseOf(settled, isNotification, id);
    return serializeOutcome(settled, id, serializer);
  }

  function answerJson(message: unknown, request: RequestContext): MaybePromise<unknown | undefined> {
    return answerFramed(message, request, false, 'parsed');
  }

  /** `answerJson`, with the responses of methods that have a result serializer as text when `asText`. */
  function answerFramed(
    message: unknown,
    request: RequestContext,
    asText: boolean,
    place: MessagePlace,
  ): MaybePromise<unknown | undefined> {
    if (!Array.isArray(message)) return settleLater((deliver) => answerMessage(message, request, asText, place, deliver));
    if (message.length === 0) return errorResponse(null, ErrorCode.InvalidRequest, 'Invalid Request: empty batch');
    if (message.length > maxBatchSize) {
      return errorResponse(
        null,
        ErrorCode.InvalidRequest,
        `Invalid Request: batch of ${message.length} messages exceeds the limit of ${maxBatchSize}`,
      );
    }
    if (startBatch === undefined) return answerBatch(message, request, asText);
    let batch: InstrumentedBatch;
    try {
      batch = startBatch(message.length, request);
    } catch (error) {
      failures.log('instrumentation failed to start a batch', error);
      return answerBatch(message, request, asText);
    }
    const endBatch = () => {
      try {
        batch.end();
      } catch (error) {
        failures.log('instrumentation failed to end a batch', error);
      }
    };
    const answered = batch.run(() => answerBatch(message, request, asText));
    if (answered instanceof Promise) return answered.finally(endBatch);
    endBatch();
    return answered;
  }

  /** The members of a batch, run concurrently (all are started before any is awaited), their responses in request order. */
  function answerBatch(message: unknown[], request: RequestContext, asText: boolean): MaybePromise<unknown | undefined> {
    // One promise for the whole batch, made only when some member is pending.
    const answers: (Framed | undefined)[] = new Array(message.length);
    let waiting = 0;
    let resolveBatch: ((responses: Framed[] | undefined) => void) | undefined;
    for (let index = 0; index < message.length; index++) {
      const answer = answerMessage(message[index], request, asText, 'batch', (response) => {
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

  function answerBody(body: string | Uint8Array, request: RequestContext): MaybePromise<HttpAnswer> {
    const parsed = parseJsonBody(body, maxDepth);
    if (!parsed.ok) {
      return {
        status: 200,
        headers: jsonHeaders(),
        body: JSON.stringify(errorResponse(null, ErrorCode.ParseError, `Parse error: ${parsed.detail}`)),
      };
    }
    const message = parsed.value;
    // A body's result responses are text at once when the method has a result serializer.
    const asText = serializers.size > 0;
    if (Array.isArray(message)) {
      const responses = answerFramed(message, request, asText, 'batch');
      return responses instanceof Promise ? responses.then(httpAnswerOf) : httpAnswerOf(responses);
    }
    // One message: its answer is serialized where it is delivered, not in a `.then` after it,
    // which would cost a promise and a turn of the microtask queue per call; and the promise is
    // resolved from that one callback (`settleLater` would add two closures per call).
    let resolveAnswer: ((answer: HttpAnswer) => void) | undefined;
    const response = answerMessage(message, request, asText, 'alone', (settled) => resolveAnswer!(httpAnswerOf(settled)));
    if (response !== PENDING) return httpAnswerOf(response);
    // `deliver` is never called synchronously (call-pipeline.ts): the resolver is in place by then.
    return new Promise<HttpAnswer>((resolve) => {
      resolveAnswer = resolve;
    });
  }

  /** Serializes a response object (built by `responseOf` or `errorResponse`). */
  function serializeResponse(response: object): string {
    const { id = null } = response as { id?: JsonRpcId };
    return serializeOutcome(response as Outcome, id, undefined);
  }

  /**
   * The text of the response to an outcome, its result written by `serializer` when there is one
   * (`JSON.stringify` when there is none or it declines the value). A result or error data JSON
   * cannot carry (BigInt, cycles, throwing getters, a function, a `toJSON` giving undefined) becomes
   * -32603 instead of a broken or missing answer.
   */
  function serializeOutcome(settled: Outcome, id: JsonRpcId, serializer: ResultSerializer | undefined): string {
    const idText = JSON.stringify(id);
    try {
      if ('error' in settled) return `{"jsonrpc":"2.0","error":${JSON.stringify(settled.error)},"id":${idText}}`;
      return `{"jsonrpc":"2.0","result":${serializeResult(settled.result, serializer)},"id":${idText}}`;
    } catch (failure) {
      const { error: body } = failures.internalError('Serializing the response', failure) as { error: ErrorObject };
      return `{"jsonrpc":"2.0","error":${JSON.stringify(body)},"id":${idText}}`;
    }
  }

  /**
   * Serializes a batch's responses. One `JSON.stringify` of the whole array is about a fifth
   * cheaper than one per response, and gives the same text, so it is tried first when no result
   * can be lost by it (a result with `toJSON`, or one JSON has no form for, would vanish from its
   * response instead of failing). Anything that throws falls back to one response at a time, which
   * turns only the broken responses into -32603.
   */
  function serializeBatch(responses: Framed[]): string {
    try {
      if (responses.every(hasPlainResult)) return JSON.stringify(responses);
    } catch {
      // A BigInt, a cycle or a throwing getter somewhere: find out which response has it, below.
    }
    return `[${responses.map(serializeFramed).join(',')}]`;
  }

  /** A response's text: written already (a result serializer's), or serialized now. */
  function serializeFramed(response: Framed): string {
    return typeof response === 'string' ? response : serializeResponse(response);
  }

  function httpAnswerOf(response: unknown | undefined): HttpAnswer {
    if (response instanceof StreamedAnswer) return response.answer;
    if (response === undefined) return { status: 204, headers: {}, body: '' };
    const text = Array.isArray(response) ? serializeBatch(response) : serializeFramed(response as Framed);
    return { status: 200, headers: jsonHeaders(), body: text };
  }

  return { answerJson, answerBody };
}

/** The response to a call's outcome; undefined for a notification, which gets none. */
function responseOf(settled: Outcome, isNotification: boolean, id: JsonRpcId): object | undefined {
  if (isNotification) return undefined;
  return 'error' in settled ? { jsonrpc: '2.0', error: settled.error, id } : { jsonrpc: '2.0', result: settled.result, id };
}

function errorResponse(id: JsonRpcId, code: number, message: string): object {
  return { jsonrpc: '2.0', error: { code, message }, id };
}

/** The responses of a batch's members, notifications left out; undefined when none is left. */
function responsesOf<T>(settled: (T | undefined)[]): T[] | undefined {
  const responses = settled.filter((response) => response !== undefined);
  return responses.length > 0 ? responses : undefined;
}

/**
 * Whether a response's `result` (if any) serializes as itself: a primitive JSON keeps, or an object
 * without `toJSON`. Error responses are built by the server and always qualify; a response written
 * already (text) does not, so that it is joined as it is. May throw (a throwing `toJSON` getter);
 * the caller treats that as "no".
 */
function hasPlainResult(response: object | string): boolean {
  if (typeof response === 'string') return false;
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
