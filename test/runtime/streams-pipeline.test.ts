/**
 * Stream methods and the rest of the server (docs/runtime.md, "Streams"): the REST binding's
 * framing, middleware, `onCall`, the `instrumentation` seam and CORS all see a stream's call.
 */
import { describe, expect, it } from 'vitest';
import type { CallInstrumentation } from '../../runtime/call-instrumentation.js';
import { RpcError } from '../../runtime/errors.js';
import { defineMiddleware } from '../../runtime/middleware.js';
import type { CallEvent, RpcContext, RpcServerOptions } from '../../runtime/server.js';
import { streamEvent } from '../../runtime/streams/stream-event.js';
import { messagesOf, type OrderHandlers, post, readAll, rpc, serverWith as ordersServer } from './streams-helpers.js';

type Order = { id: string; status: string };

/** The helpers' server, with a `watchOrder` of two items (`missing`: a declared error before the first). */
function serverWith(handlers: OrderHandlers, options: Partial<RpcServerOptions> = {}) {
  const watchOrder = async function* (orderId: string): AsyncGenerator<Order> {
    if (orderId === 'missing') throw new RpcError(1001, 'Order not found');
    yield { id: orderId, status: 'pending' };
    yield { id: orderId, status: 'paid' };
  };
  return ordersServer({ watchOrder, ...handlers }, options);
}

describe('the REST binding', () => {
  it('streams named item events with ids, then an end event', async () => {
    const { server } = serverWith({
      watchOrder: async function* (orderId: string) {
        yield { id: orderId, status: 'pending' };
        yield streamEvent({ id: orderId, status: 'paid' }, 'v2');
      },
    });
    const answer = await server.handleHttp(post({ orderId: 'o-1' }, { accept: 'text/event-stream' }, '/rpc/OrderService/watchOrder'));
    expect([answer.status, answer.headers['content-type']]).toEqual([200, 'text/event-stream']);
    expect((await readAll(answer)).join('')).toBe(
      'event: item\nid: 1\ndata: {"id":"o-1","status":"pending"}\n\n' +
        'event: item\nid: v2\ndata: {"id":"o-1","status":"paid"}\n\n' +
        'event: end\ndata: null\n\n',
    );
  });

  it("ends with an error event holding the binding's error body; refused params are that event too", async () => {
    const { server } = serverWith({});
    expect(await readAll(await server.handleHttp(post({ orderId: 'missing' }, {}, '/OrderService/watchOrder')))).toEqual([
      'event: error\ndata: {"code":1001,"message":"Order not found"}\n\n',
    ]);
    const refused = await readAll(await server.handleHttp(post({}, {}, '/OrderService/watchOrder')));
    expect(refused[0]).toMatch(/^event: error\ndata: \{"code":-32602,"message":"Invalid params: params: missing parameter 'orderId'"/);
  });

  it("answers 406 with the binding's error body when Accept excludes text/event-stream", async () => {
    const { server } = serverWith({});
    const answer = await server.handleHttp(post({ orderId: 'o' }, { accept: 'application/json' }, '/OrderService/watchOrder'));
    expect(answer).toEqual({
      status: 406,
      headers: { 'content-type': 'application/json' },
      body: '{"code":-32600,"message":"Invalid Request: OrderService.watchOrder answers with a stream (text/event-stream), which the request\'s Accept header excludes"}',
    });
  });
});

describe('middleware', () => {
  it("sees the call; next() resolves to the handler's iterable, which it may wrap", async () => {
    const seen: string[] = [];
    const upper = defineMiddleware()(async (call, next) => {
      seen.push(`${call.method}(${call.params.join(',')})`);
      const items = (await next()) as AsyncIterable<Order>;
      return (async function* () {
        for await (const order of items) yield { ...order, status: order.status.toUpperCase() };
      })();
    });
    const { server } = serverWith({}, { middleware: [upper] });
    const messages = messagesOf(await readAll(await server.handleHttp(post(rpc('OrderService.watchOrder', ['o-2'])))));
    expect(seen).toEqual(['OrderService.watchOrder(o-2)']);
    expect(messages.map((message) => (message.params as { item?: Order } | undefined)?.item?.status)).toEqual([
      'PENDING',
      'PAID',
      undefined,
    ]);
  });

  it("rejecting the call makes the stream's only message the error", async () => {
    const deny = defineMiddleware()(() => {
      throw new RpcError(-32010, 'Unauthorized');
    });
    const { server } = serverWith({}, { middlewareFor: { 'OrderService.watchOrder': [deny] } });
    expect(messagesOf(await readAll(await server.handleHttp(post(rpc('OrderService.watchOrder', ['o'])))))).toEqual([
      { jsonrpc: '2.0', id: 1, error: { code: -32010, message: 'Unauthorized' } },
    ]);
  });

  it('values a middleware adds reach the generator, with ctx.lastEventId', async () => {
    const addUser = defineMiddleware<{ user: string }>()((_call, next) => next({ user: 'ada' }));
    const { server } = serverWith(
      {
        count: async function* (_to: number, ctx: RpcContext & { user: string }) {
          yield `${ctx.user}@${ctx.lastEventId}`.length;
        },
      },
      { middleware: [addUser] },
    );
    const messages = messagesOf(await readAll(await server.handleHttp(post(rpc('OrderService.count', [1]), { 'last-event-id': '41' }))));
    expect(messages[0]).toMatchObject({ params: { item: 'ada@41'.length } });
  });
});

describe('onCall', () => {
  it('gets one event per stream, when it ends: a result for the end, the error for an error', async () => {
    const events: CallEvent[] = [];
    const { server } = serverWith({}, { onCall: (event) => events.push(event) });
    const answer = await server.handleHttp(post(rpc('OrderService.watchOrder', ['o-3'], 5)));
    await answer.stream!.next();
    expect(events).toEqual([]);
    await readAll(answer);
    await readAll(await server.handleHttp(post(rpc('OrderService.watchOrder', ['missing'], 6))));
    expect(events.map(({ method, id, outcome, error }) => ({ method, id, outcome, error }))).toEqual([
      { method: 'OrderService.watchOrder', id: 5, outcome: 'result', error: undefined },
      { method: 'OrderService.watchOrder', id: 6, outcome: 'error', error: { code: 1001, message: 'Order not found' } },
    ]);
  });
});

describe('the instrumentation seam', () => {
  it('one call per stream, item(index) per item, end once when the stream ends (a cancel too)', async () => {
    const log: string[] = [];
    const instrumentation: CallInstrumentation = {
      startCall: ({ method, id }) => {
        log.push(`start ${method} ${id}`);
        return {
          run: (work) => work(),
          item: (index) => log.push(`item ${index}`),
          end: (outcome) => log.push(`end ${outcome.error?.code ?? 'ok'}`),
        };
      },
    };
    const { server } = serverWith({}, { instrumentation });
    await readAll(await server.handleHttp(post(rpc('OrderService.count', [2], 1))));
    const cancelled = await server.handleHttp(post(rpc('OrderService.count', [5], 2)));
    await cancelled.stream!.next();
    cancelled.stream!.cancel();
    await readAll(await server.handleHttp(post(rpc('OrderService.watchOrder', ['missing'], 3))));
    expect(log).toEqual([
      'start OrderService.count 1',
      'item 0',
      'item 1',
      'end ok',
      'start OrderService.count 2',
      'item 0',
      'end ok',
      'start OrderService.watchOrder 3',
      'end 1001',
    ]);
  });
});

describe('CORS', () => {
  it("decorates a stream's answer for an allowed origin", async () => {
    const { server } = serverWith({}, { cors: { origins: ['https://shop.example'] } });
    const answer = await server.handleHttp(post(rpc('OrderService.count', [1]), { origin: 'https://shop.example' }));
    expect(answer.headers).toMatchObject({
      'content-type': 'text/event-stream',
      'access-control-allow-origin': 'https://shop.example',
      vary: 'Origin',
    });
    expect(messagesOf(await readAll(answer))).toHaveLength(2);
  });
});
