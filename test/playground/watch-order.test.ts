/**
 * OrderService.watchOrder (docs/playground.md, "watchOrder"), a stream method, through the
 * client generated from playground/checkout.idl and on the wire, against the standalone server
 * code on 127.0.0.1 with a memory store whose fulfilment takes a step every 20 ms.
 */
import type { Server } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '../../playground/checkout.idl';
import { createMemoryStore } from '../../playground/service/memory-store.js';
import { listenerCountingStore } from './listener-counting-store.js';
import { playgroundModules, type CheckoutIdl, type PlaygroundModules, type RuntimeClient, type ServerStart } from './harness.js';

let modules: PlaygroundModules;
let idl: CheckoutIdl;
let start: ServerStart;
let runtime: RuntimeClient;
const servers: Server[] = [];

beforeAll(async () => {
  modules = await playgroundModules();
  idl = await modules.load<CheckoutIdl>('/checkout.idl');
  start = await modules.load<ServerStart>('/server/start.ts');
  runtime = await modules.load<RuntimeClient>('unplugin-idl-rpc/runtime/client');
});

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

afterAll(async () => {
  await modules?.close();
});

const address = { street: '1 Market Street', city: 'San Francisco', state: 'CA', zipCode: '94105', country: 'US' };
const stepMs = 20;

/** A checkout server on its own store (fulfilment steps of `stepMs`, or none), with clients for it. */
async function serve(options: { fulfilment?: false } = {}) {
  const store = listenerCountingStore(createMemoryStore({ fulfilment: options.fulfilment ?? { stepMs } }));
  const server = await start.startCheckoutServer({ port: 0, host: '127.0.0.1', store });
  servers.push(server);
  const { port } = server.address() as { port: number };
  const baseUrl = `http://127.0.0.1:${port}/`;
  const transport = new runtime.HttpTransport(baseUrl);
  const carts = new idl.CartServiceClient(transport);
  const orders = new idl.OrderServiceClient(transport);
  const placeOrder = async () => {
    const cart = await carts.addToCart({ productId: 'mug', quantity: 1 });
    return (await orders.createOrder({ cartId: cart.cartId, shippingAddress: address, paymentMethod: 'paypal' })).orderId;
  };
  return { baseUrl, store, orders, placeOrder };
}

/** Every item of a stream with the event id it came with, to the stream's end. */
async function collect(stream: AsyncIterable<Order> & { readonly lastEventId: string | undefined }) {
  const seen: [string | undefined, Order['status']][] = [];
  for await (const order of stream) seen.push([stream.lastEventId, order.status]);
  return seen;
}

/** Polls `read` until it gives `expected` (a bound of 10 s for a broken server, not a measure). */
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 10_000, interval: 10 });

describe('OrderService.watchOrder', () => {
  it('streams the order from its current status to delivered, each with its status ordinal as event id, then ends', async () => {
    const { orders, placeOrder, store } = await serve();
    const orderId = await placeOrder();
    const seen = await collect(orders.watchOrder(orderId));
    expect(seen.at(-1)).toEqual(['4', 'delivered']);
    const ordinals = { pending: '1', paid: '2', shipped: '3', delivered: '4', cancelled: '5' };
    for (const [id, status] of seen) expect(id).toBe(ordinals[status]);
    expect(seen.map(([id]) => id)).toEqual([...new Set(seen.map(([id]) => id))].sort());
    await poll(() => store.listening()).toBe(0);
  });

  it('a client resuming with the last event id gets only what it has not seen', async () => {
    const { orders, placeOrder } = await serve();
    const orderId = await placeOrder();
    await collect(orders.watchOrder(orderId));
    expect(await collect(orders.watchOrder(orderId, { lastEventId: '4' }))).toEqual([]);
    expect(await collect(orders.watchOrder(orderId, { lastEventId: '3' }))).toEqual([['4', 'delivered']]);
  });

  it('a Last-Event-ID the server did not issue gets the current state', async () => {
    const { baseUrl, placeOrder } = await serve({ fulfilment: false });
    const orderId = await placeOrder();
    for (const lastEventId of ['not-an-id', '4', '0']) {
      const response = await fetch(baseUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', 'last-event-id': lastEventId },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'OrderService.watchOrder', params: [orderId] }),
        signal: AbortSignal.timeout(10_000),
      });
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const reader = response.body!.getReader();
      let text = '';
      while (!text.includes('\n\n')) text += new TextDecoder().decode((await reader.read()).value);
      await reader.cancel();
      const [idLine, dataLine] = text.split('\n');
      expect(idLine).toBe('id: 1');
      const message = JSON.parse(dataLine.replace(/^data: /, ''));
      expect(message).toMatchObject({ method: 'rpc.stream.item', params: { id: 7, item: { orderId, status: 'pending' } } });
    }
  });

  it('an unknown order throws OrderNotFoundError from the loop', async () => {
    const { orders } = await serve();
    const error = await collect(orders.watchOrder('order_nothing')).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(idl.OrderNotFoundError);
    expect((error as InstanceType<typeof idl.OrderNotFoundError>).code).toBe(1006);
    expect((error as Error).message).toBe('OrderNotFound: order "order_nothing" does not exist');
  });

  it('an order id that is no text or too long is refused with -32602 and its path', async () => {
    const { orders } = await serve();
    const nul = await collect(orders.watchOrder('order\u0000')).catch((caught: unknown) => caught);
    expect(nul).toMatchObject({ code: -32602 });
    expect((nul as Error).message).toMatch(/params\[0\]: holds a NUL character/);
    const long = await collect(orders.watchOrder('o'.repeat(65))).catch((caught: unknown) => caught);
    expect(long).toMatchObject({ code: -32602, message: 'Invalid params: params[0]: must be at most 64 characters' });
  });

  it('breaking out of the loop ends the handler on the server: its subscription goes', async () => {
    const { orders, placeOrder, store } = await serve({ fulfilment: false });
    const orderId = await placeOrder();
    for await (const order of orders.watchOrder(orderId)) {
      expect(order.status).toBe('pending');
      expect(store.listening()).toBe(1);
      break;
    }
    await poll(() => store.listening()).toBe(0);
  });
});
