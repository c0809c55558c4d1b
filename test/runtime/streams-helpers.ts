/** Helpers of the stream tests: requests of a stream method and the reading of an `AnswerStream`. */
import { vi } from 'vitest';
import { createRpcServer, type HttpAnswer, type HttpRequestLike, type RpcServerOptions } from '../../runtime/server.js';
import { ordersStreamIdl } from './fixtures/orders-stream-idl.js';

/** Handlers of `OrderService` (fixtures/orders-stream-idl.ts) that a test gives in place of the defaults. */
export type OrderHandlers = Partial<Record<'watchOrder' | 'count' | 'getOrder', unknown>>;

/**
 * A server of `OrderService` whose logger is a pair of spies: `count(to)` streams 1..to and
 * `getOrder` answers a paid order unless `handlers` say otherwise; `watchOrder` is each test's own.
 */
export function serverWith(handlers: OrderHandlers, options: Partial<RpcServerOptions> = {}) {
  const logger = { error: vi.fn(), warn: vi.fn() };
  const service = {
    watchOrder: () => {
      throw new Error('not in this test');
    },
    count: async function* (to: number) {
      for (let n = 1; n <= to; n++) yield n;
    },
    getOrder: (orderId: string) => ({ id: orderId, status: 'paid' }),
    ...handlers,
  };
  return { server: createRpcServer({ idl: ordersStreamIdl, handlers: { OrderService: service }, logger, ...options }), logger };
}

/** A POST of a JSON-RPC body (or REST params) to `path`, with extra headers. */
export function post(body: unknown, headers: Record<string, string> = {}, path = '/'): HttpRequestLike {
  return { method: 'POST', path, body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } };
}

/** A JSON-RPC request object. */
export function rpc(method: string, params: unknown, id: string | number = 1): object {
  return { jsonrpc: '2.0', method, params, id };
}

/** Every chunk of an answer's stream, read until its end. */
export async function readAll(answer: HttpAnswer): Promise<string[]> {
  const stream = answer.stream;
  if (stream === undefined) throw new Error(`not a stream: ${answer.status} ${answer.body}`);
  const chunks: string[] = [];
  for (let chunk = await stream.next(); chunk !== undefined; chunk = await stream.next()) chunks.push(chunk);
  return chunks;
}

/** One SSE event as a client's parser sees it. */
export interface SseEvent {
  event?: string;
  id?: string;
  retry?: string;
  data?: string;
  comment?: boolean;
}

/** Parses SSE text into its events (comment-only blocks kept as `{ comment: true }`). */
export function parseEvents(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  for (const block of text.split('\n\n')) {
    if (block === '') continue;
    const event: SseEvent = {};
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) {
        event.comment = true;
        continue;
      }
      const colon = line.indexOf(':');
      const field = line.slice(0, colon) as 'event' | 'id' | 'retry' | 'data';
      event[field] = line.slice(colon + 2);
    }
    events.push(event);
  }
  return events;
}

/** The JSON-RPC messages of an answer's `data:` lines, in order. */
export function messagesOf(chunks: readonly string[]): Record<string, unknown>[] {
  return parseEvents(chunks.join(''))
    .filter((event) => event.data !== undefined)
    .map((event) => JSON.parse(event.data!) as Record<string, unknown>);
}
