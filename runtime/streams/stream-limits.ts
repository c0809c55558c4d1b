/**
 * The stream options of `createRpcServer` (docs/runtime.md, "Streams"), checked, with their defaults.
 */

export interface StreamLimits {
  /** Streams open at once; past it a new stream gets HTTP 503. */
  maxStreams: number;
  /** Longest wait for the handler's next item before the stream is cut with a reconnect message. */
  idleTimeoutMs: number;
  /** Longest life of one stream before it is cut with a reconnect message. */
  maxDurationMs: number;
  /** Time without any chunk, while waiting for an item, after which a heartbeat comment is sent. */
  heartbeatMs: number;
  /** The `retry:` sent with a reconnect message. */
  retryMs: number;
}

export const STREAM_DEFAULTS: StreamLimits = {
  maxStreams: 1000,
  idleTimeoutMs: 300_000,
  maxDurationMs: 3_600_000,
  heartbeatMs: 15_000,
  retryMs: 1000,
};

/** The stream options as given to `createRpcServer`. */
export interface StreamOptions {
  maxStreams?: number;
  streamIdleTimeoutMs?: number;
  streamMaxDurationMs?: number;
  streamHeartbeatMs?: number;
  streamRetryMs?: number;
}

/** The limits of `options`, each checked (a positive whole number; `Infinity` turns a time limit off). */
export function streamLimitsOf(options: StreamOptions): StreamLimits {
  return {
    maxStreams: checked('maxStreams', options.maxStreams, STREAM_DEFAULTS.maxStreams, false),
    idleTimeoutMs: checked('streamIdleTimeoutMs', options.streamIdleTimeoutMs, STREAM_DEFAULTS.idleTimeoutMs, true),
    maxDurationMs: checked('streamMaxDurationMs', options.streamMaxDurationMs, STREAM_DEFAULTS.maxDurationMs, true),
    heartbeatMs: checked('streamHeartbeatMs', options.streamHeartbeatMs, STREAM_DEFAULTS.heartbeatMs, true),
    retryMs: checked('streamRetryMs', options.streamRetryMs, STREAM_DEFAULTS.retryMs, false),
  };
}

function checked(name: string, value: number | undefined, fallback: number, infinite: boolean): number {
  if (value === undefined) return fallback;
  if (value === Number.POSITIVE_INFINITY && infinite) return value;
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new Error(`createRpcServer: ${name} (${value}) must be a positive whole number${infinite ? ' or Infinity' : ''}`);
  }
  return value;
}
