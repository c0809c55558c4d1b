/**
 * How a stream's events are written as SSE text, per binding (docs/protocol.md, "Streams"): the
 * JSON-RPC binding sends JSON-RPC 2.0 messages (`rpc.stream.item` notifications, then one
 * response), the REST binding named events (`item`, `end`, `error`, `reconnect`). Every event is
 * one `data:` line: JSON text never holds a raw line break.
 */
import type { ErrorObject, JsonRpcId } from '../call-outcome.js';

/** The notification method of each item (JSON-RPC reserves `rpc.` names for extensions like this). */
export const STREAM_ITEM_METHOD = 'rpc.stream.item';
/** The notification method that tells the client to reconnect with `Last-Event-ID`. */
export const STREAM_RECONNECT_METHOD = 'rpc.stream.reconnect';

/** An SSE comment line: keeps proxies and clients from taking an idle stream for a dead one. */
export const HEARTBEAT = ': \n\n';

/** The SSE text of one binding's events. */
export interface SseFraming {
  /** One item: its event id and its JSON text. */
  item(eventId: string, itemJson: string): string;
  /** The end of the stream (all items sent). */
  end(): string;
  /** The error that ends the stream. */
  error(error: ErrorObject): string;
  /** The stream is cut (shutdown, time limit): reconnect after `retryMs` with `Last-Event-ID`. */
  reconnect(retryMs: number): string;
  /** The JSON body of an answer that refuses the stream before it starts (406, 503). */
  refusal(error: ErrorObject): string;
}

/** The JSON-RPC binding's framing of the stream of the call with id `id`. */
export function jsonRpcFraming(id: JsonRpcId): SseFraming {
  const idText = JSON.stringify(id);
  const itemPrefix = `data: {"jsonrpc":"2.0","method":"${STREAM_ITEM_METHOD}","params":{"id":${idText},"item":`;
  return {
    item: (eventId, itemJson) => `id: ${eventId}\n${itemPrefix}${itemJson}}}\n\n`,
    end: () => `data: {"jsonrpc":"2.0","id":${idText},"result":null}\n\n`,
    error: (error) => `data: {"jsonrpc":"2.0","id":${idText},"error":${errorText(error)}}\n\n`,
    reconnect: (retryMs) =>
      `retry: ${retryMs}\ndata: {"jsonrpc":"2.0","method":"${STREAM_RECONNECT_METHOD}","params":{"id":${idText}}}\n\n`,
    refusal: (error) => `{"jsonrpc":"2.0","error":${errorText(error)},"id":${idText}}`,
  };
}

/** The REST binding's framing: named events, the item's JSON as their data. */
export const REST_FRAMING: SseFraming = {
  item: (eventId, itemJson) => `event: item\nid: ${eventId}\ndata: ${itemJson}\n\n`,
  end: () => 'event: end\ndata: null\n\n',
  error: (error) => `event: error\ndata: ${errorText(error)}\n\n`,
  reconnect: (retryMs) => `event: reconnect\nretry: ${retryMs}\ndata: null\n\n`,
  refusal: errorText,
};

/** An error object's JSON; its `data` left out when JSON has no text for it (a cycle, a BigInt). */
function errorText(error: ErrorObject): string {
  try {
    return JSON.stringify(error.data === undefined ? { code: error.code, message: error.message } : error);
  } catch {
    return JSON.stringify({ code: error.code, message: error.message });
  }
}
