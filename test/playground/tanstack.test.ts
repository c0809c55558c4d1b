/**
 * The TanStack Query helpers (runtime/adapters/tanstack.ts) with `@tanstack/query-core`'s own
 * QueryClient, over generated clients of checkout.idl and a real server that counts requests.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { MutationObserver, QueryClient } from '@tanstack/query-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { interfaceQueryKey, queryHelpers } from '../../runtime/adapters/tanstack.js';
import { BatchingTransport, RpcError } from '../../runtime/client.js';
import { generateModule } from '../../src/codegen/module.js';
import { compileIdl } from '../../src/idl/compile.js';
import { startRpcFront, type RpcFront } from '../runtime/rpc-front.js';

type CheckoutModule = typeof import('../../playground/checkout.idl');

let rpc: RpcFront;
let checkout: CheckoutModule;

/** The generated module of checkout.idl, as the plugin makes it, imported from inside the package (its runtime imports resolve to dist/). */
async function generatedCheckout(): Promise<CheckoutModule> {
  const source = readFileSync(new URL('../../playground/checkout.idl', import.meta.url), 'utf8');
  const { js } = generateModule(compileIdl(source, 'checkout.idl'), {
    runtimeImport: 'unplugin-idl-rpc/runtime/core',
    runtimeClientImport: 'unplugin-idl-rpc/runtime/client',
    sourceFile: 'checkout.idl',
  });
  const folder = path.join(import.meta.dirname, '../../test-output/tanstack');
  mkdirSync(folder, { recursive: true });
  const file = path.join(folder, 'checkout.idl.mjs');
  writeFileSync(file, js);
  return (await import(pathToFileURL(file).href)) as CheckoutModule;
}

beforeAll(async () => {
  rpc = await startRpcFront();
  checkout = await generatedCheckout();
});
afterAll(() => rpc?.close());

const address = { street: 's', city: 'c', state: 's', zipCode: 'z', country: 'c' };

describe('queryHelpers', () => {
  it('gives hierarchical, stable query keys and runs fetchQuery through the client, cached by key', async () => {
    const transport = new BatchingTransport(rpc.url);
    const catalog = queryHelpers(new checkout.CatalogServiceClient(transport));
    const options = catalog.getProduct.queryOptions('p1');
    expect(options.queryKey).toStrictEqual(['CatalogService', 'getProduct', ['p1']]);
    expect(catalog.getProduct.queryKey('p1')).toStrictEqual(['CatalogService', 'getProduct', ['p1']]);
    expect(catalog.getProduct.queryKey()).toStrictEqual(['CatalogService', 'getProduct']);
    expect(catalog.listProducts.queryOptions().queryKey).toStrictEqual(['CatalogService', 'listProducts', []]);

    const queryClient = new QueryClient();
    const before = rpc.requests.length;
    const [product, products] = await Promise.all([
      queryClient.fetchQuery({ ...options, staleTime: 60_000 }),
      queryClient.fetchQuery(catalog.listProducts.queryOptions()),
    ]);
    expect(product?.name).toBe('Mug');
    expect(products).toHaveLength(2);
    // Both queries went in one batch request; a fresh cached query sends nothing.
    expect(rpc.requests.length - before).toBe(1);
    expect(await queryClient.fetchQuery({ ...catalog.getProduct.queryOptions('p1'), staleTime: 60_000 })).toStrictEqual(product);
    expect(rpc.requests.length - before).toBe(1);
    expect(queryClient.getQueryData(catalog.getProduct.queryKey('p1'))).toStrictEqual(product);
  });

  it('invalidates every query of one interface by its prefix, and of one method', async () => {
    const transport = new BatchingTransport(rpc.url);
    const catalogClient = new checkout.CatalogServiceClient(transport);
    const cartClient = new checkout.CartServiceClient(transport);
    const catalog = queryHelpers(catalogClient);
    const carts = queryHelpers(cartClient);
    const queryClient = new QueryClient();
    const cart = await cartClient.addToCart({ productId: 'p1', quantity: 1 });
    await Promise.all([
      queryClient.fetchQuery(catalog.getProduct.queryOptions('p1')),
      queryClient.fetchQuery(catalog.listProducts.queryOptions()),
      queryClient.fetchQuery(carts.getCart.queryOptions(cart.cartId)),
    ]);
    const invalidated = () =>
      [catalog.getProduct.queryKey('p1'), catalog.listProducts.queryKey(), carts.getCart.queryKey(cart.cartId)].map(
        (queryKey) => queryClient.getQueryState(queryKey)?.isInvalidated,
      );
    expect(interfaceQueryKey(catalogClient)).toStrictEqual(['CatalogService']);
    await queryClient.invalidateQueries({ queryKey: catalog.getProduct.queryKey() }, { cancelRefetch: false });
    expect(invalidated()).toStrictEqual([true, false, false]);
    await queryClient.invalidateQueries({ queryKey: interfaceQueryKey(catalogClient) });
    expect(invalidated()).toStrictEqual([true, true, false]);
  });

  it('runs mutations through the client; a declared error arrives as its class', async () => {
    const transport = new BatchingTransport(rpc.url);
    const carts = queryHelpers(new checkout.CartServiceClient(transport));
    const orders = queryHelpers(new checkout.OrderServiceClient(transport));
    const queryClient = new QueryClient();
    expect(carts.addToCart.mutationOptions().mutationKey).toStrictEqual(['CartService', 'addToCart']);
    const cart = await new MutationObserver(queryClient, carts.addToCart.mutationOptions()).mutate({ productId: 'p2', quantity: 1 });
    expect(cart.items).toHaveLength(1);
    const placed = await new MutationObserver(queryClient, orders.createOrder.mutationOptions()).mutate({
      cartId: cart.cartId,
      shippingAddress: address,
      paymentMethod: 'paypal',
    });
    expect(placed.orderId).toMatch(/^order-/);
    const failing = new MutationObserver(queryClient, orders.createOrder.mutationOptions());
    await expect(failing.mutate({ cartId: 'nope', shippingAddress: address, paymentMethod: 'paypal' })).rejects.toBeInstanceOf(
      checkout.CartNotFoundError,
    );
    expect(failing.getCurrentResult().error).toBeInstanceOf(RpcError);
  });

  it('passes TanStack abort signal to the call', async () => {
    const slow = await startRpcFront();
    try {
      let seen: AbortSignal | undefined;
      const transport = new BatchingTransport(slow.url, {
        interceptors: [
          () => (call) => {
            seen = call.signal;
            return new Promise((_, reject) => call.signal.addEventListener('abort', () => reject(call.signal.reason)));
          },
        ],
      });
      const catalog = queryHelpers(new checkout.CatalogServiceClient(transport));
      const queryClient = new QueryClient();
      const pending = queryClient.fetchQuery(catalog.getProduct.queryOptions('p1')).catch((error: unknown) => error);
      await new Promise((resolve) => setTimeout(resolve, 10));
      await queryClient.cancelQueries({ queryKey: interfaceQueryKey(new checkout.CatalogServiceClient(transport)) });
      await pending;
      expect(seen?.aborted).toBe(true);
    } finally {
      await slow.close();
    }
  });

  it('refuses what is not a generated client', () => {
    expect(() => queryHelpers({ getProduct: () => Promise.resolve(1) })).toThrow(/expected a generated client/);
  });
});
