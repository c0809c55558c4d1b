/**
 * What a stream method's handler yields: an item, or an item with the SSE event id the handler
 * chose for it (`streamEvent(item, id)`), so that a client resuming with `Last-Event-ID` sends back
 * an id the handler understands (docs/protocol.md, "Streams").
 */

/** An item with its own SSE event id, made by `streamEvent`. */
export interface StreamEvent<T> {
  readonly item: T;
  readonly id: string;
  /** Brand: a plain object with `item` and `id` fields is an item like any other. */
  readonly [STREAM_EVENT]: true;
}

/** What a stream method's handler returns: an async iterable (an async generator) of items, or a promise of one. */
export type StreamHandlerResult<T> = AsyncIterable<T | StreamEvent<T>> | Promise<AsyncIterable<T | StreamEvent<T>>>;

const STREAM_EVENT: unique symbol = Symbol.for('unplugin-idl-rpc.streamEvent');

/**
 * An item with the SSE event id `id` (sent as `id:` and given back as `ctx.lastEventId` when the
 * client resumes): `yield streamEvent(order, order.version)`. Without it an item's id is its ordinal.
 * The id must be an event id the client can send back (`isUsableEventId`); the server checks it as
 * the item is written and ends the stream with -32603 otherwise.
 */
export function streamEvent<T>(item: T, id: string): StreamEvent<T> {
  return { item, id, [STREAM_EVENT]: true };
}

/** Whether a yielded value is a `streamEvent(...)`. */
export function isStreamEvent(value: unknown): value is StreamEvent<unknown> {
  return typeof value === 'object' && value !== null && (value as { [STREAM_EVENT]?: unknown })[STREAM_EVENT] === true;
}
