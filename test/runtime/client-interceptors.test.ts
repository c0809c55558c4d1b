/**
 * Interceptors and retries of the client transports, over a real server behind a front that
 * counts requests, loses answers and refuses with 503 (rpc-front.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { HttpTransport, retryPolicy, RpcError, type Interceptor, type RpcCall } from '../../runtime/client.js';
import { retryDelay } from '../../runtime/retry.js';
import { transportError } from '../../runtime/transport-error.js';
import { freePort } from '../child-process.js';
import { startRpcFront, type RpcFront } from './rpc-front.js';

const fronts: RpcFront[] = [];
async function front(options?: Parameters<typeof startRpcFront>[0]): Promise<RpcFront> {
  const started = await startRpcFront(options);
  fronts.push(started);
  return started;
}
afterEach(async () => {
  await Promise.all(fronts.splice(0).map((f) => f.close()));
});

const mug = { productId: 'p1', name: 'Mug', description: 'A mug', price: 9.5, stock: 10 };
const address = { street: 's', city: 'c', state: 's', zipCode: 'z', country: 'c' };

async function rejection(promise: Promise<unknown>): Promise<RpcError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RpcError);
  return error as RpcError;
}

/** Places an order for a fresh cart through `transport`: the call that must never run twice. */
async function createOrder(transport: HttpTransport, options?: Parameters<HttpTransport['call']>[2]) {
  const cart = (await transport.call('CartService.addToCart', [{ productId: 'p1', quantity: 1 }])) as { cartId: string };
  return transport.call('OrderService.createOrder', [{ cartId: cart.cartId, shippingAddress: address, paymentMethod: 'paypal' }], options);
}

describe('interceptors', () => {
  it('run in order around each call, first outermost, and see method, params, headers and outcome', async () => {
    const rpc = await front();
    const log: string[] = [];
    const tracing =
      (name: string): Interceptor =>
      (next) =>
      async (call) => {
        log.push(`${name} > ${call.method}(${JSON.stringify(call.params)}) ${call.headers.authorization ?? '-'}`);
        try {
          const result = await next(call);
          log.push(`${name} < ${JSON.stringify(result)}`);
          return result;
        } catch (error) {
          log.push(`${name} ! ${(error as RpcError).code}`);
          throw error;
        }
      };
    const auth: Interceptor = (next) => (call) => next({ ...call, headers: { ...call.headers, authorization: 'Bearer t1' } });
    const transport = new HttpTransport(rpc.url, { interceptors: [tracing('outer'), auth, tracing('inner')] });
    expect(await transport.call('CatalogService.getProduct', ['p1'])).toStrictEqual(mug);
    await rejection(transport.call('CatalogService.getProduct', [1]));
    expect(log).toStrictEqual([
      'outer > CatalogService.getProduct(["p1"]) -',
      'inner > CatalogService.getProduct(["p1"]) Bearer t1',
      `inner < ${JSON.stringify(mug)}`,
      `outer < ${JSON.stringify(mug)}`,
      'outer > CatalogService.getProduct([1]) -',
      'inner > CatalogService.getProduct([1]) Bearer t1',
      'inner ! -32602',
      'outer ! -32602',
    ]);
    // The header the interceptor added went over the wire; the transport's and the call's too.
    expect(rpc.requests.map((r) => r.headers.authorization)).toStrictEqual(['Bearer t1', 'Bearer t1']);
  });

  it('see the transport and call headers, and may short-circuit without a request', async () => {
    const rpc = await front();
    const seen: RpcCall[] = [];
    const cache = new Map<string, unknown>([['CatalogService.getProduct:["p9"]', { cached: true }]]);
    const cached: Interceptor = (next) => async (call) => {
      seen.push(call);
      const key = `${call.method}:${JSON.stringify(call.params)}`;
      return cache.has(key) ? cache.get(key) : next(call);
    };
    const transport = new HttpTransport(rpc.url, { headers: async () => ({ 'x-app': 'shop' }), interceptors: [cached] });
    expect(await transport.call('CatalogService.getProduct', ['p9'], { headers: { 'x-request-id': 'r1' } })).toStrictEqual({
      cached: true,
    });
    expect(rpc.requests).toHaveLength(0);
    expect(seen[0].headers).toStrictEqual({ 'x-app': 'shop', 'x-request-id': 'r1' });
    expect(seen[0].idempotent).toBe(false);
    expect(await transport.call('CatalogService.getProduct', ['p1'])).toStrictEqual(mug);
    expect(rpc.requests.map((r) => r.headers['x-app'])).toStrictEqual(['shop']);
  });

  it('are bounded by the call timeout and abort signal', async () => {
    const rpc = await front();
    const stuck: Interceptor = () => () => new Promise(() => undefined);
    const transport = new HttpTransport(rpc.url, { interceptors: [stuck], timeoutMs: 30 });
    expect((await rejection(transport.call('CatalogService.getProduct', ['p1']))).message).toBe('Transport error: timed out after 30 ms');
    const controller = new AbortController();
    const pending = new HttpTransport(rpc.url, { interceptors: [stuck] }).call('A.b', [], { signal: controller.signal });
    controller.abort();
    expect((await rejection(pending)).message).toBe('Transport error: request aborted');
  });
});

describe('retries', () => {
  const fast = { initialDelayMs: 5, maxDelayMs: 20 };
  const retry = (options = {}) => retryPolicy({ ...fast, ...options });

  it('are opt-in: without a retry option a lost answer fails at once', async () => {
    const rpc = await front();
    rpc.plan = () => 'lose-answer';
    const error = await rejection(new HttpTransport(rpc.url).call('CatalogService.getProduct', ['p1']));
    expect(error.code).toBe(-32000);
    expect(rpc.requests).toHaveLength(1);
  });

  it('repeat an idempotent method after a lost answer (per method or per call)', async () => {
    const rpc = await front();
    rpc.plan = (_, index) => (index % 2 === 0 ? 'lose-answer' : 'pass');
    const transport = new HttpTransport(rpc.url, { retry: retry({ idempotent: ['CatalogService.getProduct'] }) });
    expect(await transport.call('CatalogService.getProduct', ['p1'])).toStrictEqual(mug);
    expect(rpc.ran.get('CatalogService.getProduct')).toBe(2);
    expect(await transport.call('CatalogService.listProducts', [], { idempotent: true })).toHaveLength(2);
    expect(rpc.ran.get('CatalogService.listProducts')).toBe(2);
    expect(rpc.requests).toHaveLength(4);
  });

  it('never repeat a non-idempotent call that reached the server', async () => {
    const rpc = await front();
    const transport = new HttpTransport(rpc.url, { retry: retry({ attempts: 5, idempotent: () => true }) });
    rpc.plan = (request) => ((request.body as { method: string }).method === 'OrderService.createOrder' ? 'lose-answer' : 'pass');
    const lost = await rejection(createOrder(transport, { idempotent: false }));
    expect(lost.code).toBe(-32000);
    expect(rpc.ran.get('OrderService.createOrder')).toBe(1);
    // Also not on a gateway error, which may come after the call ran.
    rpc.plan = (request) => ((request.body as { method: string }).method === 'OrderService.createOrder' ? { status: 502 } : 'pass');
    const gateway = await rejection(createOrder(new HttpTransport(rpc.url, { retry: retry() })));
    expect(gateway.data).toStrictEqual({ status: 502 });
    expect(rpc.requests.filter((r) => (r.body as { method: string }).method === 'OrderService.createOrder')).toHaveLength(2);
  });

  it('never repeat a JSON-RPC error answer, even for an idempotent method', async () => {
    const rpc = await front();
    const transport = new HttpTransport(rpc.url, { retry: retry({ idempotent: () => true }) });
    expect((await rejection(transport.call('CatalogService.getProduct', [42]))).code).toBe(-32602);
    expect((await rejection(transport.call('Nope.nothing', []))).code).toBe(-32601);
    expect(rpc.requests).toHaveLength(2);
  });

  it('repeat any call that never reached the server (connection refused)', async () => {
    const port = await freePort();
    let attempts = 0;
    let started: Promise<RpcFront> | undefined;
    const transport = new HttpTransport(`http://127.0.0.1:${port}/rpc`, {
      retry: retry(),
      fetch: async (input, init) => {
        attempts++;
        try {
          return await fetch(input, init);
        } catch (error) {
          // Nothing listened: start the server, so that the retry finds it.
          started ??= front({ port });
          await started;
          throw error;
        }
      },
    });
    const order = (await createOrder(transport)) as { orderId: string };
    expect(order.orderId).toMatch(/^order-/);
    const rpc = await started!;
    expect(attempts).toBe(3); // addToCart refused then answered, createOrder answered
    expect(rpc.ran.get('OrderService.createOrder')).toBe(1);
  });

  it('repeat any call refused with 503 and Retry-After, after the time it asks for', async () => {
    const rpc = await front();
    let refusedAt = 0;
    rpc.plan = (request) => {
      if ((request.body as { method: string }).method !== 'OrderService.createOrder' || refusedAt) return 'pass';
      refusedAt = Date.now();
      return { status: 503, headers: { 'retry-after': '1' }, body: '{"error":"Service Unavailable"}' };
    };
    // Retry-After is honoured up to maxDelayMs (below).
    const transport = new HttpTransport(rpc.url, { retry: retry({ maxDelayMs: 5_000 }) });
    const order = (await createOrder(transport)) as { orderId: string };
    expect(order.orderId).toMatch(/^order-/);
    const retriedAt = Date.now();
    expect(retriedAt - refusedAt).toBeGreaterThanOrEqual(990);
    expect(rpc.ran.get('OrderService.createOrder')).toBe(1);
    expect(rpc.requests).toHaveLength(3);
  });

  it('honour Retry-After only up to maxDelayMs: 999999999 s waits maxDelayMs, not 1 ms (an overflowing timer)', async () => {
    const rpc = await front();
    let refusedAt = 0;
    rpc.plan = (request) => {
      if ((request.body as { method: string }).method !== 'OrderService.createOrder' || refusedAt) return 'pass';
      refusedAt = Date.now();
      return { status: 503, headers: { 'retry-after': '999999999' }, body: '{"error":"Service Unavailable"}' };
    };
    const transport = new HttpTransport(rpc.url, { retry: retry({ maxDelayMs: 300 }), timeoutMs: 10_000 });
    const order = (await createOrder(transport)) as { orderId: string };
    expect(order.orderId).toMatch(/^order-/);
    expect(Date.now() - refusedAt).toBeGreaterThanOrEqual(290);
    expect(rpc.ran.get('OrderService.createOrder')).toBe(1);
  });

  it('wait at most maxDelayMs, and never longer than the longest timer (2^31 - 1 ms), whatever Retry-After asks', () => {
    const refused = (retryAfter: string) => transportError('HTTP 503 Service Unavailable', { status: 503, retryAfter });
    expect(retryDelay(refused('999999999'), false, 1, {})).toBe(5000);
    expect(retryDelay(refused('999999999'), false, 1, { maxDelayMs: 300 })).toBe(300);
    expect(retryDelay(refused('2'), false, 1, { maxDelayMs: 300 })).toBe(300);
    expect(retryDelay(refused('999999999'), false, 1, { maxDelayMs: 2 ** 40 })).toBe(2 ** 31 - 1);
    expect(retryDelay(refused('Fri, 01 Jan 9999 00:00:00 GMT'), false, 1, { maxDelayMs: 2 ** 40 })).toBe(2 ** 31 - 1);
    expect(retryDelay(refused('1'), false, 1, {})).toBe(1000);
    // The backoff cap too, for a policy with a maxDelayMs past the longest timer.
    const lost = transportError('fetch failed (ECONNREFUSED)', { cause: 'ECONNREFUSED' });
    expect(retryDelay(lost, false, 60, { maxDelayMs: 2 ** 40 })).toBeLessThanOrEqual(2 ** 31 - 1);
  });

  it('give up at once when Retry-After reaches past the call timeout; a 503 without it is no reason for a non-idempotent call', async () => {
    const rpc = await front();
    rpc.plan = () => ({ status: 503, headers: { 'retry-after': '30' } });
    const started = Date.now();
    const error = await rejection(
      new HttpTransport(rpc.url, { retry: retry({ maxDelayMs: 60_000 }), timeoutMs: 2_000 }).call('CatalogService.getProduct', ['p1']),
    );
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(error.data).toStrictEqual({ status: 503, retryAfter: '30' });
    rpc.plan = () => ({ status: 503 });
    const plain = await rejection(new HttpTransport(rpc.url, { retry: retry() }).call('OrderService.createOrder', [{}]));
    expect(plain.data).toStrictEqual({ status: 503 });
    expect(rpc.requests).toHaveLength(2);
  });

  it('stop at the attempt limit, the timeout and the abort signal; a call may turn them off', async () => {
    const rpc = await front();
    rpc.plan = () => 'lose-answer';
    const transport = new HttpTransport(rpc.url, { retry: retry({ attempts: 4, idempotent: ['CatalogService.getProduct'] }) });
    await rejection(transport.call('CatalogService.getProduct', ['p1']));
    expect(rpc.requests).toHaveLength(4);
    await rejection(transport.call('CatalogService.getProduct', ['p1'], { retry: false }));
    expect(rpc.requests).toHaveLength(5);
    const slow = new HttpTransport(rpc.url, {
      retry: retryPolicy({ attempts: 100, initialDelayMs: 40, maxDelayMs: 40, idempotent: () => true }),
    });
    // The timeout bounds the attempts and the waits between them: a few attempts, not a hundred.
    const before = Date.now();
    expect((await rejection(slow.call('CatalogService.getProduct', ['p1'], { timeoutMs: 150 }))).code).toBe(-32000);
    expect(Date.now() - before).toBeLessThan(600);
    expect(rpc.requests.length - 5).toBeLessThan(30);
    const controller = new AbortController();
    const aborted = slow.call('CatalogService.getProduct', ['p1'], { signal: controller.signal });
    setTimeout(() => controller.abort(), 60);
    expect((await rejection(aborted)).message).toBe('Transport error: request aborted');
  });

  it('may be asked for by one call only; interceptors see the call once, and their headers go with every attempt', async () => {
    const rpc = await front();
    rpc.plan = (_, index) => (index === 0 ? 'lose-answer' : 'pass');
    let seen = 0;
    const auth: Interceptor = (next) => (call) => {
      seen++;
      return next({ ...call, headers: { ...call.headers, authorization: 'Bearer r' } });
    };
    const transport = new HttpTransport(rpc.url, { interceptors: [auth] });
    expect(await transport.call('CatalogService.getProduct', ['p1'], { retry: retry(), idempotent: true })).toStrictEqual(mug);
    expect(rpc.requests.map((r) => r.headers.authorization)).toStrictEqual(['Bearer r', 'Bearer r']);
    expect(seen).toBe(1);
  });
});
