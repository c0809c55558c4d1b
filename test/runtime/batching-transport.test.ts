/**
 * BatchingTransport over a real server behind a counting front (rpc-front.ts): one request for the
 * calls of a tick, answers and declared errors routed to their callers, maxBatchSize, the window,
 * headers, notifications, and a server that refuses batches.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { BatchingTransport, callMethod, DeclaredError, retryPolicy, type RpcError, type Interceptor } from '../../runtime/client.js';
import { CartEmptyError, CartNotFoundError, orderServiceErrors } from './helpers.js';
import { startRpcFront, type RpcFront } from './rpc-front.js';

const fronts: RpcFront[] = [];
async function front(): Promise<RpcFront> {
  const started = await startRpcFront();
  fronts.push(started);
  return started;
}
afterEach(async () => {
  await Promise.all(fronts.splice(0).map((f) => f.close()));
});

const address = { street: 's', city: 'c', state: 's', zipCode: 'z', country: 'c' };
const order = (cartId: string) => [{ cartId, shippingAddress: address, paymentMethod: 'paypal' }];
const settled = (promises: Promise<unknown>[]) =>
  Promise.all(
    promises.map((p) =>
      p.then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      ),
    ),
  );
const sizes = (rpc: RpcFront) => rpc.requests.map((r) => (Array.isArray(r.body) ? r.body.length : 'alone'));

describe('BatchingTransport', () => {
  it('sends the calls of one tick as one request and routes each answer and declared error to its caller', async () => {
    const rpc = await front();
    const transport = new BatchingTransport(rpc.url);
    const cart = (await transport.call('CartService.addToCart', [{ productId: 'p1', quantity: 1 }])) as { cartId: string };
    const empty = (await transport.call('CartService.addToCart', [{ productId: 'p2', quantity: 1 }])) as { cartId: string };
    await transport.call('CartService.clearCart', [empty.cartId]);
    const before = rpc.requests.length;
    const outcomes = await settled([
      transport.call('CatalogService.getProduct', ['p1']),
      callMethod(transport, 'OrderService.createOrder', order('nope'), orderServiceErrors),
      transport.call('CatalogService.getProduct', ['p2']),
      callMethod(transport, 'OrderService.createOrder', order(empty.cartId), orderServiceErrors),
      transport.call('CatalogService.getProduct', [7]),
      transport.call('Nope.nothing', []),
      callMethod(transport, 'OrderService.createOrder', order(cart.cartId), orderServiceErrors),
      transport.call('CatalogService.getProduct', ['none']),
      transport.call('CatalogService.listProducts', []),
      transport.call('CartService.getCart', [cart.cartId]),
    ]);
    expect(rpc.requests.length - before).toBe(1);
    expect(sizes(rpc).at(-1)).toBe(10);
    const [p1, notFound, p2, cartEmpty, invalid, unknown, placed, none, list, cartAfter] = outcomes as {
      value?: unknown;
      error?: RpcError;
    }[];
    expect((p1.value as { name: string }).name).toBe('Mug');
    expect((p2.value as { name: string }).name).toBe('Tee');
    expect(notFound.error).toBeInstanceOf(CartNotFoundError);
    expect(cartEmpty.error).toBeInstanceOf(CartEmptyError);
    expect(cartEmpty.error?.message).toBe(`CartEmpty: cart ${empty.cartId} is empty`);
    expect(invalid.error?.code).toBe(-32602);
    expect(invalid.error).not.toBeInstanceOf(DeclaredError);
    expect(unknown.error?.code).toBe(-32601);
    expect((placed.value as { orderId: string }).orderId).toMatch(/^order-/);
    expect(none.value).toBeNull();
    expect(list.value).toHaveLength(2);
    expect(cartAfter.value).toBeTruthy();
    // Every call of the batch had its own id, and the server ran each once.
    const ids = (rpc.requests.at(-1)!.body as { id: number }[]).map((r) => r.id);
    expect(new Set(ids).size).toBe(10);
    expect(rpc.ran.get('OrderService.createOrder')).toBe(3);
  });

  it('an error answer carrying another id fails no call but its own; the call it names none is missing', async () => {
    const transport = new BatchingTransport('http://127.0.0.1:1/rpc', {
      fetch: async () =>
        new Response(
          JSON.stringify([
            { jsonrpc: '2.0', result: 'first', id: 1 },
            { jsonrpc: '2.0', error: { code: 1001, message: 'CartNotFound: cart does not exist' }, id: 7 },
          ]),
          { status: 200, headers: { 'content-type': 'application/json' } },
        ),
    });
    const [first, second] = (await settled([transport.call('A.one', []), transport.call('A.two', [])])) as {
      value?: unknown;
      error?: RpcError;
    }[];
    expect(first).toStrictEqual({ value: 'first' });
    expect(second.error?.code).toBe(-32000);
    expect(second.error?.message).toBe('Transport error: no response for request id 2 in the batch');
  });

  it('respects maxBatchSize, and a single call goes alone', async () => {
    const rpc = await front();
    const transport = new BatchingTransport(rpc.url, { maxBatchSize: 4 });
    const results = await Promise.all(Array.from({ length: 10 }, () => transport.call('CatalogService.getProduct', ['p1'])));
    expect(results.every((r) => (r as { productId: string }).productId === 'p1')).toBe(true);
    expect(sizes(rpc)).toStrictEqual([4, 4, 2]);
    await transport.call('CatalogService.getProduct', ['p2']);
    expect(sizes(rpc).at(-1)).toBe('alone');
  });

  it('collects calls over windowMs; calls with other headers go in another request', async () => {
    const rpc = await front();
    const transport = new BatchingTransport(rpc.url, { windowMs: 40 });
    const first = transport.call('CatalogService.getProduct', ['p1']);
    await new Promise((resolve) => setTimeout(resolve, 10));
    const second = transport.call('CatalogService.getProduct', ['p2']);
    const other = transport.call('CatalogService.getProduct', ['p1'], { headers: { 'x-tenant': 'b' } });
    const third = transport.call('CatalogService.listProducts', [], { headers: { 'x-tenant': 'b' } });
    await Promise.all([first, second, other, third]);
    expect(sizes(rpc)).toStrictEqual([2, 2]);
    expect(rpc.requests.map((r) => r.headers['x-tenant'])).toStrictEqual([undefined, 'b']);
    // Without a window, calls of different ticks go apart.
    const eager = new BatchingTransport(rpc.url);
    await eager.call('CatalogService.getProduct', ['p1']);
    await eager.call('CatalogService.getProduct', ['p2']);
    expect(sizes(rpc).slice(2)).toStrictEqual(['alone', 'alone']);
  });

  it('runs interceptors per call and sends the headers they add with the batch', async () => {
    const rpc = await front();
    const seen: string[] = [];
    const auth: Interceptor = (next) => (call) => {
      seen.push(call.method);
      return next({ ...call, headers: { ...call.headers, authorization: 'Bearer b' } });
    };
    const transport = new BatchingTransport(rpc.url, { interceptors: [auth] });
    await Promise.all([transport.call('CatalogService.getProduct', ['p1']), transport.call('CatalogService.listProducts', [])]);
    expect(seen).toStrictEqual(['CatalogService.getProduct', 'CatalogService.listProducts']);
    expect(sizes(rpc)).toStrictEqual([2]);
    expect(rpc.requests[0].headers.authorization).toBe('Bearer b');
  });

  it('lets notifications ride along with the calls', async () => {
    const rpc = await front();
    const transport = new BatchingTransport(rpc.url);
    const cart = (await transport.call('CartService.addToCart', [{ productId: 'p1', quantity: 1 }])) as { cartId: string };
    const [notified, product] = await Promise.all([
      transport.notify('CartService.clearCart', [cart.cartId]),
      transport.call('CatalogService.getProduct', ['p1']),
    ]);
    expect(notified).toBeUndefined();
    expect((product as { name: string }).name).toBe('Mug');
    const batch = rpc.requests.at(-1)!.body as { method: string; id?: number }[];
    expect(batch.map((r) => [r.method, 'id' in r])).toStrictEqual([
      ['CartService.clearCart', false],
      ['CatalogService.getProduct', true],
    ]);
    expect(rpc.ran.get('CartService.clearCart')).toBe(1);
    // Only notifications: the server answers 204, and the notifications resolve.
    await Promise.all([transport.notify('CartService.clearCart', [cart.cartId]), transport.notify('CartService.clearCart', ['x'])]);
    expect(rpc.ran.get('CartService.clearCart')).toBe(3);
  });

  it('falls back to one request per call when the server answers a batch with an error', async () => {
    const rpc = await front();
    const refusal = { status: 200, body: '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request: no batches"},"id":null}' };
    rpc.plan = (request) => (Array.isArray(request.body) ? refusal : 'pass');
    const transport = new BatchingTransport(rpc.url);
    const outcomes = await settled([
      transport.call('CatalogService.getProduct', ['p1']),
      callMethod(transport, 'OrderService.createOrder', order('nope'), orderServiceErrors),
      transport.call('CatalogService.listProducts', []),
    ]);
    expect((outcomes[0] as { value: { name: string } }).value.name).toBe('Mug');
    expect((outcomes[1] as { error: unknown }).error).toBeInstanceOf(CartNotFoundError);
    expect((outcomes[2] as { value: unknown[] }).value).toHaveLength(2);
    expect(sizes(rpc)).toStrictEqual([3, 'alone', 'alone', 'alone']);
    // From then on it sends no batch at all.
    await Promise.all([transport.call('CatalogService.getProduct', ['p1']), transport.call('CatalogService.getProduct', ['p2'])]);
    expect(sizes(rpc).slice(4)).toStrictEqual(['alone', 'alone']);
  });

  it('also falls back on a 400 with one error, but not on a 5xx, after which some calls may have run', async () => {
    const rpc = await front();
    const error = (status: number) => ({ status, body: '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request"},"id":null}' });
    rpc.plan = (request) => (Array.isArray(request.body) ? error(400) : 'pass');
    const transport = new BatchingTransport(rpc.url);
    await Promise.all([transport.call('CatalogService.getProduct', ['p1']), transport.call('CatalogService.listProducts', [])]);
    expect(sizes(rpc)).toStrictEqual([2, 'alone', 'alone']);
    rpc.plan = (request) => (Array.isArray(request.body) ? error(502) : 'pass');
    const other = new BatchingTransport(rpc.url);
    const failed = await settled([
      other.call('CatalogService.getProduct', ['p1']),
      other.call('CartService.addToCart', [{ productId: 'p1', quantity: 1 }]),
    ]);
    expect(failed.map((f) => (f as { error: RpcError }).error.message)).toStrictEqual([
      'Transport error: HTTP 502 Bad Gateway',
      'Transport error: HTTP 502 Bad Gateway',
    ]);
    expect(sizes(rpc).slice(3)).toStrictEqual([2]);
  });

  it('fails every call of a batch with the transport error of a failed request, and retries each by its own rules', async () => {
    const rpc = await front();
    rpc.plan = (_, index) => (index === 0 ? 'lose-answer' : 'pass');
    const transport = new BatchingTransport(rpc.url, {
      retry: retryPolicy({ initialDelayMs: 1, maxDelayMs: 1, idempotent: ['CatalogService.getProduct'] }),
    });
    const [product, cart] = await settled([
      transport.call('CatalogService.getProduct', ['p1']),
      transport.call('CartService.addToCart', [{ productId: 'p1', quantity: 1 }]),
    ]);
    expect((product as { value: { name: string } }).value.name).toBe('Mug');
    expect((cart as { error: RpcError }).error.code).toBe(-32000);
    expect(sizes(rpc)).toStrictEqual([2, 'alone']);
    expect(rpc.ran.get('CartService.addToCart')).toBe(1);
    rpc.plan = () => ({ status: 500 });
    const failed = await settled([transport.call('A.b', []), transport.call('A.c', [])]);
    expect(failed.map((f) => (f as { error: RpcError }).error.message)).toStrictEqual([
      'Transport error: HTTP 500 Internal Server Error',
      'Transport error: HTTP 500 Internal Server Error',
    ]);
  });

  it('leaves out a call aborted before its batch is sent, and times calls out one by one', async () => {
    const rpc = await front();
    const transport = new BatchingTransport(rpc.url, { windowMs: 20 });
    const controller = new AbortController();
    const aborted = transport.call('CatalogService.getProduct', ['p1'], { signal: controller.signal });
    const kept = transport.call('CatalogService.getProduct', ['p2']);
    const hurried = transport.call('CatalogService.listProducts', [], { timeoutMs: 5 });
    controller.abort();
    const [a, k, h] = await settled([aborted, kept, hurried]);
    expect((a as { error: RpcError }).error.message).toBe('Transport error: request aborted');
    expect((h as { error: RpcError }).error.message).toBe('Transport error: timed out after 5 ms');
    expect((k as { value: { name: string } }).value.name).toBe('Tee');
    expect(sizes(rpc)).toStrictEqual(['alone']);
  });
});
