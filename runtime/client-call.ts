/**
 * What every client transport shares: per-call options, the transport options, and the call
 * pipeline (deadline and abort, then interceptors, then retries, then the transport's own send).
 */
import { transportError } from './transport-error.js';

/**
 * The request header in which generated clients send the contract fingerprint of the interface
 * they call (runtime/contract-fingerprint.ts); servers with `contractMismatch` compare it with
 * their own. Header names are case-insensitive; servers see it lower-cased. A batch of calls to
 * several interfaces sends their fingerprints as one comma-separated list.
 */
export const CONTRACT_HEADER = 'x-idlrpc-contract';

/** Per-call options. */
export interface CallOptions {
  /** Aborts the call; the call then fails with a -32000 transport error. */
  signal?: AbortSignal;
  /** Overrides the transport's `timeoutMs` for this call (it bounds retries too). */
  timeoutMs?: number;
  /** Extra HTTP headers for this call. */
  headers?: Record<string, string>;
  /** Retries for this call (a {@link RetryPolicy} from `retryPolicy()`), instead of the transport's; `false`: none. */
  retry?: RetryPolicy | false;
  /** This call may run twice without harm, so a retry may repeat it after it reached the server. */
  idempotent?: boolean;
  /**
   * Set by generated clients on calls of `@readonly` methods: the method's parameter names, by which
   * a transport with `reads: readOverGet` sends the call as a GET (docs/protocol.md, "Reads over GET").
   */
  read?: readonly string[];
}

/** Per-stream options (a stream method's call): the call's, and where to resume. */
export interface StreamOptions extends CallOptions {
  /**
   * Resume after this event id (sent as `Last-Event-ID`), e.g. a stream's `lastEventId` kept from
   * an earlier page load. `retry` and `idempotent` do not apply to streams (they reconnect instead);
   * `timeoutMs` bounds each connection until the answer's headers arrive, not the stream.
   */
  lastEventId?: string;
}

/**
 * The items of a stream method's call, as they arrive: an async iterable (once) that also tells the
 * id of the last item received, to resume from. Nothing is sent until the first `next()`; breaking
 * out of the loop (or the call's `signal`) closes the connection.
 */
export interface RpcStream<Item, Errors extends object = Record<never, never>> extends AsyncIterable<Item> {
  /** The id of the last item received (its SSE `id:`); undefined before the first. */
  readonly lastEventId: string | undefined;
  /** Type-only (never set): the method's declared errors, as on `RpcPromise`. */
  readonly '~declaredErrors'?: Errors;
}

/** One open connection of a stream method's call (`Transport.stream`). */
export interface StreamConnection {
  /** The JSON-RPC id of the request: the stream's messages carry it. */
  id: number;
  /** The answer's `text/event-stream` body (docs/protocol.md, "Streams"). */
  body: ReadableStream<Uint8Array>;
  /** How the call reconnects after this connection is lost (the transport's `reconnect` option). */
  reconnect: ReconnectOptions | false;
}

/** Sends JSON-RPC calls: `call` returns the result or throws an `RpcError`. */
export interface Transport {
  call(method: string, params: unknown[], options?: CallOptions): Promise<unknown>;
  /**
   * Opens one connection of a stream method's call (docs/runtime.md, "Streams"): POSTs the request
   * through the interceptors (with `Last-Event-ID` when `options.lastEventId` is set) and resolves
   * once the answer's headers say it is an event stream; rejects with the `RpcError` of any other
   * answer. `options.signal` closes the connection, body included. `streamMethod` reads the events
   * and calls it again to reconnect. Optional, for transports of their own: `streamMethod` opens the
   * connections of an {@link HttpConnectionSource} (`HttpTransport`, `BatchingTransport`) itself,
   * so that only clients with stream methods carry that code, and refuses any other transport.
   */
  stream?(method: string, params: unknown[], options?: StreamOptions): Promise<StreamConnection>;
}

/**
 * A transport that POSTs to `baseAddress` with `options` (`HttpTransport`, `BatchingTransport`):
 * `streamMethod` opens a stream's connections to the same address, with the same options.
 */
export interface HttpConnectionSource {
  readonly baseAddress: string;
  readonly options: HttpTransportOptions;
}

/** One call as interceptors see it. Pass it on (or a changed copy) to `next`. */
export interface RpcCall {
  /** The wire name, `Interface.method`. */
  readonly method: string;
  /** Positional params, in IDL order. */
  readonly params: readonly unknown[];
  /** The HTTP headers it is sent with: the transport's, then the call's. Interceptors may add to them. */
  readonly headers: Record<string, string>;
  /** Aborts when the caller's signal does or the call's time is up. */
  readonly signal: AbortSignal;
  /** Whether a retry may repeat it after it reached the server. */
  readonly idempotent: boolean;
  /**
   * Set on each connection of a stream method's call (the first, and each reconnection with a
   * `last-event-id` header). Its handler resolves once the answer's headers arrived, to the event
   * stream's body (pass it on untouched); the items come after, outside the interceptors.
   */
  readonly stream?: true;
  /** The parameter names of a `@readonly` method's call (`CallOptions.read`): it may go as a GET. */
  readonly read?: readonly string[];
}

/** Runs a call: resolves to its result, or rejects with an `RpcError`. */
export type CallHandler = (call: RpcCall) => Promise<unknown>;

/**
 * Wraps every call of a transport: receives the next handler and returns one that may change the
 * call (add headers), look at the outcome (log, time), call `next` again, or answer without it.
 * The first interceptor of the list is the outermost.
 */
export type Interceptor = (next: CallHandler) => CallHandler;

/** When and how often a call is repeated; made by `retryPolicy(options)` (runtime/retry.ts). */
export interface RetryPolicy {
  /** Whether the method may run twice without harm (a call's `idempotent` option wins). */
  idempotent(method: string): boolean;
  /** Runs `attempt`, and again as the policy allows, within `deadline` (ms since the epoch) and `call.signal`. */
  run<T>(attempt: () => Promise<T>, call: RpcCall, deadline: number): Promise<T>;
}

export interface HttpTransportOptions {
  /** Headers sent with every call, or a function giving them (e.g. a fresh auth token). */
  headers?: Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>);
  /** The fetch to use; defaults to the global one. */
  fetch?: typeof fetch;
  /** Fails a call that takes longer than this, in milliseconds (retries included). Default: no limit. */
  timeoutMs?: number;
  /** Around every call, the first one outermost. */
  interceptors?: readonly Interceptor[];
  /** Retries for every call (opt-in: `retryPolicy()`; a call's `retry` option overrides it). Default: none. */
  retry?: RetryPolicy;
  /** How a stream method's call reconnects after a lost connection or the server's reconnect message; `false`: never. */
  reconnect?: ReconnectOptions | false;
  /**
   * How the calls of `@readonly` methods are sent: `readOverGet` (exported beside `HttpTransport`)
   * sends them as `GET <base>/<Interface>/<method>?<param>=<JSON>`, so HTTP caches (the browser's,
   * a CDN) can answer them (docs/protocol.md, "Reads over GET"). A function rather than a flag, so
   * that bundles of clients that do not use it do not carry it. `HttpTransport` only:
   * `BatchingTransport` sends every call in its POSTs. Default: POST, like every call.
   */
  reads?: ReadSender;
}

/** Sends a call of a `@readonly` method (`call.read`: its parameter names) and gives its result; `readOverGet` is one. */
export type ReadSender = (doFetch: typeof fetch, baseAddress: string, call: RpcCall & { read: readonly string[] }) => Promise<unknown>;

/** How a stream reconnects (`HttpTransportOptions.reconnect`). Every member is optional. */
export interface ReconnectOptions {
  /** Reconnections in a row without an item in between before the stream fails with the last error. Default 5. */
  attempts?: number;
  /**
   * The wait before the first reconnection, in milliseconds (the server's `retry:` replaces it);
   * it doubles with each further one in a row, with jitter. Default 250.
   */
  initialDelayMs?: number;
  /** The longest wait before a reconnection, in milliseconds. Default 5000. */
  maxDelayMs?: number;
}

/**
 * Runs one call through the pipeline: the deadline and the caller's signal bound everything; the
 * transport's headers are read, the interceptors wrap the retries, the retries wrap `send`.
 */
export function runCall(
  transport: HttpTransportOptions,
  method: string,
  params: unknown[],
  options: CallOptions = {},
  send: CallHandler,
  stream?: true,
): Promise<unknown> {
  const timeoutMs = options.timeoutMs ?? transport.timeoutMs;
  const deadline = timeoutMs === undefined ? Infinity : Date.now() + timeoutMs;
  const controller = new AbortController();
  const { signal } = controller;
  const stop = (error: unknown) => {
    if (!signal.aborted) controller.abort(error);
  };
  const onAbort = () => stop(transportError('request aborted'));
  const stopped = new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
  const timer = timeoutMs === undefined ? undefined : setTimeout(() => stop(transportError(`timed out after ${timeoutMs} ms`)), timeoutMs);
  if (options.signal?.aborted) onAbort();
  options.signal?.addEventListener('abort', onAbort);
  const run = async () => {
    const configured = typeof transport.headers === 'function' ? await transport.headers() : transport.headers;
    const retry = options.retry ?? transport.retry;
    const idempotent = options.idempotent ?? (retry ? retry.idempotent(method) : false);
    const inner: CallHandler = retry ? (call) => retry.run(() => send(call), call, deadline) : send;
    const handler = (transport.interceptors ?? []).reduceRight((next: CallHandler, interceptor) => interceptor(next), inner);
    const call: RpcCall = { method, params, headers: { ...configured, ...options.headers }, signal, idempotent };
    if (stream) return handler({ ...call, stream });
    return handler(options.read === undefined ? call : { ...call, read: options.read });
  };
  return Promise.race([signal.aborted ? stopped : run(), stopped]).finally(() => {
    if (timer !== undefined) clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    stop(undefined); // releases what still waits on the signal (a batch slot, a backoff)
  });
}
