/**
 * Where both bindings hand a stream method's call (docs/protocol.md, "Streams"): content
 * negotiation (406), the `maxStreams` limit (503), then the call run through the call pipeline
 * (middleware, `onCall`, tracing see it) and its answer, `200 text/event-stream` with an
 * `AnswerStream` the adapter reads chunk by chunk.
 */
import type { RequestContext } from '../call-context.js';
import { PENDING, type ErrorObject, type FailureReporter, type JsonRpcId } from '../call-outcome.js';
import type { CallPipeline } from '../call-pipeline.js';
import { ErrorCode } from '../errors.js';
import type { HttpAnswer } from '../http-answer.js';
import type { MethodEntry } from '../method-table.js';
import type { ResultSerializer } from '../result-serializer.js';
import { acceptsEventStream } from './accept.js';
import { lastEventIdOf } from './event-ids.js';
import type { SseFraming } from './sse-framing.js';
import type { StreamLimits } from './stream-limits.js';
import { StreamRegistry } from './stream-registry.js';
import { StreamSession } from './stream-session.js';

/** JSON-RPC's "server error" code for a stream refused because the server is busy (HTTP 503). */
export const SERVER_BUSY = -32000;

export interface StreamCalls {
  /**
   * Answers one call of the stream method `entry`: 406 when the request's `Accept` excludes
   * `text/event-stream`, 503 past `maxStreams` or while shutting down, else the stream (every
   * failure, refused params included, then comes as the stream's final error event).
   */
  answer(
    entry: MethodEntry,
    params: unknown,
    id: JsonRpcId,
    request: RequestContext,
    framing: SseFraming,
    serializer: ResultSerializer | undefined,
  ): HttpAnswer;
  /** The streams open now (started, and their handlers not finished). */
  readonly open: number;
  /** Ends every open stream with a reconnect message and refuses new ones; resolves when all have ended. */
  close(): Promise<void>;
}

export interface StreamCallsOptions {
  calls: CallPipeline;
  failures: FailureReporter;
  limits: StreamLimits;
}

export function createStreamCalls({ calls, failures, limits }: StreamCallsOptions): StreamCalls {
  const registry = new StreamRegistry(limits.maxStreams);
  const retryAfterSeconds = String(Math.max(1, Math.ceil(limits.retryMs / 1000)));

  function answer(
    entry: MethodEntry,
    params: unknown,
    id: JsonRpcId,
    request: RequestContext,
    framing: SseFraming,
    serializer: ResultSerializer | undefined,
  ): HttpAnswer {
    const headers = request.headers;
    if (!acceptsEventStream(headers?.accept)) {
      return refusal(406, {}, framing, {
        code: ErrorCode.InvalidRequest,
        message: `Invalid Request: ${entry.name} answers with a stream (text/event-stream), which the request's Accept header excludes`,
      });
    }
    const busy = registry.refusal();
    if (busy !== undefined) {
      return refusal(503, { 'retry-after': retryAfterSeconds }, framing, { code: SERVER_BUSY, message: `Server busy: ${busy}` });
    }
    const session = new StreamSession({
      method: entry.name,
      framing,
      serializer,
      limits,
      registry,
      failures,
      lastEventId: lastEventIdOf(headers),
      request,
    });
    const outcome = calls.execute(entry, params, id, session.request, (settled) => session.open(settled));
    if (outcome !== PENDING) session.open(outcome);
    return { status: 200, headers: eventStreamHeaders(), body: '', stream: session };
  }

  return {
    answer,
    get open() {
      return registry.size;
    },
    close: () => registry.close(),
  };
}

/** The headers of a stream: never cached, transformed (compressed) or buffered by a proxy. */
function eventStreamHeaders(): Record<string, string> {
  return { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no' };
}

function refusal(status: number, extraHeaders: Record<string, string>, framing: SseFraming, error: ErrorObject): HttpAnswer {
  return { status, headers: { 'content-type': 'application/json', ...extraHeaders }, body: framing.refusal(error) };
}
