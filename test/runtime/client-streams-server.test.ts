/**
 * The client's streams against the real server core (createRpcServer with stream handlers): a
 * connection cut mid-stream and resumed with Last-Event-ID, a server restart (its reconnect
 * message) resumed on the next server, declared errors as their classes, and closing the
 * connection running the handler's `finally`. Interceptors see each connection.
 */
import { describe, expect, it, vi } from 'vitest';
import { DeclaredError, HttpTransport, type Interceptor, type RpcCall, streamMethod } from '../../runtime/client.js';
import { createRpcServer, type RpcServer } from '../../runtime/server.js';
import { aborted, counting } from './counting-handler.js';
import { ordersStreamIdl } from './fixtures/orders-stream-idl.js';
import { streamFront as front } from './stream-front.js';

class OrderNotFoundError extends DeclaredError {
  static readonly code = 1001;
  static readonly errorName = 'OrderNotFound';
  static readonly defaultMessage = 'Order not found';
}

function rpcServer(handlers: Partial<Record<'watchOrder' | 'count', unknown>>): RpcServer {
  const service = {
    watchOrder: () => {
      throw new OrderNotFoundError('o-4', { orderId: 'o-4' });
    },
    count: counting().count,
    getOrder: (orderId: string) => ({ id: orderId, status: 'paid' }),
    ...handlers,
  };
  return createRpcServer({ idl: ordersStreamIdl, handlers: { OrderService: service }, logger: { error: vi.fn(), warn: vi.fn() } });
}

async function collect(stream: AsyncIterable<unknown>): Promise<unknown[]> {
  const items: unknown[] = [];
  for await (const value of stream) items.push(value);
  return items;
}

const fast = { reconnect: { initialDelayMs: 1, maxDelayMs: 5 } };

describe('streamMethod against createRpcServer', () => {
  it('resumes a connection cut mid-stream with Last-Event-ID: every item once, in order; interceptors see each connection', async () => {
    const handler = counting();
    const rpc = await front(rpcServer({ count: handler.count }));
    rpc.cutAfter = 3;
    const attempts: RpcCall[] = [];
    const auth: Interceptor = (next) => (call) => {
      attempts.push(call);
      return next({ ...call, headers: { ...call.headers, authorization: `Bearer ${attempts.length}` } });
    };
    const stream = streamMethod(new HttpTransport(rpc.url, { ...fast, interceptors: [auth] }), 'OrderService.count', [8], []);
    expect(await collect(stream)).toStrictEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(stream.lastEventId).toBe('8');
    expect(handler.lastEventIds).toStrictEqual([undefined, '3']);
    expect(attempts.map((call) => [call.stream, call.headers['last-event-id']])).toStrictEqual([
      [true, undefined],
      [true, '3'],
    ]);
  });

  it("resumes across a restart: the closing server's reconnect message, then the next server goes on", async () => {
    const before = counting((n, signal) => (n === 3 ? aborted(signal) : Promise.resolve()));
    const rpc = await front(rpcServer({ count: before.count }));
    const after = counting();
    const items: unknown[] = [];
    for await (const value of streamMethod(new HttpTransport(rpc.url, fast), 'OrderService.count', [5], [])) {
      items.push(value);
      if (value === 2) {
        const closing = rpc.serving.server.closeStreams();
        rpc.serving = { server: rpcServer({ count: after.count }) };
        await closing;
      }
    }
    expect(items).toStrictEqual([1, 2, 3, 4, 5]);
    expect(before.finished).toStrictEqual([true]);
    expect(after.lastEventIds).toStrictEqual(['2']);
  });

  it('throws a declared error as its class', async () => {
    const rpc = await front(rpcServer({}));
    const error = await collect(streamMethod(new HttpTransport(rpc.url), 'OrderService.watchOrder', ['o-4'], [OrderNotFoundError])).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(OrderNotFoundError);
    expect(error).toMatchObject({ detail: 'o-4', data: { orderId: 'o-4' } });
  });

  it("closes the connection when the loop is left, and the handler's finally runs", async () => {
    const handler = counting((n, signal) => (n > 1 ? aborted(signal) : Promise.resolve()));
    const rpc = await front(rpcServer({ count: handler.count }));
    for await (const value of streamMethod(new HttpTransport(rpc.url), 'OrderService.count', [3], [])) {
      expect(value).toBe(1);
      break;
    }
    await rpc.closed[0];
    await vi.waitFor(() => expect(handler.finished).toStrictEqual([true]));
  });

  it("closes the connection when the signal aborts, and the handler's finally runs", async () => {
    const handler = counting((n, signal) => (n > 1 ? aborted(signal) : Promise.resolve()));
    const rpc = await front(rpcServer({ count: handler.count }));
    const controller = new AbortController();
    const error = await collect(
      (async function* () {
        for await (const value of streamMethod(new HttpTransport(rpc.url), 'OrderService.count', [3], [], { signal: controller.signal })) {
          yield value;
          controller.abort();
        }
      })(),
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: -32000, message: 'Transport error: request aborted' });
    await vi.waitFor(() => expect(handler.finished).toStrictEqual([true]));
  });
});
