/**
 * The client's streams against `createRpcServer` + `listen` (the Node adapter writing the stream):
 * a connection cut mid-stream (by a TCP proxy in between) resumed with Last-Event-ID, a server
 * restart on the same port (its reconnect message) resumed on the next server, every item once and
 * in order; interceptors see each connection; a declared error arrives as its class; an abort
 * closes the connection and the handler's `finally` runs.
 */
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DeclaredError, HttpTransport, type RpcCall, streamMethod } from '../../runtime/client.js';
import { createRpcServer, listen, type RpcHttpServer, type RpcServerOptions } from '../../runtime/index.js';
import { aborted, type Counting, counting } from './counting-handler.js';
import { ordersStreamIdl } from './fixtures/orders-stream-idl.js';

class OrderNotFoundError extends DeclaredError {
  static readonly code = 1001;
  static readonly errorName = 'OrderNotFound';
  static readonly defaultMessage = 'Order not found';
}

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function serve(count: Counting['count'], options: Partial<RpcServerOptions> = {}, port = 0): Promise<RpcHttpServer> {
  const service = {
    watchOrder: (orderId: string) => {
      throw new OrderNotFoundError(orderId, { orderId });
    },
    count,
    getOrder: (orderId: string) => ({ id: orderId, status: 'paid' }),
  };
  const server = createRpcServer({
    idl: ordersStreamIdl,
    handlers: { OrderService: service },
    logger: { error: vi.fn(), warn: vi.fn() },
    ...options,
  });
  const http = await listen(server, { port, host: '127.0.0.1' });
  closers.push(() => http.shutdown({ timeoutMs: 1_000 }).catch(() => undefined));
  return http;
}

const portOf = (server: RpcHttpServer | net.Server) => (server.address() as AddressInfo).port;

/**
 * A TCP proxy to `port` that cuts its first connection once the answer has carried `marker`;
 * `cut` resolves then.
 */
async function cuttingProxy(port: number, marker: string): Promise<{ url: string; cut: Promise<void> }> {
  let cutDone!: () => void;
  const cut = new Promise<void>((resolve) => {
    cutDone = resolve;
  });
  let first = true;
  const sockets = new Set<net.Socket>();
  const proxy = net.createServer((client) => {
    const upstream = net.connect(port, '127.0.0.1');
    sockets.add(client).add(upstream);
    const cutThis = first;
    first = false;
    let seen = '';
    client.pipe(upstream);
    upstream.on('data', (chunk: Buffer) => {
      client.write(chunk);
      seen += chunk.toString('utf8');
      if (cutThis && seen.includes(marker)) {
        client.destroy();
        upstream.destroy();
        cutDone();
      }
    });
    upstream.on('end', () => client.end());
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  closers.push(() => {
    for (const socket of sockets) socket.destroy(); // keep-alive connections would hold close() up
    return new Promise((resolve) => proxy.close(resolve));
  });
  return { url: `http://127.0.0.1:${portOf(proxy)}/`, cut };
}

async function collect(stream: AsyncIterable<unknown>): Promise<unknown[]> {
  const items: unknown[] = [];
  for await (const value of stream) items.push(value);
  return items;
}

const fast = { reconnect: { attempts: 20, initialDelayMs: 5, maxDelayMs: 50 } };

describe('streamMethod against createRpcServer + listen', () => {
  it('resumes a connection cut mid-stream with Last-Event-ID: every item once, in order; interceptors see each connection', async () => {
    // The first run waits after item 3 until the server sees the connection gone (the proxy cuts it there).
    const handler: Counting = counting((n, signal) => (n === 4 && handler.lastEventIds.length === 1 ? aborted(signal) : undefined));
    const http = await serve(handler.count);
    const proxy = await cuttingProxy(portOf(http), '"item":3}');
    const attempts: RpcCall[] = [];
    const transport = new HttpTransport(proxy.url, {
      ...fast,
      interceptors: [
        (next) => (call) => (
          attempts.push(call), next({ ...call, headers: { ...call.headers, authorization: `Bearer ${attempts.length}` } })
        ),
      ],
    });
    const stream = streamMethod(transport, 'OrderService.count', [8], []);
    expect(await collect(stream)).toStrictEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(stream.lastEventId).toBe('8');
    expect(handler.lastEventIds).toStrictEqual([undefined, '3']);
    expect(attempts.map((call) => [call.stream, call.headers['last-event-id']])).toStrictEqual([
      [true, undefined],
      [true, '3'],
    ]);
    await vi.waitFor(() => expect(handler.finished).toStrictEqual([true, false]));
  });

  it('resumes across a restart on the same port: the reconnect message, then the next server goes on', async () => {
    const before = counting((n, signal) => (n === 3 ? aborted(signal) : undefined));
    const first = await serve(before.count, { streamRetryMs: 10 });
    const port = portOf(first);
    const after = counting();
    const items: unknown[] = [];
    for await (const value of streamMethod(new HttpTransport(`http://127.0.0.1:${port}/`, fast), 'OrderService.count', [5], [])) {
      items.push(value);
      if (value === 2) {
        await first.shutdown({ timeoutMs: 1_000 }); // sends the reconnect message, ends the handler
        await serve(after.count, {}, port);
      }
    }
    expect(items).toStrictEqual([1, 2, 3, 4, 5]);
    expect(before.finished).toStrictEqual([true]);
    expect(after.lastEventIds).toStrictEqual(['2']);
  });

  it('throws a declared error as its class', async () => {
    const http = await serve(counting().count);
    const stream = streamMethod(
      new HttpTransport(`http://127.0.0.1:${portOf(http)}/`),
      'OrderService.watchOrder',
      ['o-4'],
      [OrderNotFoundError],
    );
    const error = await collect(stream).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OrderNotFoundError);
    expect(error).toMatchObject({ data: { orderId: 'o-4' } });
  });

  it("an abort closes the connection and the handler's finally runs", async () => {
    const handler = counting((n, signal) => (n > 1 ? aborted(signal) : undefined));
    const http = await serve(handler.count);
    const controller = new AbortController();
    const error = await (async () => {
      for await (const value of streamMethod(new HttpTransport(`http://127.0.0.1:${portOf(http)}/`), 'OrderService.count', [3], [], {
        signal: controller.signal,
      })) {
        expect(value).toBe(1);
        controller.abort();
      }
    })().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: -32000, message: 'Transport error: request aborted' });
    await vi.waitFor(() => expect(handler.finished).toStrictEqual([true]));
  });
});
