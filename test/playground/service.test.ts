/**
 * The checkout reference service (the behaviour rules of docs/playground.md,
 * "States and transitions", and the playground's own rules in docs/playground.md), through the
 * clients generated from playground/checkout.idl, against the real server on 127.0.0.1.
 */
import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { catalog } from '../../playground/service/catalog.js';
import { defaultLimits } from '../../playground/service/limits.js';
import { createMemoryStore } from '../../playground/service/memory-store.js';
import type { CheckoutStore } from '../../playground/service/store.js';
import {
  playgroundModules,
  playgroundRoot,
  type CheckoutIdl,
  type PlaygroundModules,
  type RuntimeClient,
  type ServerStart,
} from './harness.js';

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

/** Starts a checkout server with its own store and returns clients for it. */
async function serve(store: CheckoutStore = createMemoryStore()) {
  const server = await start.startCheckoutServer({ port: 0, host: '127.0.0.1', store });
  servers.push(server);
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('the server has no address');
  const baseUrl = `http://127.0.0.1:${address.port}/`;
  const transport = new runtime.HttpTransport(baseUrl);
  return {
    baseUrl,
    store,
    catalog: new idl.CatalogServiceClient(transport),
    carts: new idl.CartServiceClient(transport),
    orders: new idl.OrderServiceClient(transport),
  };
}

const address = { street: '1 Market Street', city: 'San Francisco', state: 'CA', zipCode: '94105', country: 'US' };
const priceOf = (productId: string) => catalog.find((p) => p.productId === productId)!.price;
const stockOf = (productId: string) => catalog.find((p) => p.productId === productId)!.stock;

/** The rejection of `promise`, which must reject. */
async function rejectionOf(promise: Promise<unknown>): Promise<Error & { code: number; data?: unknown }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { code: number; data?: unknown };
  }
  throw new Error('expected the call to fail, but it succeeded');
}

describe('CatalogService', () => {
  it('listProducts returns the whole catalog, each product with an image the playground serves', async () => {
    const { catalog: client } = await serve();
    const products = await client.listProducts();

    expect(products).toEqual(catalog);
    expect(products.length).toBeGreaterThanOrEqual(12);
    for (const product of products) {
      expect(product.price).toBeGreaterThan(0);
      expect(Number.isInteger(product.stock) && product.stock >= 0).toBe(true);
      expect(product.imageUrl).toMatch(/^\/images\/.+\.svg$/);
      expect(existsSync(path.join(playgroundRoot, 'public', product.imageUrl!)), product.imageUrl!).toBe(true);
    }
  });

  it('getProduct returns the product, or null when the id is unknown', async () => {
    const { catalog: client } = await serve();
    expect(await client.getProduct('kettle')).toEqual(catalog.find((p) => p.productId === 'kettle'));
    expect(await client.getProduct('no-such-product')).toBeNull();
  });
});

describe('CartService', () => {
  it('addToCart without cartId creates a new cart with a generated id', async () => {
    const { carts } = await serve();
    const first = await carts.addToCart({ productId: 'grinder', quantity: 2 });
    const second = await carts.addToCart({ cartId: null, productId: 'grinder', quantity: 1 });

    expect(first.cartId).toMatch(/\S/);
    expect(second.cartId).not.toBe(first.cartId);
    expect(first.items).toEqual([{ productId: 'grinder', quantity: 2, price: priceOf('grinder') }]);
    expect(first.subtotal).toBe(2 * priceOf('grinder'));
    expect(await carts.getCart(first.cartId)).toEqual(first);
  });

  it('addToCart with an unknown cartId creates a cart with that id', async () => {
    const { carts } = await serve();
    const cart = await carts.addToCart({ cartId: 'my-cart', productId: 'tote', quantity: 1 });
    expect(cart.cartId).toBe('my-cart');
    expect(await carts.getCart('my-cart')).toEqual(cart);
  });

  it('addToCart appends an item per call and keeps subtotal = sum of price x quantity', async () => {
    const { carts } = await serve();
    const { cartId } = await carts.addToCart({ productId: 'beans-ethiopia', quantity: 3 });
    await carts.addToCart({ cartId, productId: 'filters', quantity: 2 });
    const cart = await carts.addToCart({ cartId, productId: 'beans-ethiopia', quantity: 1 });

    expect(cart.items).toEqual([
      { productId: 'beans-ethiopia', quantity: 3, price: priceOf('beans-ethiopia') },
      { productId: 'filters', quantity: 2, price: priceOf('filters') },
      { productId: 'beans-ethiopia', quantity: 1, price: priceOf('beans-ethiopia') },
    ]);
    const expected = 4 * priceOf('beans-ethiopia') + 2 * priceOf('filters');
    expect(cart.subtotal).toBeCloseTo(expected, 10);
  });

  it('addToCart of an unknown product fails with -32602 "Product not found" and creates no cart', async () => {
    const { carts } = await serve();
    const error = await rejectionOf(carts.addToCart({ cartId: 'c1', productId: 'unicorn', quantity: 1 }));

    expect(error).toBeInstanceOf(runtime.RpcError);
    expect(error.code).toBe(-32602);
    expect(error.message).toBe('Product not found');
    expect(await carts.getCart('c1')).toBeNull();
  });

  it('addToCart rejects a quantity below 1 with -32602', async () => {
    const { carts } = await serve();
    const error = await rejectionOf(carts.addToCart({ productId: 'mug', quantity: 0 }));
    expect(error.code).toBe(-32602);
    expect(error.message).toMatch(/^Invalid params: params\[0\]\.quantity/);
  });

  it("addToCart's own -32602 errors give paths in the caller's style, like the server's validation errors", async () => {
    const { baseUrl } = await serve();
    const badQuantity = { productId: 'mug', quantity: 0 };
    const blankCart = { cartId: '  ', productId: 'mug', quantity: 1 };
    const expected = (path: string, problem: string) => ({
      code: -32602,
      message: `Invalid params: ${path}: ${problem}`,
      data: { errors: [{ path, message: problem }] },
    });
    const jsonRpc = async (params: unknown) => {
      const response = await fetch(baseUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', method: 'CartService.addToCart', params, id: 1 }),
      });
      return ((await response.json()) as { error: unknown }).error;
    };
    expect(await jsonRpc([badQuantity])).toStrictEqual(expected('params[0].quantity', 'must be at least 1'));
    expect(await jsonRpc({ request: badQuantity })).toStrictEqual(expected('params.request.quantity', 'must be at least 1'));
    expect(await jsonRpc([blankCart])).toStrictEqual(expected('params[0].cartId', 'must not be empty'));
    expect(await jsonRpc({ request: blankCart })).toStrictEqual(expected('params.request.cartId', 'must not be empty'));
    // The server's own validation of the same call, named: the same style.
    expect(await jsonRpc({ request: { productId: 'mug', quantity: 'two' } })).toMatchObject({
      message: 'Invalid params: params.request.quantity: expected integer',
    });

    const rest = await fetch(`${baseUrl}CartService/addToCart`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ request: badQuantity }),
    });
    expect(rest.status).toBe(400);
    expect(await rest.json()).toStrictEqual(expected('params.request.quantity', 'must be at least 1'));
  });

  it('getCart returns null when the id is unknown', async () => {
    const { carts } = await serve();
    expect(await carts.getCart('nobody')).toBeNull();
  });

  it('clearCart empties an existing cart and returns true; false when the cart does not exist', async () => {
    const { carts } = await serve();
    const { cartId } = await carts.addToCart({ productId: 'scale', quantity: 1 });

    expect(await carts.clearCart(cartId)).toBe(true);
    expect(await carts.getCart(cartId)).toEqual({ cartId, items: [], subtotal: 0 });
    expect(await carts.clearCart('nobody')).toBe(false);
  });
});

describe('OrderService.createOrder', () => {
  it('turns a cart into a pending order with total = subtotal and createdAt in Unix seconds', async () => {
    const { carts, orders, catalog: products } = await serve();
    const { cartId } = await carts.addToCart({ productId: 'kettle', quantity: 1 });
    const cart = await carts.addToCart({ cartId, productId: 'filters', quantity: 2 });

    const before = Math.floor(Date.now() / 1000);
    const response = await orders.createOrder({ cartId, shippingAddress: address, paymentMethod: 'paypal' });
    const after = Math.floor(Date.now() / 1000);

    expect(response.orderId).toMatch(/\S/);
    expect(response.message).toContain(response.orderId);
    const order = await orders.getOrder(response.orderId);
    expect(order).toEqual({
      orderId: response.orderId,
      cart,
      shippingAddress: address,
      paymentMethod: 'paypal',
      status: 'pending',
      total: cart.subtotal,
      createdAt: expect.any(Number),
    });
    expect(order!.createdAt).toBeGreaterThanOrEqual(before);
    expect(order!.createdAt).toBeLessThanOrEqual(after);

    // Placing the order takes the items from stock and starts the cart over.
    expect((await products.getProduct('kettle'))!.stock).toBe(stockOf('kettle') - 1);
    expect((await products.getProduct('filters'))!.stock).toBe(stockOf('filters') - 2);
    expect(await carts.getCart(cartId)).toEqual({ cartId, items: [], subtotal: 0 });
  });

  it('raises CartNotFound (1001) for an unknown cart', async () => {
    const { orders } = await serve();
    const error = await rejectionOf(orders.createOrder({ cartId: 'nobody', shippingAddress: address, paymentMethod: 'credit_card' }));

    expect(error).toBeInstanceOf(idl.CartNotFoundError);
    expect(error.code).toBe(1001);
    expect(error.message).toMatch(/^CartNotFound: /);
  });

  it('raises CartEmpty (1002) for a cart without items, before looking at the address', async () => {
    const { carts, orders } = await serve();
    const { cartId } = await carts.addToCart({ productId: 'mug', quantity: 1 });
    await carts.clearCart(cartId);
    const error = await rejectionOf(
      orders.createOrder({ cartId, shippingAddress: { ...address, street: '' }, paymentMethod: 'credit_card' }),
    );

    expect(error).toBeInstanceOf(idl.CartEmptyError);
    expect(error.code).toBe(1002);
    expect(error.message).toMatch(/^CartEmpty: /);
  });

  it('raises CartEmpty (1002) when the same cart is checked out twice', async () => {
    const { carts, orders } = await serve();
    const { cartId } = await carts.addToCart({ productId: 'tote', quantity: 1 });
    await orders.createOrder({ cartId, shippingAddress: address, paymentMethod: 'apple_pay' });

    const error = await rejectionOf(orders.createOrder({ cartId, shippingAddress: address, paymentMethod: 'apple_pay' }));
    expect(error).toBeInstanceOf(idl.CartEmptyError);
  });

  it('raises OutOfStock (1004) when the cart holds more of a product than is in stock, summed over its lines', async () => {
    const { carts, orders, catalog: products } = await serve();
    const { cartId } = await carts.addToCart({ productId: 'mug', quantity: 2 });
    await carts.addToCart({ cartId, productId: 'mug', quantity: 2 }); // 4 mugs, 3 in stock
    const cartBefore = await carts.getCart(cartId);

    const error = await rejectionOf(orders.createOrder({ cartId, shippingAddress: address, paymentMethod: 'debit_card' }));

    expect(error).toBeInstanceOf(idl.OutOfStockError);
    expect(error.code).toBe(1004);
    expect(error.message).toBe(`OutOfStock: Stoneware Mug: 4 in cart, ${stockOf('mug')} in stock`);
    // Nothing changed: the cart can be fixed and checked out again.
    expect(await carts.getCart(cartId)).toEqual(cartBefore);
    expect((await products.getProduct('mug'))!.stock).toBe(stockOf('mug'));
  });

  it('sells the last item once when two carts order it at the same time', async () => {
    const { carts, orders, catalog: products } = await serve();
    const cartIds = ['first', 'second'];
    for (const cartId of cartIds) await carts.addToCart({ cartId, productId: 'moka-pot', quantity: 1 });

    const outcomes = await Promise.allSettled(
      cartIds.map((cartId) => orders.createOrder({ cartId, shippingAddress: address, paymentMethod: 'credit_card' })),
    );

    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const failures = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(failures).toHaveLength(1);
    expect(failures[0].reason).toBeInstanceOf(idl.OutOfStockError);
    expect((await products.getProduct('moka-pot'))!.stock).toBe(0);
  });

  it('raises InvalidAddress (1005) for blank address fields, naming every one', async () => {
    const { carts, orders } = await serve();
    const { cartId } = await carts.addToCart({ productId: 'scale', quantity: 1 });
    const error = await rejectionOf(
      orders.createOrder({ cartId, shippingAddress: { ...address, street: '   ', city: '' }, paymentMethod: 'credit_card' }),
    );

    expect(error).toBeInstanceOf(idl.InvalidAddressError);
    expect(error.code).toBe(1005);
    expect(error.message).toBe('InvalidAddress: street is empty; city is empty');
  });

  it('raises InvalidAddress (1005) for a zip code that is no postal code', async () => {
    const { carts, orders } = await serve();
    const { cartId } = await carts.addToCart({ productId: 'scale', quantity: 1 });
    const error = await rejectionOf(
      orders.createOrder({ cartId, shippingAddress: { ...address, zipCode: '9' }, paymentMethod: 'credit_card' }),
    );

    expect(error).toBeInstanceOf(idl.InvalidAddressError);
    expect(error.message).toMatch(/zipCode must be/);
  });

  it('raises PaymentFailed (1003) for the test zip code 00000 and keeps cart and stock', async () => {
    const { carts, orders, catalog: products } = await serve();
    const { cartId } = await carts.addToCart({ productId: 'grinder', quantity: 1 });
    const error = await rejectionOf(
      orders.createOrder({ cartId, shippingAddress: { ...address, zipCode: '00000' }, paymentMethod: 'credit_card' }),
    );

    expect(error).toBeInstanceOf(idl.PaymentFailedError);
    expect(error.code).toBe(1003);
    expect(error.message).toMatch(/^PaymentFailed: credit_card payment was declined/);
    expect((await products.getProduct('grinder'))!.stock).toBe(stockOf('grinder'));

    // With another address the same cart goes through.
    const { orderId } = await orders.createOrder({ cartId, shippingAddress: address, paymentMethod: 'credit_card' });
    expect((await orders.getOrder(orderId))!.status).toBe('pending');
  });
});

describe('OrderService.getOrder', () => {
  it('returns null when the id is unknown', async () => {
    const { orders } = await serve();
    expect(await orders.getOrder('no-such-order')).toBeNull();
  });
});

describe('limits and exact money', () => {
  /** A raw JSON-RPC call's error (or result). */
  async function call(baseUrl: string, method: string, params: unknown) {
    const response = await fetch(baseUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', method, params, id: 1 }),
    });
    return (await response.json()) as { result?: unknown; error?: { code: number; message: string; data?: unknown } };
  }

  it('rejects ids longer than 64 characters with -32602, in every method', async () => {
    const { baseUrl } = await serve();
    const long = 'x'.repeat(65);
    const problem = 'must be at most 64 characters';
    const cases: [string, unknown, string][] = [
      ['CartService.addToCart', [{ cartId: long, productId: 'mug', quantity: 1 }], 'params[0].cartId'],
      ['CartService.addToCart', [{ productId: long, quantity: 1 }], 'params[0].productId'],
      ['CartService.getCart', [long], 'params[0]'],
      ['CartService.clearCart', { cartId: long }, 'params.cartId'],
      ['CatalogService.getProduct', [long], 'params[0]'],
      ['OrderService.createOrder', [{ cartId: long, shippingAddress: address, paymentMethod: 'paypal' }], 'params[0].cartId'],
      ['OrderService.getOrder', [long], 'params[0]'],
    ];
    for (const [method, params, path] of cases) {
      expect((await call(baseUrl, method, params)).error, method).toEqual({
        code: -32602,
        message: `Invalid params: ${path}: ${problem}`,
        data: { errors: [{ path, message: problem }] },
      });
    }
    // 64 characters are fine.
    expect((await call(baseUrl, 'CartService.getCart', ['x'.repeat(64)])).result).toBeNull();
  });

  it('rejects a quantity above 1000 (up to 2^53-1) with -32602 and stores nothing', async () => {
    const { baseUrl, carts } = await serve();
    for (const quantity of [1001, Number.MAX_SAFE_INTEGER]) {
      const { error } = await call(baseUrl, 'CartService.addToCart', [{ cartId: 'big', productId: 'mug', quantity }]);
      expect(error).toMatchObject({ code: -32602, message: 'Invalid params: params[0].quantity: must be at most 1000' });
    }
    expect(await carts.getCart('big')).toBeNull();
  });

  it('computes subtotals in cents: 1000 x 0.10 ten times is exactly 1000', async () => {
    const products = [{ productId: 'dime', name: 'Dime', description: 'Ten cents', price: 0.1, stock: 100_000 }];
    const { carts } = await serve(createMemoryStore({ products }));
    let cart = await carts.addToCart({ productId: 'dime', quantity: 1000 });
    for (let i = 1; i < 10; i++) cart = await carts.addToCart({ cartId: cart.cartId, productId: 'dime', quantity: 1000 });
    expect(cart.subtotal).toBe(1000);
  });

  it('answers a full cart and too many carts with -32602', async () => {
    const limits = { ...defaultLimits, maxItemsPerCart: 3, maxCarts: 2 };
    const { baseUrl } = await serve(createMemoryStore({ limits }));
    const add = (cartId: string) => call(baseUrl, 'CartService.addToCart', [{ cartId, productId: 'mug', quantity: 1 }]);
    for (let i = 0; i < 3; i++) expect((await add('a')).result).toBeDefined();
    expect((await add('a')).error).toMatchObject({
      code: -32602,
      message: 'Invalid params: params[0].cartId: the cart is full: at most 3 items',
    });
    expect((await add('b')).result).toBeDefined();
    expect((await add('c')).error).toMatchObject({
      code: -32602,
      message: 'Invalid params: params[0].cartId: no room for another cart (at most 2); try again later',
    });
  });

  it('keeps only the fields of Address: unknown fields are neither stored nor echoed', async () => {
    const { baseUrl, carts, orders } = await serve();
    const { cartId } = await carts.addToCart({ productId: 'tote', quantity: 1 });
    const extra = { ...address, note: 'x'.repeat(10_000), nested: { deep: true } };
    const { result } = await call(baseUrl, 'OrderService.createOrder', [{ cartId, shippingAddress: extra, paymentMethod: 'paypal' }]);
    const order = await orders.getOrder((result as { orderId: string }).orderId);
    expect(order!.shippingAddress).toStrictEqual(address);
  });

  it('rejects address fields longer than 200 characters with InvalidAddress', async () => {
    const { carts, orders } = await serve();
    const { cartId } = await carts.addToCart({ productId: 'tote', quantity: 1 });
    const error = await rejectionOf(
      orders.createOrder({ cartId, shippingAddress: { ...address, street: 'x'.repeat(201) }, paymentMethod: 'paypal' }),
    );
    expect(error).toBeInstanceOf(idl.InvalidAddressError);
    expect(error.message).toBe('InvalidAddress: street is longer than 200 characters');
  });

  it('a retried checkout gets CartEmpty naming the order the first one created, and no second order', async () => {
    const { carts, orders } = await serve();
    const { cartId } = await carts.addToCart({ productId: 'kettle', quantity: 1 });
    const request = { cartId, shippingAddress: address, paymentMethod: 'credit_card' as const };
    const { orderId } = await orders.createOrder(request);

    const retry = await rejectionOf(orders.createOrder(request));
    expect(retry).toBeInstanceOf(idl.CartEmptyError);
    expect(retry.message).toBe(`CartEmpty: cart "${cartId}" has no items; its last checkout created order ${orderId}`);
    expect(retry.data).toEqual({ orderId });
  });
});

describe('concurrency', () => {
  it('50 parallel addToCart calls on one cart leave exactly 50 items', async () => {
    const { carts } = await serve();
    const cartId = 'busy-cart';
    await Promise.all(Array.from({ length: 50 }, () => carts.addToCart({ cartId, productId: 'filters', quantity: 1 })));

    const cart = await carts.getCart(cartId);
    expect(cart!.items).toHaveLength(50);
    expect(cart!.subtotal).toBe(50 * priceOf('filters'));
  });

  it('50 parallel addToCart calls lose nothing even when every store call waits', async () => {
    const { carts } = await serve(slowStore(createMemoryStore()));
    const cartId = 'slow-cart';
    await Promise.all(Array.from({ length: 50 }, (_, i) => carts.addToCart({ cartId, productId: i % 2 ? 'mug' : 'tote', quantity: 1 })));

    const cart = await carts.getCart(cartId);
    expect(cart!.items).toHaveLength(50);
    expect(cart!.subtotal).toBe(25 * priceOf('mug') + 25 * priceOf('tote'));
  });
});

/** A store whose every call yields to the event loop first, as a database round trip would. */
function slowStore(store: CheckoutStore): CheckoutStore {
  const slow = { ...store } as Record<string, unknown>;
  for (const [name, value] of Object.entries(store)) {
    if (typeof value !== 'function') continue;
    const method = value as (...args: unknown[]) => Promise<unknown>;
    slow[name] = async (...args: unknown[]) => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return method(...args);
    };
  }
  return slow as unknown as CheckoutStore;
}
