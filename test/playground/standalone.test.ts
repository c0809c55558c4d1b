/**
 * `npm run playground:build`: the page with openapi.json next to it, and the standalone server
 * bundle, which runs with plain `node` (no Vite) on SERVER_PORT and answers JSON-RPC on `/` and `/rpc`.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalog } from '../../playground/service/catalog.js';
import {
  buildPlayground,
  startBuiltServer,
  playgroundModules,
  type CheckoutIdl,
  type PlaygroundModules,
  type RuntimeClient,
} from './harness.js';

let outDir = '';
let server: ChildProcess | undefined;
let baseUrl = '';
let modules: PlaygroundModules | undefined;

beforeAll(async () => {
  outDir = await buildPlayground('playground-build');
  ({ server, url: baseUrl } = await startBuiltServer(outDir));
});

afterAll(async () => {
  server?.kill();
  await modules?.close();
  if (outDir) await rm(outDir, { recursive: true, force: true });
});

function post(pathname: string, body: unknown) {
  return fetch(`${baseUrl}${pathname}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

describe('playground:build', () => {
  it('writes the page with openapi.json and openrpc.json next to it', async () => {
    const page = path.join(outDir, 'page');
    const openRpc = JSON.parse(await readFile(path.join(page, 'openrpc.json'), 'utf8')) as { methods: { name: string }[] };
    expect(openRpc.methods.map((m) => m.name)).toEqual(
      expect.arrayContaining(['CatalogService.listProducts', 'CartService.addToCart', 'OrderService.createOrder']),
    );
    expect(existsSync(path.join(page, 'index.html'))).toBe(true);
    expect(existsSync(path.join(page, 'images', 'moka-pot.svg'))).toBe(true);
    const document = JSON.parse(await readFile(path.join(page, 'openapi.json'), 'utf8')) as {
      paths: Record<string, unknown>;
      servers?: unknown;
    };
    expect(document.servers).toEqual([{ url: '/rpc' }]);
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/CatalogService/listProducts', '/CartService/addToCart', '/OrderService/createOrder']),
    );
  });

  it('bundles the server into files beside each other that import nothing but Node built-ins and, when used, a database client', async () => {
    const serverDir = path.join(outDir, 'server');
    const files = (await readdir(serverDir)).filter((file) => file.endsWith('.js'));
    expect(files).toEqual(expect.arrayContaining(['main.js', 'mcp-stdio.js']));
    const code = (await Promise.all(files.map((file) => readFile(path.join(serverDir, file), 'utf8')))).join('\n');
    const imported = [...code.matchAll(/(?:^|\n)\s*import\s[^'"]*?['"]([^'"]+)['"]/g)].map((m) => m[1]);
    expect(imported.length).toBeGreaterThan(0);
    // The two entries share a chunk beside them (./start.js), which the build writes there too.
    const ownChunks = imported.filter((specifier) => specifier.startsWith('./'));
    for (const chunk of ownChunks) expect(files).toContain(chunk.slice(2));
    expect(imported.filter((specifier) => !specifier.startsWith('node:') && !specifier.startsWith('./'))).toEqual([]);
    // PGlite loads its WebAssembly from beside its own module, and pg only with DATABASE_URL: both
    // stay packages, loaded on demand.
    const loaded = [...code.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]);
    expect(loaded.sort()).toEqual(['@electric-sql/pglite', 'pg']);
  });
});

describe('the standalone server (node dist/server/main.js)', () => {
  it('answers JSON-RPC on / and on every path of one segment (/rpc, as the dev server)', async () => {
    for (const pathname of ['/', '/rpc', '/rpc/']) {
      const response = await post(pathname, { jsonrpc: '2.0', id: 7, method: 'CatalogService.listProducts' });
      expect(response.status, pathname).toBe(200);
      expect(await response.json()).toEqual({ jsonrpc: '2.0', id: 7, result: catalog });
    }
  });

  it('answers a POST to a deeper path that names no method with 404', async () => {
    for (const pathname of ['/CatalogService/getProdcut', '/rpc/CatalogService/listproducts', '/any/deeper/path']) {
      const response = await post(pathname, { jsonrpc: '2.0', id: 7, method: 'CatalogService.listProducts' });
      expect(response.status, pathname).toBe(404);
      expect(await response.json()).toEqual({ code: -32601, message: `Method not found: ${pathname}` });
    }
  });

  it('answers other HTTP methods with 405', async () => {
    const response = await fetch(`${baseUrl}/`);
    expect(response.status).toBe(405);
    expect(await response.json()).toEqual({ error: 'Method Not Allowed' });
  });

  it('serves GET /openapi.json: the document the server build wrote beside the bundle, with its server URL', async () => {
    const written = JSON.parse(await readFile(path.join(outDir, 'server', 'openapi.json'), 'utf8')) as { servers?: { url: string }[] };
    expect(written.servers).toEqual([{ url: '/rpc' }]);
    const response = await fetch(`${baseUrl}/openapi.json`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(written);
    // The binding answers under the documented server URL too.
    const product = await post('/rpc/CatalogService/getProduct', { productId: 'kettle' });
    expect(await product.json()).toEqual(catalog.find((p) => p.productId === 'kettle'));
  });

  it('serves GET /openrpc.json, the OpenRPC document the server build wrote beside the bundle, and answers rpc.discover with it', async () => {
    const written = JSON.parse(await readFile(path.join(outDir, 'server', 'openrpc.json'), 'utf8')) as { openrpc: string };
    expect(written.openrpc).toBe('1.3.2');
    const response = await fetch(`${baseUrl}/openrpc.json`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(written);
    const discover = await post('/rpc', { jsonrpc: '2.0', id: 1, method: 'rpc.discover' });
    expect(await discover.json()).toEqual({ jsonrpc: '2.0', id: 1, result: written });
  });

  it('serves the OpenAPI binding', async () => {
    const response = await post('/CatalogService/getProduct', { productId: 'kettle' });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(catalog.find((p) => p.productId === 'kettle'));
  });

  it('works with the generated clients: a cart, a pending order, and declared errors', async () => {
    modules = await playgroundModules();
    const idl = await modules.load<CheckoutIdl>('/checkout.idl');
    const { HttpTransport } = await modules.load<RuntimeClient>('unplugin-idl-rpc/runtime/client');
    const transport = new HttpTransport(`${baseUrl}/`);
    const carts = new idl.CartServiceClient(transport);
    const orders = new idl.OrderServiceClient(transport);

    const cart = await carts.addToCart({ productId: 'beans-colombia', quantity: 2 });
    const address = { street: '5 Rue Rivoli', city: 'Paris', state: 'IDF', zipCode: '75001', country: 'FR' };
    const { orderId } = await orders.createOrder({ cartId: cart.cartId, shippingAddress: address, paymentMethod: 'debit_card' });
    const order = await orders.getOrder(orderId);
    expect(order).toMatchObject({ status: 'pending', total: cart.subtotal, cart });

    await expect(orders.createOrder({ cartId: cart.cartId, shippingAddress: address, paymentMethod: 'debit_card' })).rejects.toBeInstanceOf(
      idl.CartEmptyError,
    );
    await expect(orders.createOrder({ cartId: 'gone', shippingAddress: address, paymentMethod: 'debit_card' })).rejects.toBeInstanceOf(
      idl.CartNotFoundError,
    );
  });
});
