/**
 * The client's stream calls (runtime/streams/) against a real node:http server that writes the
 * wire's exact bytes (docs/protocol.md, "Streams"): items as they arrive, the end, declared errors,
 * answers that are no event stream, reconnection with Last-Event-ID after a cut connection or the
 * server's reconnect message, interceptors per attempt, and closing the connection.
 */
import { describe, expect, it } from 'vitest';
import {
  BatchingTransport,
  DeclaredError,
  HttpTransport,
  RpcError,
  streamMethod,
  type Interceptor,
  type RpcCall,
  type Transport,
} from '../../runtime/client.js';
import { countFrom, end, failure, item, reconnect, SSE_HEADERS, sseServer } from './sse-stand-in.js';

class OrderNotFoundError extends DeclaredError {
  static readonly code = 1101;
  static readonly errorName = 'OrderNotFound';
  static readonly defaultMessage = 'no such order';
}

async function collect(stream: AsyncIterable<unknown>): Promise<unknown[]> {
  const items: unknown[] = [];
  for await (const value of stream) items.push(value);
  return items;
}

async function failureOf(stream: AsyncIterable<unknown>): Promise<unknown> {
  return collect(stream).then(
    () => expect.fail('the stream ended without an error'),
    (error: unknown) => error,
  );
}

const fast = { reconnect: { initialDelayMs: 1, maxDelayMs: 5 } };

describe('streamMethod over HttpTransport', () => {
  it('yields the items as the server writes them, then ends at the final response', async () => {
    const { url, seen } = await sseServer((request, response) => {
      response.writeHead(200, SSE_HEADERS);
      response.write(`: heartbeat\n\n${countFrom(request, 3)}`);
      response.end(end(request.body.id));
    });
    const stream = streamMethod(new HttpTransport(url), 'OrderService.watchOrder', ['o1'], [], undefined, 'fp1');
    expect(seen).toHaveLength(0); // lazy: nothing sent yet
    expect(stream.lastEventId).toBeUndefined();
    const items: unknown[] = [];
    for await (const value of stream) items.push({ value, id: stream.lastEventId });
    expect(items).toStrictEqual([
      { value: { n: 1 }, id: '1' },
      { value: { n: 2 }, id: '2' },
      { value: { n: 3 }, id: '3' },
    ]);
    expect(seen).toHaveLength(1);
    expect(seen[0].body).toMatchObject({ jsonrpc: '2.0', method: 'OrderService.watchOrder', params: ['o1'] });
    expect(seen[0].headers).toMatchObject({ accept: 'text/event-stream', 'content-type': 'application/json', 'x-idlrpc-contract': 'fp1' });
    expect(seen[0].headers['last-event-id']).toBeUndefined();
  });

  it('yields the first item while the server has not finished (no buffering)', async () => {
    let finish!: () => void;
    const { url } = await sseServer((request, response) => {
      response.writeHead(200, SSE_HEADERS);
      response.write(item(request.body.id, '1', 'first'));
      finish = () => response.end(end(request.body.id));
    });
    const iterator = streamMethod(new HttpTransport(url), 'S.m', [], [])[Symbol.asyncIterator]();
    expect(await iterator.next()).toStrictEqual({ value: 'first', done: false });
    finish();
    expect(await iterator.next()).toStrictEqual({ value: undefined, done: true });
  });

  it('resumes a cut connection with Last-Event-ID: every item once, in order; interceptors see each attempt', async () => {
    const { url, seen } = await sseServer((request, response, index) => {
      response.writeHead(200, SSE_HEADERS);
      if (index === 0) {
        // Two items, then half of the third, then the connection breaks.
        response.write(countFrom(request, 2) + item(request.body.id, '3', { n: 3 }).slice(0, 20));
        setTimeout(() => response.socket?.destroy(), 20);
      } else {
        response.end(countFrom(request, 5) + end(request.body.id));
      }
    });
    const attempts: RpcCall[] = [];
    let token = 0;
    const auth: Interceptor = (next) => (call) => {
      attempts.push(call);
      return next({ ...call, headers: { ...call.headers, authorization: `Bearer ${++token}` } });
    };
    const transport = new HttpTransport(url, { ...fast, interceptors: [auth] });
    const stream = streamMethod(transport, 'OrderService.watchOrder', ['o1'], []);
    expect(await collect(stream)).toStrictEqual([1, 2, 3, 4, 5].map((n) => ({ n })));
    expect(stream.lastEventId).toBe('5');
    expect(seen.map((s) => s.headers['last-event-id'])).toStrictEqual([undefined, '2']);
    expect(seen.map((s) => s.headers.authorization)).toStrictEqual(['Bearer 1', 'Bearer 2']);
    expect(attempts.map((call) => [call.method, call.stream, call.headers['last-event-id']])).toStrictEqual([
      ['OrderService.watchOrder', true, undefined],
      ['OrderService.watchOrder', true, '2'],
    ]);
  });

  it("resumes after the server's reconnect message, and after a body that ended without the final response", async () => {
    const { url, seen } = await sseServer((request, response, index) => {
      response.writeHead(200, SSE_HEADERS);
      if (index === 0) response.end(countFrom(request, 1) + reconnect(request.body.id, 3));
      else if (index === 1) response.end(countFrom(request, 2));
      else response.end(countFrom(request, 3) + end(request.body.id));
    });
    expect(await collect(streamMethod(new HttpTransport(url, fast), 'S.m', [], []))).toStrictEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(seen.map((s) => s.headers['last-event-id'])).toStrictEqual([undefined, '1', '2']);
  });

  it('starts from options.lastEventId', async () => {
    const { url, seen } = await sseServer((request, response) => {
      response.writeHead(200, SSE_HEADERS);
      response.end(countFrom(request, 4) + end(request.body.id));
    });
    const stream = streamMethod(new HttpTransport(url), 'S.m', [], [], { lastEventId: '2' });
    expect(stream.lastEventId).toBe('2');
    expect(await collect(stream)).toStrictEqual([{ n: 3 }, { n: 4 }]);
    expect(seen[0].headers['last-event-id']).toBe('2');
  });

  it('gives up after `attempts` reconnections in a row without an item, with the last error', async () => {
    const { url, seen } = await sseServer((request, response, index) => {
      response.writeHead(200, SSE_HEADERS);
      response.end(index === 0 ? countFrom(request, 1) : '');
    });
    const transport = new HttpTransport(url, { reconnect: { attempts: 2, initialDelayMs: 1 } });
    const error = await failureOf(streamMethod(transport, 'S.m', [], []));
    expect(error).toBeInstanceOf(RpcError);
    expect((error as RpcError).message).toBe('Transport error: the stream ended without its final response');
    expect(seen).toHaveLength(3);
  });

  it('with reconnect: false, fails at the first lost connection', async () => {
    const { url, seen } = await sseServer((request, response) => {
      response.writeHead(200, SSE_HEADERS);
      response.end(countFrom(request, 1));
    });
    const error = await failureOf(streamMethod(new HttpTransport(url, { reconnect: false }), 'S.m', [], []));
    expect((error as RpcError).code).toBe(-32000);
    expect(seen).toHaveLength(1);
  });

  it('throws a declared error as its class, and any other error as an RpcError', async () => {
    const { url } = await sseServer((request, response, index) => {
      response.writeHead(200, SSE_HEADERS);
      const error =
        index === 0
          ? { code: 1101, message: 'OrderNotFound: order o9', data: { orderId: 'o9' } }
          : { code: -32603, message: 'Internal error' };
      response.end(countFrom(request, 1) + failure(request.body.id, error));
    });
    const transport = new HttpTransport(url);
    const declared = await failureOf(streamMethod(transport, 'S.m', [], [OrderNotFoundError]));
    expect(declared).toBeInstanceOf(OrderNotFoundError);
    expect(declared).toMatchObject({ detail: 'order o9', data: { orderId: 'o9' } });
    const other = await failureOf(streamMethod(transport, 'S.m', [], [OrderNotFoundError]));
    expect(other).not.toBeInstanceOf(OrderNotFoundError);
    expect(other).toMatchObject({ code: -32603, message: 'Internal error' });
  });

  it("ends at the server's final -32000 error and at a broken event, without reconnecting", async () => {
    const { url, seen } = await sseServer((request, response, index) => {
      response.writeHead(200, SSE_HEADERS);
      const last = index === 0 ? failure(request.body.id, { code: -32000, message: 'Server busy' }) : 'data: {not json\n\n';
      response.end(countFrom(request, 1) + last);
    });
    const transport = new HttpTransport(url, fast);
    expect(await failureOf(streamMethod(transport, 'S.m', [], []))).toMatchObject({ code: -32000, message: 'Server busy' });
    expect(await failureOf(streamMethod(transport, 'S.m', [], []))).toMatchObject({
      code: -32000,
      message: 'Transport error: a stream event is not a JSON-RPC message',
    });
    expect(seen).toHaveLength(2);
  });

  it('throws the JSON-RPC error of an answer that is no event stream (406, an error before the stream), else a transport error', async () => {
    const { url } = await sseServer((request, response, index) => {
      const json = { 'content-type': 'application/json' };
      if (index === 0) {
        const message = "Invalid Request: S.m answers with a stream (text/event-stream), which the request's Accept header excludes";
        response.writeHead(406, json).end(JSON.stringify({ jsonrpc: '2.0', id: request.body.id, error: { code: -32600, message } }));
      } else if (index === 1) {
        response
          .writeHead(200, json)
          .end(JSON.stringify({ jsonrpc: '2.0', id: request.body.id, error: { code: 1101, message: 'OrderNotFound: o1' } }));
      } else if (index === 2) {
        response.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '3' }).end('busy');
      } else {
        response.writeHead(200, json).end(JSON.stringify({ jsonrpc: '2.0', id: request.body.id, result: 1 }));
      }
    });
    const transport = new HttpTransport(url);
    expect(await failureOf(streamMethod(transport, 'S.m', [], []))).toMatchObject({
      code: -32600,
      message: expect.stringContaining('Accept header excludes'),
    });
    expect(await failureOf(streamMethod(transport, 'S.m', [], [OrderNotFoundError]))).toBeInstanceOf(OrderNotFoundError);
    expect(await failureOf(streamMethod(transport, 'S.m', [], []))).toMatchObject({
      code: -32000,
      message: 'Transport error: HTTP 503 Service Unavailable',
      data: { status: 503, retryAfter: '3' },
    });
    expect(await failureOf(streamMethod(transport, 'S.m', [], []))).toMatchObject({
      code: -32000,
      message: 'Transport error: the answer is not an event stream',
    });
  });

  it('closes the connection when the loop is left', async () => {
    const { url, seen } = await sseServer((request, response) => {
      response.writeHead(200, SSE_HEADERS);
      response.write(countFrom(request, 1)); // and never ends
    });
    for await (const value of streamMethod(new HttpTransport(url), 'S.m', [], [])) {
      expect(value).toStrictEqual({ n: 1 });
      break;
    }
    await seen[0].closed;
  });

  it('closes the connection and fails with "request aborted" when the signal aborts', async () => {
    const { url, seen } = await sseServer((request, response) => {
      response.writeHead(200, SSE_HEADERS);
      response.write(countFrom(request, 1));
    });
    const controller = new AbortController();
    const items: unknown[] = [];
    const error = await (async () => {
      for await (const value of streamMethod(new HttpTransport(url), 'S.m', [], [], { signal: controller.signal })) {
        items.push(value);
        controller.abort();
      }
    })().catch((e: unknown) => e);
    expect(items).toStrictEqual([{ n: 1 }]);
    expect(error).toMatchObject({ code: -32000, message: 'Transport error: request aborted' });
    await seen[0].closed;
  });

  it('converts each item (timestamps, bytes) and the params as callConvertingMethod does', async () => {
    const { url, seen } = await sseServer((request, response) => {
      response.writeHead(200, SSE_HEADERS);
      response.end(item(request.body.id, '1', { at: '2026-01-02T03:04:05.000Z' }) + end(request.body.id));
    });
    const conversion = { p: ['t' as const], r: ['s', 'Event'] as ['s', string], s: { Event: [['at', 't']] as [string, 't'][] } };
    const items = await collect(streamMethod(new HttpTransport(url), 'S.m', [new Date(0)], [], undefined, undefined, conversion));
    expect(items).toStrictEqual([{ at: new Date('2026-01-02T03:04:05.000Z') }]);
    expect(seen[0].body.params).toStrictEqual(['1970-01-01T00:00:00.000Z']);
  });
});

describe('streamMethod over other transports', () => {
  it('BatchingTransport sends a stream alone, next to a batch', async () => {
    const { url, seen } = await sseServer((request, response) => {
      if (Array.isArray(request.body)) {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(request.body.map((call: { id: number }) => ({ jsonrpc: '2.0', id: call.id, result: call.id }))));
        return;
      }
      response.writeHead(200, SSE_HEADERS);
      response.end(countFrom(request, 2) + end(request.body.id));
    });
    const transport = new BatchingTransport(url);
    const [items] = await Promise.all([
      collect(streamMethod(transport, 'S.m', [], [])),
      transport.call('S.a', []),
      transport.call('S.b', []),
    ]);
    expect(items).toStrictEqual([{ n: 1 }, { n: 2 }]);
    expect(seen.filter((s) => Array.isArray(s.body))).toHaveLength(1);
    expect(seen.find((s) => !Array.isArray(s.body))?.body.method).toBe('S.m');
  });

  it('a transport of its own opens the connections with its stream() member', async () => {
    const id = 7;
    const events = `${item(id, '1', { n: 1 })}${end(id)}`;
    const opened: { method: string; params: unknown[]; lastEventId?: string }[] = [];
    const transport: Transport = {
      call: async () => null,
      stream: async (method, params, options) => {
        opened.push({ method, params, lastEventId: options?.lastEventId });
        return { id, body: new Response(events).body!, reconnect: false };
      },
    };
    expect(await collect(streamMethod(transport, 'S.m', [2], [], { lastEventId: '0' }))).toStrictEqual([{ n: 1 }]);
    expect(opened).toStrictEqual([{ method: 'S.m', params: [2], lastEventId: '0' }]);
  });

  it('a transport without stream() is refused with a clear error', () => {
    const transport: Transport = { call: async () => null };
    expect(() => streamMethod(transport, 'OrderService.watchOrder', [], [])).toThrow(
      'OrderService.watchOrder is a stream method, and this transport cannot stream (it has no stream() member): use HttpTransport or BatchingTransport',
    );
  });
});

describe('interceptors and stream calls', () => {
  it('an interceptor answering a stream call itself fails it with a clear error', async () => {
    const transport = new HttpTransport('http://127.0.0.1:9/', { interceptors: [() => async () => ({ cached: true })] });
    const error = await failureOf(streamMethod(transport, 'S.m', [], []));
    expect(error).toMatchObject({
      code: -32000,
      message: 'Transport error: a stream call was answered without its event stream (an interceptor must pass on what next() resolves to)',
    });
  });
});
