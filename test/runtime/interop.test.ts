/**
 * Interop with two independent JSON-RPC 2.0 implementations: their clients call our server,
 * and our client calls servers built with them.
 */
import http from 'node:http';
import jayson from 'jayson/promise/index.js';
import { JSONRPCClient, JSONRPCErrorException, JSONRPCServer } from 'json-rpc-2.0';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callMethod, HttpTransport, RpcError } from '../../runtime/client.js';
import {
  CartEmptyError,
  CartNotFoundError,
  checkoutHandlers,
  orderServiceErrors,
  serverHandle,
  startServer,
  type TestServer,
} from './helpers.js';

const address = { street: 's', city: 'c', state: 's', zipCode: 'z', country: 'c' };
let ours: TestServer;
let state: ReturnType<typeof checkoutHandlers>;

beforeAll(async () => {
  state = checkoutHandlers();
  ours = await startServer({ handlers: state.handlers });
});
afterAll(() => ours?.close());

describe('jayson client -> our server', () => {
  const client = () => jayson.client.http({ host: '127.0.0.1', port: ours.port });

  it('calls with positional and named params', async () => {
    expect(await client().request('CatalogService.getProduct', ['p1'], 1)).toMatchObject({
      jsonrpc: '2.0',
      id: 1,
      result: { productId: 'p1' },
    });
    expect(await client().request('CartService.clearCart', { cartId: 'none' }, 'x')).toStrictEqual({
      jsonrpc: '2.0',
      id: 'x',
      result: false,
    });
  });

  it('receives error responses', async () => {
    expect(
      await client().request('OrderService.createOrder', [{ cartId: 'none', shippingAddress: address, paymentMethod: 'paypal' }], 2),
    ).toStrictEqual({
      jsonrpc: '2.0',
      id: 2,
      error: { code: 1001, message: 'CartNotFound: cart does not exist' },
    });
    expect(await client().request('Nope.nothing', [], 3)).toStrictEqual({
      jsonrpc: '2.0',
      id: 3,
      error: { code: -32601, message: 'Method not found: Nope.nothing' },
    });
  });

  it('sends batches with notifications', async () => {
    const c = client();
    const responses = await c.request([
      c.request('CartService.addToCart', [{ cartId: 'jayson-cart', productId: 'p1', quantity: 1 }], 10, false),
      // jayson sends a request with a null id as a notification (no id member).
      c.request('CartService.addToCart', [{ cartId: 'jayson-cart', productId: 'p2', quantity: 1 }], null as unknown as undefined, false),
      c.request('CatalogService.getProduct', ['p2'], 11, false),
    ]);
    expect(responses).toHaveLength(2);
    expect(responses).toMatchObject([
      { id: 10, result: { cartId: 'jayson-cart' } },
      { id: 11, result: { productId: 'p2' } },
    ]);
    expect(state.carts.get('jayson-cart')?.items).toHaveLength(2);
  });
});

describe('json-rpc-2.0 client -> our server', () => {
  const client = () => {
    const c: JSONRPCClient = new JSONRPCClient(async (payload) => {
      const response = await fetch(ours.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(payload),
      });
      if (response.status === 200) c.receive(await response.json());
    });
    return c;
  };

  it('requests, notifications and batches', async () => {
    const c = client();
    expect(await c.request('CatalogService.getProduct', ['p2'])).toMatchObject({
      productId: 'p2',
      imageUrl: 'https://example.test/tee.png',
    });
    c.notify('CartService.addToCart', [{ cartId: 'lib-cart', productId: 'p1', quantity: 3 }]);
    const batch = await c.requestAdvanced([
      { jsonrpc: '2.0', method: 'CartService.getCart', params: { cartId: 'lib-cart' }, id: 1 },
      { jsonrpc: '2.0', method: 'CatalogService.getProduct', params: ['none'], id: 2 },
    ]);
    expect(batch).toMatchObject([
      { id: 1, result: { cartId: 'lib-cart' } },
      { id: 2, result: null },
    ]);
  });

  it('gets errors with code, message and data', async () => {
    const failure = await Promise.resolve(client().request('CartService.addToCart', [{ productId: 'p1', quantity: 'x' }])).catch(
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(JSONRPCErrorException);
    expect(failure).toMatchObject({
      code: -32602,
      message: 'Invalid params: params[0].quantity: expected integer',
      data: { errors: [{ path: 'params[0].quantity', message: 'expected integer' }] },
    });
  });
});

describe('our client -> jayson server', () => {
  let server: TestServer;
  beforeAll(async () => {
    const rpc = new jayson.Server({
      'Calc.add': async (args: unknown) => (args as number[])[0] + (args as number[])[1],
      'OrderService.createOrder': async () => {
        throw rpc.error(1001, 'CartNotFound: cart 7 does not exist', { cartId: '7' });
      },
      'OrderService.getOrder': async () => {
        throw rpc.error(1002, 'CartEmpty: cart has no items');
      },
    });
    const httpServer = rpc.http();
    await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
    server = serverHandle(httpServer);
  });
  afterAll(() => server?.close());

  it('calls and maps declared errors to their classes', async () => {
    const transport = new HttpTransport(server.url);
    expect(await callMethod(transport, 'Calc.add', [2, 40], [])).toBe(42);
    const notFound = await callMethod(transport, 'OrderService.createOrder', [{}], orderServiceErrors).catch((e: unknown) => e);
    expect(notFound).toBeInstanceOf(CartNotFoundError);
    expect(notFound).toMatchObject({
      code: 1001,
      message: 'CartNotFound: cart 7 does not exist',
      detail: 'cart 7 does not exist',
      data: { cartId: '7' },
    });
    const empty = await callMethod(transport, 'OrderService.getOrder', ['o'], orderServiceErrors).catch((e: unknown) => e);
    expect(empty).toBeInstanceOf(CartEmptyError);
    const missing = await callMethod(transport, 'Nope.nothing', [], orderServiceErrors).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(RpcError);
    expect((missing as RpcError).code).toBe(-32601);
  });
});

describe('our client -> json-rpc-2.0 server', () => {
  let server: TestServer;
  beforeAll(async () => {
    const rpc = new JSONRPCServer({ errorListener: () => undefined });
    rpc.addMethod('Calc.add', ([a, b]: number[]) => a + b);
    rpc.addMethod('OrderService.createOrder', () => {
      throw new JSONRPCErrorException('CartEmpty: cart has no items', 1002);
    });
    const httpServer = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', async () => {
        const response = await rpc.receive(JSON.parse(body));
        if (response) res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(response));
        else res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
    server = serverHandle(httpServer);
  });
  afterAll(() => server?.close());

  it('calls and maps declared errors to their classes', async () => {
    const transport = new HttpTransport(server.url);
    expect(await callMethod(transport, 'Calc.add', [1, 2], orderServiceErrors)).toBe(3);
    const empty = await callMethod(transport, 'OrderService.createOrder', [{}], orderServiceErrors).catch((e: unknown) => e);
    expect(empty).toBeInstanceOf(CartEmptyError);
    expect(empty).toMatchObject({ code: 1002, detail: 'cart has no items' });
  });
});
