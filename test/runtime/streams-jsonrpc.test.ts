/**
 * Stream methods over the JSON-RPC binding (docs/protocol.md, "Streams"), through `handleHttp` and
 * the answer's `AnswerStream`: the exact bytes, event ids and resuming, negotiation, batches,
 * notifications, errors before and during the stream.
 */
import { describe, expect, it, vi } from 'vitest';
import { RpcError } from '../../runtime/errors.js';
import type { RpcContext } from '../../runtime/server.js';
import { streamEvent } from '../../runtime/streams/stream-event.js';
import { messagesOf, post, readAll, rpc, serverWith } from './streams-helpers.js';

type Order = { id: string; status: string };

describe('a stream over the JSON-RPC binding', () => {
  it('answers 200 text/event-stream, each item an rpc.stream.item notification with an id, then one response', async () => {
    const { server } = serverWith({
      watchOrder: async function* (orderId: string) {
        yield { id: orderId, status: 'pending' };
        yield { id: orderId, status: 'paid' };
      },
    });
    const answer = await server.handleHttp(post(rpc('OrderService.watchOrder', ['o-1'], 7)));
    expect(answer.status).toBe(200);
    expect(answer.headers).toEqual({
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
    });
    expect(answer.body).toBe('');
    expect((await readAll(answer)).join('')).toBe(
      'id: 1\ndata: {"jsonrpc":"2.0","method":"rpc.stream.item","params":{"id":7,"item":{"id":"o-1","status":"pending"}}}\n\n' +
        'id: 2\ndata: {"jsonrpc":"2.0","method":"rpc.stream.item","params":{"id":7,"item":{"id":"o-1","status":"paid"}}}\n\n' +
        'data: {"jsonrpc":"2.0","id":7,"result":null}\n\n',
    );
    expect(server.openStreams).toBe(0);
  });

  it('streams to any Accept that allows text/event-stream, and refuses with 406 one that excludes it', async () => {
    const { server } = serverWith({});
    for (const accept of ['text/event-stream', '*/*', 'text/*', 'application/json, text/event-stream;q=0.5', '']) {
      const answer = await server.handleHttp(post(rpc('OrderService.count', [1]), { accept }));
      expect([accept, answer.status, answer.headers['content-type']]).toEqual([accept, 200, 'text/event-stream']);
      await readAll(answer);
    }
    for (const accept of ['application/json', 'text/event-stream;q=0', 'text/html, */*;q=0', 'text/event-stream;q=0, */*']) {
      const answer = await server.handleHttp(post(rpc('OrderService.count', [1], 'x'), { accept }));
      expect([accept, answer.status, answer.stream]).toEqual([accept, 406, undefined]);
      expect(answer.headers['content-type']).toBe('application/json');
      expect(JSON.parse(answer.body)).toEqual({
        jsonrpc: '2.0',
        error: {
          code: -32600,
          message:
            "Invalid Request: OrderService.count answers with a stream (text/event-stream), which the request's Accept header excludes",
        },
        id: 'x',
      });
    }
    expect(server.openStreams).toBe(0);
  });

  it('answers a normal method asked with Accept: application/json, text/event-stream with JSON, as before', async () => {
    const { server } = serverWith({});
    const answer = await server.handleHttp(post(rpc('OrderService.getOrder', ['o-2']), { accept: 'application/json, text/event-stream' }));
    expect(answer).toEqual({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc":"2.0","result":{"id":"o-2","status":"paid"},"id":1}',
    });
  });

  it('counts default ids on from a decimal Last-Event-ID and gives the handler the id it was sent', async () => {
    const seen: (string | undefined)[] = [];
    const { server } = serverWith({
      count: async function* (to: number, ctx: RpcContext) {
        seen.push(ctx.lastEventId);
        for (let n = Number(ctx.lastEventId ?? 0) + 1; n <= to; n++) yield n;
      },
    });
    const resumed = await readAll(await server.handleHttp(post(rpc('OrderService.count', [9]), { 'last-event-id': '7' })));
    expect(resumed.map((chunk) => chunk.split('\n')[0])).toEqual(['id: 8', 'id: 9', 'data: {"jsonrpc":"2.0","id":1,"result":null}']);
    expect(messagesOf(resumed).map((message) => (message.params as { item?: number } | undefined)?.item)).toEqual([8, 9, undefined]);

    // An id the server did not issue as a number: the handler is told, the default ids start at 1.
    await readAll(await server.handleHttp(post(rpc('OrderService.count', [0]), { 'last-event-id': 'cursor-x' })));
    expect(seen).toEqual(['7', 'cursor-x']);
  });

  it('treats a Last-Event-ID that can be no event id (too long) as absent', async () => {
    let seen: string | undefined = 'unset';
    const { server } = serverWith({
      count: async function* (_to: number, ctx: RpcContext) {
        seen = ctx.lastEventId;
        yield 1;
      },
    });
    const chunks = await readAll(await server.handleHttp(post(rpc('OrderService.count', [1]), { 'last-event-id': '9'.repeat(1025) })));
    expect(seen).toBeUndefined();
    expect(chunks[0].startsWith('id: 1\n')).toBe(true);
  });

  it('sends the ids a handler sets with streamEvent(item, id)', async () => {
    const { server } = serverWith({
      watchOrder: async function* (orderId: string) {
        yield streamEvent({ id: orderId, status: 'pending' }, 'v-10');
        yield { id: orderId, status: 'paid' };
      },
    });
    const chunks = await readAll(await server.handleHttp(post(rpc('OrderService.watchOrder', ['o-3']))));
    expect(chunks.map((chunk) => chunk.split('\n')[0])).toEqual(['id: v-10', 'id: 2', 'data: {"jsonrpc":"2.0","id":1,"result":null}']);
    expect(messagesOf(chunks)[0]).toEqual({
      jsonrpc: '2.0',
      method: 'rpc.stream.item',
      params: { id: 1, item: { id: 'o-3', status: 'pending' } },
    });
  });

  it('ends the stream with -32603, logged, when a handler sets an id that cannot be an event id', async () => {
    const { server, logger } = serverWith({
      count: async function* () {
        yield streamEvent(1, 'two\nlines');
      },
    });
    const messages = messagesOf(await readAll(await server.handleHttp(post(rpc('OrderService.count', [1])))));
    expect(messages).toEqual([{ jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'Internal error' } }]);
    expect(logger.error.mock.calls[0][0]).toMatch(/OrderService.count yielded streamEvent\(item, id\) with an unusable id "two\\nlines"/);
  });

  it('sends an error the handler throws mid-stream as the final response, a declared error as it is', async () => {
    const { server, logger } = serverWith({
      watchOrder: async function* (orderId: string) {
        yield { id: orderId, status: 'pending' };
        throw new RpcError(1001, 'Order not found', { orderId });
      },
      count: async function* () {
        yield 1;
        throw new Error('the database went away');
      },
    });
    const declared = messagesOf(await readAll(await server.handleHttp(post(rpc('OrderService.watchOrder', ['o-4'])))));
    expect(declared.slice(1)).toEqual([
      { jsonrpc: '2.0', id: 1, error: { code: 1001, message: 'Order not found', data: { orderId: 'o-4' } } },
    ]);
    const unexpected = await readAll(await server.handleHttp(post(rpc('OrderService.count', [2], 2))));
    expect(unexpected[1]).toBe('data: {"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"Internal error"}}\n\n');
    expect(logger.error).toHaveBeenCalledWith('OrderService.count failed', expect.objectContaining({ message: 'the database went away' }));
    expect(server.openStreams).toBe(0);
  });

  it("sends refused params as the stream's only message, an error response", async () => {
    const { server } = serverWith({});
    const chunks = await readAll(await server.handleHttp(post(rpc('OrderService.count', ['ten']))));
    expect(chunks).toHaveLength(1);
    expect(messagesOf(chunks)[0]).toMatchObject({ jsonrpc: '2.0', id: 1, error: { code: -32602 } });
  });

  it('ends the stream with -32603 when an item is not what the IDL says (validateResponses), and runs the finally', async () => {
    const finished = vi.fn();
    const { server, logger } = serverWith({
      watchOrder: async function* (orderId: string) {
        try {
          yield { id: orderId, status: 'pending' };
          yield { id: orderId, status: 42 };
          yield { id: orderId, status: 'never sent' };
        } finally {
          finished();
        }
      },
    });
    const chunks = await readAll(await server.handleHttp(post(rpc('OrderService.watchOrder', ['o-5']))));
    expect(messagesOf(chunks).slice(1)).toEqual([
      { jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'Internal error: invalid item of OrderService.watchOrder' } },
    ]);
    expect(logger.error.mock.calls[0][0]).toMatch(/^OrderService.watchOrder yielded an invalid item: item.status: /);
    await vi.waitFor(() => expect(finished).toHaveBeenCalledOnce());
    expect(server.openStreams).toBe(0);

    // Without validateResponses the item is sent as it is.
    const unchecked = serverWith(
      {
        watchOrder: async function* (orderId: string) {
          yield { id: orderId, status: 42 };
        },
      },
      { validateResponses: false },
    ).server;
    const sent = messagesOf(await readAll(await unchecked.handleHttp(post(rpc('OrderService.watchOrder', ['o-5'])))));
    expect(sent[0]).toMatchObject({ params: { item: { id: 'o-5', status: 42 } } });
  });

  it("writes each item with the method's generated serializer", async () => {
    const { server } = serverWith(
      {
        watchOrder: async function* (orderId: string) {
          yield { id: orderId, status: 'paid', secret: 'dropped by the serializer' };
        },
      },
      { serializers: { 'OrderService.watchOrder': (order) => `{"id":${JSON.stringify((order as Order).id)},"status":"written"}` } },
    );
    const chunks = await readAll(await server.handleHttp(post(rpc('OrderService.watchOrder', ['o-6']))));
    expect(chunks[0]).toBe(
      'id: 1\ndata: {"jsonrpc":"2.0","method":"rpc.stream.item","params":{"id":1,"item":{"id":"o-6","status":"written"}}}\n\n',
    );
  });

  it('takes a promise of an async iterable, and an object with Symbol.asyncIterator', async () => {
    const iterable = (values: number[]): AsyncIterable<number> => ({
      [Symbol.asyncIterator]() {
        let index = 0;
        return { next: async () => (index < values.length ? { done: false, value: values[index++] } : { done: true, value: undefined }) };
      },
    });
    const { server } = serverWith({ count: async (to: number) => iterable([to, to + 1]) });
    const items = messagesOf(await readAll(await server.handleHttp(post(rpc('OrderService.count', [5])))));
    expect(items.map((message) => (message.params as { item?: number } | undefined)?.item ?? message.result)).toEqual([5, 6, null]);
  });

  it('answers -32603, logged, when a stream handler returns something that is no async iterable', async () => {
    const { server, logger } = serverWith({ count: () => [1, 2, 3] });
    const messages = messagesOf(await readAll(await server.handleHttp(post(rpc('OrderService.count', [3])))));
    expect(messages).toEqual([{ jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'Internal error' } }]);
    expect(logger.error).toHaveBeenCalledWith(
      'OrderService.count failed',
      expect.objectContaining({ message: expect.stringMatching(/must return an AsyncIterable .* got object/) }),
    );
  });

  it('answers a batch member naming a stream method with an error in the batch, the others as usual', async () => {
    const { server } = serverWith({});
    const answer = await server.handleHttp(post([rpc('OrderService.count', [2], 1), rpc('OrderService.getOrder', ['o-7'], 2)]));
    expect(answer.stream).toBeUndefined();
    expect(JSON.parse(answer.body)).toEqual([
      {
        jsonrpc: '2.0',
        error: { code: -32600, message: 'Invalid Request: OrderService.count answers with a stream; call it alone, not in a batch' },
        id: 1,
      },
      { jsonrpc: '2.0', result: { id: 'o-7', status: 'paid' }, id: 2 },
    ]);
  });

  it('runs nothing for a notification naming a stream method: 204, logged', async () => {
    const count = vi.fn();
    const { server, logger } = serverWith({ count });
    const answer = await server.handleHttp(post({ jsonrpc: '2.0', method: 'OrderService.count', params: [1] }));
    expect(answer).toEqual({ status: 204, headers: {}, body: '' });
    expect(count).not.toHaveBeenCalled();
    expect(logger.warn).toHaveBeenCalledWith(
      'OrderService.count answers with a stream: a notification of it (a message without id) ran nothing',
    );
  });

  it('streams through handleBody too, with the same negotiation', async () => {
    const { server } = serverWith({});
    const body = JSON.stringify(rpc('OrderService.count', [1]));
    expect(messagesOf(await readAll(await server.handleBody(body)))).toHaveLength(2);
    expect((await server.handleBody(body, { headers: { accept: 'application/json' } })).status).toBe(406);
  });

  it('refuses a stream method through handleJson, which has no body to stream into', async () => {
    const { server } = serverWith({});
    expect(await server.handleJson(rpc('OrderService.count', [1]))).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Invalid Request: OrderService.count answers with a stream (text/event-stream); call it over HTTP' },
      id: 1,
    });
  });
});
