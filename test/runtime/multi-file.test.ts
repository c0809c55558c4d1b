/**
 * A server built from an IDL that imports others (test/idl/fixtures/multi-file: shop.idl imports
 * common.idl and inventory.idl): handlers are registered under the qualified interface name
 * (`inventory.InventoryService`), which JSON-RPC calls as `inventory.InventoryService.getStock` and
 * the REST binding serves at `/inventory.InventoryService/getStock`; a declared error of the
 * imported namespace (`common.NotFound`, 3001) arrives with its code over both bindings; `rpc-idl`
 * answers the JSON form of every file.
 */
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callMethod, DeclaredError, HttpTransport } from '../../runtime/client.js';
import { createMiddleware, createRpcServer } from '../../runtime/index.js';
import { compileIdl } from '../../src/idl/compile.js';
import { toIdlJson } from '../../src/idl/json.js';
import { post, serverHandle, startServer, type TestServer } from './helpers.js';

const shopFile = join(import.meta.dirname, '..', 'idl', 'fixtures', 'multi-file', 'shop.idl');
const idl = toIdlJson(compileIdl(readFileSync(shopFile, 'utf8'), shopFile));

/** `common.NotFound` as a client declares it, to map its code back to a class. */
class NotFoundError extends DeclaredError {
  static readonly code = 3001;
  static readonly errorName = 'NotFound';
  static readonly defaultMessage = 'not found';
}

const stock = { sku: 'mug', price: { amount: 950, currency: 'EUR' }, count: 3 };
const stockOf = (sku: string) => (sku === stock.sku ? stock : undefined);

const handlers = {
  OrderService: {
    place(sku: string, quantity: number) {
      if (!stockOf(sku)) throw new NotFoundError(`no article ${sku}`);
      return { orderId: 'o1', lines: [{ stock, quantity }], total: { amount: 950 * quantity, currency: 'EUR' } };
    },
    find: () => null,
    totals: (currency: string) => ({ all: { amount: 0, currency } }),
  },
  'inventory.InventoryService': {
    getStock(sku: string) {
      const found = stockOf(sku);
      if (!found) throw new NotFoundError(`no article ${sku}`);
      return found;
    },
    list: (page: { offset: number; limit: number }) => [{ ...stock, reserved: page.offset }],
  },
};

let server: TestServer;
let middlewareServer: TestServer;

beforeAll(async () => {
  server = await startServer({ idl, handlers });
  // The same server under the middleware's base, as the dev server hosts it.
  const middleware = createMiddleware(createRpcServer({ idl, handlers }), { path: '/rpc' });
  const plain = http.createServer((req, res) =>
    middleware(req, res, () => {
      res.statusCode = 418;
      res.end('next');
    }),
  );
  await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
  middlewareServer = serverHandle(plain);
});
afterAll(async () => {
  await server?.close();
  await middlewareServer?.close();
});

const rpc = (method: string, params: unknown, url = server.url) => post(url, { jsonrpc: '2.0', method, params, id: 1 });

it('registers handlers under the qualified interface name, and refuses an unqualified one', () => {
  const { 'inventory.InventoryService': inventory, ...rest } = handlers;
  expect(() => createRpcServer({ idl, handlers: { ...rest, InventoryService: inventory } })).toThrow(
    'createRpcServer: handler registered for "InventoryService", which is not an interface of the IDL (interfaces: OrderService, inventory.InventoryService)',
  );
});

describe('JSON-RPC', () => {
  it('calls a method of an imported interface by its qualified name, with positional or named params', async () => {
    expect((await rpc('inventory.InventoryService.getStock', ['mug'])).json).toEqual({ jsonrpc: '2.0', result: stock, id: 1 });
    expect((await rpc('inventory.InventoryService.list', { page: { offset: 2, limit: 5 } })).json.result).toEqual([
      { ...stock, reserved: 2 },
    ]);
    expect((await rpc('OrderService.totals', ['USD'])).json.result).toEqual({ all: { amount: 0, currency: 'USD' } });
  });

  it('validates params against the imported types', async () => {
    const { json } = await rpc('inventory.InventoryService.list', [{ offset: 'x', limit: 1 }]);
    expect(json.error.code).toBe(-32602);
    expect(json.error.message).toMatch(/^Invalid params: params\[0\]\.offset: /);
    expect((await rpc('OrderService.totals', ['CHF'])).json.error.code).toBe(-32602);
  });

  it('validates results against the imported types (inventory.Stock -> common.Money -> common.Currency)', async () => {
    const badStock = { ...stock, price: { amount: 1, currency: 'CHF' } };
    const broken = await startServer({
      idl,
      handlers: { ...handlers, 'inventory.InventoryService': { ...handlers['inventory.InventoryService'], getStock: () => badStock } },
      exposeErrors: true,
    });
    try {
      const { json } = await rpc('inventory.InventoryService.getStock', ['mug'], broken.url);
      expect(json.error.code).toBe(-32603);
      expect(json.error.message).toBe('Internal error: invalid result of inventory.InventoryService.getStock');
      expect(json.error.data.errors.map((e: { path: string }) => e.path)).toEqual(['result.price.currency']);
    } finally {
      await broken.close();
    }
  });

  it('answers an unknown or unqualified method with -32601', async () => {
    for (const method of ['InventoryService.getStock', 'inventory.Nope.getStock', 'inventory.InventoryService', 'getStock']) {
      expect((await rpc(method, ['mug'])).json.error, method).toEqual({ code: -32601, message: `Method not found: ${method}` });
    }
  });

  it('sends a declared error of the imported namespace with its code, which the client maps back', async () => {
    const { status, json } = await rpc('inventory.InventoryService.getStock', ['cup']);
    expect(status).toBe(200);
    expect(json.error).toEqual({ code: 3001, message: 'NotFound: no article cup' });
    expect((await rpc('OrderService.place', ['cup', 1])).json.error.code).toBe(3001);
    const transport = new HttpTransport(server.url);
    const call = callMethod(transport, 'inventory.InventoryService.getStock', ['cup'], [NotFoundError]);
    await expect(call).rejects.toBeInstanceOf(NotFoundError);
    await expect(call).rejects.toMatchObject({ code: 3001, detail: 'no article cup' });
  });

  it('serves the JSON form of every file through rpc-idl', async () => {
    const { json } = await rpc('rpc-idl', []);
    expect(json.result).toEqual(idl);
    expect(json.result.interfaces.map((i: { name: string }) => i.name)).toEqual(['OrderService', 'inventory.InventoryService']);
    expect(json.result.errors.map((e: { name: string }) => e.name)).toEqual(['shop.OutOfStock', 'common.NotFound', 'common.Invalid']);
  });
});

describe('REST binding', () => {
  it('serves a method of an imported interface at /<namespace>.<Interface>/<method>', async () => {
    const { status, json } = await post(`${server.url}/inventory.InventoryService/getStock`, { sku: 'mug' });
    expect([status, json]).toEqual([200, stock]);
    const viaMiddleware = await post(`${middlewareServer.url}/rpc/inventory.InventoryService/getStock`, { sku: 'mug' });
    expect([viaMiddleware.status, viaMiddleware.json]).toEqual([200, stock]);
  });

  it('answers a declared error of the imported namespace with 422 and its code', async () => {
    for (const url of [
      `${server.url}/inventory.InventoryService/getStock`,
      `${middlewareServer.url}/rpc/inventory.InventoryService/getStock`,
    ]) {
      const { status, json } = await post(url, { sku: 'cup' });
      expect([status, json], url).toEqual([422, { code: 3001, message: 'NotFound: no article cup' }]);
    }
  });

  it('answers 404 to paths that name no method, qualified or not', async () => {
    for (const path of [
      '/inventory.Nope/getStock',
      '/InventoryService/getStock',
      '/inventory/InventoryService/getStock/extra',
      '/inventory.InventoryService/getstock',
      '/inventory.inventoryService/getStock',
      '/common.Money/amount',
    ]) {
      const { status, json } = await post(`${server.url}${path}`, {});
      expect([status, json], path).toEqual([404, { code: -32601, message: `Method not found: ${path}` }]);
    }
    const underBase = await post(`${middlewareServer.url}/rpc/inventory.Nope/getStock`, {});
    expect([underBase.status, underBase.json.code]).toEqual([404, -32601]);
  });

  it('middleware answers other verbs 405 on a qualified method path and passes on other paths', async () => {
    expect((await fetch(`${middlewareServer.url}/rpc/inventory.InventoryService/getStock`)).status).toBe(405);
    expect((await fetch(`${middlewareServer.url}/rpc/inventory.Nope/getStock`)).status).toBe(418);
  });
});
