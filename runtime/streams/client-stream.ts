/**
 * What generated clients call for a stream method (docs/runtime.md, "Streams"): connections opened
 * over HTTP (stream-connection.ts) or by the transport (`Transport.stream`), their events read as
 * they arrive (sse-parser.ts), the items of `rpc.stream.item` notifications yielded, the final
 * response ending the loop or thrown (declared errors as their classes, as `callMethod` does), and a
 * reconnection with `Last-Event-ID` after a lost connection or an `rpc.stream.reconnect` message
 * (reconnect.ts).
 */
import { CONTRACT_HEADER, type RpcStream, type StreamConnection, type StreamOptions, type Transport } from '../client-call.js';
import { declaredErrorOf } from '../declared-error-of.js';
import type { DeclaredErrorClass } from '../errors.js';
import { isErrorResponse, resultOf } from '../json-rpc-exchange.js';
import { networkError, transportError } from '../transport-error.js';
import { convertWire, type WireConversion } from '../wire-conversion.js';
import { mayReconnectAfter, pause, reconnectDelay } from './reconnect.js';
import { SseParser } from './sse-parser.js';
import { isHttpConnectionSource, openHttpStream } from './stream-connection.js';

/**
 * Calls the stream method `method` through `transport`: its `stream` member opens each connection
 * when it has one; else the transport must be an `HttpConnectionSource` (HttpTransport,
 * BatchingTransport), and the connections are POSTed to its address with its options. Nothing is
 * sent until the loop asks for the first item; breaking out of the loop or aborting
 * `options.signal` closes the connection. `contract` goes in the {@link CONTRACT_HEADER} header;
 * `conversion` (for methods with `timestamp` or `bytes`) converts the params to the wire and each
 * item back.
 */
export function streamMethod(
  transport: Transport,
  method: string,
  params: unknown[],
  declaredErrors: readonly DeclaredErrorClass[],
  options: StreamOptions = {},
  contract?: string,
  conversion?: WireConversion,
): RpcStream<unknown> {
  const open = connectionOpener(transport, method);
  const wire = conversion
    ? params.map((param, i) => (conversion.p[i] ? convertWire(param, conversion.p[i], conversion.s, true) : param))
    : params;
  const headers = contract === undefined ? options.headers : { [CONTRACT_HEADER]: contract, ...options.headers };
  const connect = (lastEventId: string | undefined, signal: AbortSignal) =>
    open(method, wire, { ...options, headers, lastEventId, signal });
  return new MethodStream(connect, declaredErrors, conversion, options);
}

/** How the connections of `method`'s calls through `transport` are opened; throws for a transport that cannot stream. */
function connectionOpener(transport: Transport, method: string): NonNullable<Transport['stream']> {
  if (typeof transport.stream === 'function') return transport.stream.bind(transport);
  if (isHttpConnectionSource(transport)) return (...args) => openHttpStream(transport, ...args);
  throw new TypeError(
    `${method} is a stream method, and this transport cannot stream (it has no stream() member): use HttpTransport or BatchingTransport`,
  );
}

/** Opens one connection, resuming after `lastEventId`; `signal` closes it. */
type Connect = (lastEventId: string | undefined, signal: AbortSignal) => Promise<StreamConnection>;

class MethodStream implements RpcStream<unknown> {
  lastEventId: string | undefined;
  private iterator: AsyncGenerator<unknown> | undefined;
  /** The `retry:` the server last sent, in milliseconds. */
  private serverRetry: number | undefined;
  /** An item arrived since the last reconnection: the reconnections in a row count from 0 again. */
  private progress = false;

  constructor(
    private readonly connect: Connect,
    private readonly declaredErrors: readonly DeclaredErrorClass[],
    private readonly conversion: WireConversion | undefined,
    private readonly options: StreamOptions,
  ) {
    this.lastEventId = options.lastEventId;
  }

  [Symbol.asyncIterator](): AsyncGenerator<unknown> {
    this.iterator ??= this.items();
    return this.iterator;
  }

  private async *items(): AsyncGenerator<unknown> {
    const shape = this.conversion?.r;
    try {
      for await (const item of this.connections()) yield shape ? convertWire(item, shape, this.conversion!.s, false) : item;
    } catch (error) {
      throw declaredErrorOf(error, this.declaredErrors);
    }
  }

  /** The items of one connection after another, until the stream's end or error. */
  private async *connections(): AsyncGenerator<unknown> {
    // Ends the connection when the loop is left (break, an error) or the caller's signal aborts.
    const lifetime = new AbortController();
    const { signal } = this.options;
    const onAbort = () => lifetime.abort(transportError('request aborted'));
    if (signal?.aborted) onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      for (let failures = 0, opened = false; ; ) {
        const connection = new AbortController();
        const onEnd = () => connection.abort(lifetime.signal.reason);
        lifetime.signal.addEventListener('abort', onEnd, { once: true });
        let lost: unknown;
        try {
          const open = await this.connect(this.lastEventId, connection.signal).catch((error: unknown) => {
            if (lifetime.signal.aborted) throw lifetime.signal.reason;
            // Before the stream ever opened, a failure is the call's, as for any call; after, a
            // transport failure of a reconnection is tried again, an error answer ends the stream.
            if (!opened || !mayReconnectAfter(error)) throw error;
            return { lost: error };
          });
          if ('lost' in open) lost = open.lost;
          else {
            opened = true;
            // What read throws (the stream's final error, a broken event) ends the stream.
            lost = yield* this.read(open, connection.signal);
            if (lost === undefined) return;
          }
        } finally {
          lifetime.signal.removeEventListener('abort', onEnd);
          connection.abort(transportError('stream closed'));
        }
        if (this.progress) failures = 0;
        this.progress = false;
        const delay = reconnectDelay(this.reconnectOptions, ++failures, this.serverRetry);
        if (delay === undefined) throw lost;
        await pause(delay, lifetime.signal);
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
      if (!lifetime.signal.aborted) lifetime.abort(transportError('stream closed'));
    }
  }

  /** The transport's reconnect option, as its last connection told. */
  private reconnectOptions: StreamConnection['reconnect'] = {};

  /**
   * Yields the items of one connection; returns undefined at the stream's end, or the error of a
   * lost connection (the server's reconnect message is one); throws the stream's error.
   */
  private async *read({ id, body, reconnect }: StreamConnection, connection: AbortSignal): AsyncGenerator<unknown, unknown> {
    this.reconnectOptions = reconnect;
    const reader = body.getReader();
    const parser = new SseParser(this.lastEventId);
    try {
      for (;;) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch (error) {
          if (connection.aborted) throw connection.reason;
          return networkError(error);
        }
        if (chunk.done) return transportError('the stream ended without its final response');
        for (const event of parser.push(chunk.value)) {
          if (event.type !== 'message') continue;
          const message = parseMessage(event.data);
          if (message.method === 'rpc.stream.item' && message.params?.id === id) {
            this.lastEventId = event.lastEventId === '' ? undefined : event.lastEventId;
            this.progress = true;
            yield message.params.item;
          } else if (message.method === 'rpc.stream.reconnect' && message.params?.id === id) {
            this.serverRetry = parser.retry;
            return transportError('the server asked the stream to reconnect');
          } else if ('result' in message || isErrorResponse(message)) {
            resultOf(message, id, 200);
            return undefined;
          }
          // Anything else (another request's message, an extension's) is not this stream's.
        }
      }
    } finally {
      reader.cancel().catch(() => undefined);
    }
  }
}

interface StreamMessage {
  method?: unknown;
  params?: { id?: unknown; item?: unknown };
}

/** An event's data: one JSON-RPC message, else the stream fails (the server breaks the protocol). */
function parseMessage(data: string): StreamMessage {
  let message: unknown;
  try {
    message = JSON.parse(data);
  } catch {}
  if (typeof message !== 'object' || message === null || Array.isArray(message))
    throw transportError('a stream event is not a JSON-RPC message');
  return message as StreamMessage;
}
