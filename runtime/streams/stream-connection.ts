/**
 * The HTTP side of a stream method's call (docs/protocol.md, "Streams"): one connection to an
 * HttpTransport's or BatchingTransport's address, POSTed through the call pipeline, asking for
 * `text/event-stream`. Only `streamMethod` (client-stream.ts, which reads the events and
 * reconnects) imports it, so apps without stream methods carry none of it: the transports have no
 * stream code of their own.
 */
import { runCall, type HttpConnectionSource, type RpcCall, type StreamConnection, type StreamOptions } from '../client-call.js';
import { isErrorResponse, post, readAnswer, resultOf, statusError } from '../json-rpc-exchange.js';
import { transportError } from '../transport-error.js';

/**
 * The JSON-RPC id of the next connection. A connection is a request of its own, whose answer
 * carries only its id: ids need not differ from the ids of calls, only between a stream's connections.
 */
let nextConnectionId = 1;

/** Whether `transport` is one `openHttpStream` can open connections of (it POSTs to an address). */
export function isHttpConnectionSource(transport: object): transport is HttpConnectionSource {
  const { baseAddress, options } = transport as Partial<HttpConnectionSource>;
  return typeof baseAddress === 'string' && typeof options === 'object' && options !== null;
}

/**
 * Opens one connection of a stream method's call to the address of `source`, with its options: what
 * `streamMethod` does for `HttpTransport` and `BatchingTransport`, and what a transport of its own
 * wrapping one of them may call from its `stream()` member.
 */
export async function openHttpStream(
  source: HttpConnectionSource,
  method: string,
  params: unknown[],
  options: StreamOptions = {},
): Promise<StreamConnection> {
  const { options: transport, baseAddress: address } = source;
  const id = nextConnectionId++;
  const { lastEventId, signal } = options;
  const headers = lastEventId === undefined ? options.headers : { ...options.headers, 'last-event-id': lastEventId };
  const body = await runCall(
    transport,
    method,
    params,
    { ...options, headers, retry: false },
    (call) => openEventStream(transport.fetch ?? globalThis.fetch, address, call, id, signal),
    true,
  );
  // What openEventStream gives, unless an interceptor answered the call itself with something else.
  if (typeof (body as ReadableStream | undefined)?.getReader !== 'function') {
    throw transportError('a stream call was answered without its event stream (an interceptor must pass on what next() resolves to)');
  }
  return { id, body: body as ReadableStream<Uint8Array>, reconnect: transport.reconnect ?? {} };
}

/**
 * POSTs the request of one connection; resolves to the body once the answer's headers arrived and
 * say `text/event-stream`. `connection` aborts the fetch, body included (the call's own signal
 * ends with the pipeline's attempt, so it cannot: a timeout or an abort while connecting fails the
 * attempt, and the caller then closes the connection). Any other answer throws: its JSON-RPC error
 * (a 406 for an `Accept` without event streams, an error before the stream began), else a
 * transport error.
 */
async function openEventStream(
  doFetch: typeof fetch,
  address: string,
  call: RpcCall,
  id: number,
  connection = new AbortController().signal,
): Promise<ReadableStream<Uint8Array>> {
  const request = JSON.stringify({ jsonrpc: '2.0', method: call.method, params: call.params, id });
  const response = await post(doFetch, address, { accept: 'text/event-stream', ...call.headers }, request, connection);
  const { status, body } = response;
  const ok = status >= 200 && status <= 299;
  if (ok && body && /^text\/event-stream\b/i.test(response.headers.get('content-type') ?? '')) return body;
  const answer = await readAnswer(response, connection);
  let message: unknown;
  try {
    message = JSON.parse(answer.text);
  } catch {}
  if (isErrorResponse(message)) resultOf(message, id, status);
  throw ok ? transportError('the answer is not an event stream', { status }) : statusError(answer);
}
