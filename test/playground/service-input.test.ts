/**
 * What one client can make the checkout service do (docs/playground.md, "Limits"), over JSON-RPC
 * against the standalone server code on 127.0.0.1, with each store: in memory, PGlite in memory,
 * and PostgreSQL (a scratch database on TEST_DATABASE_URL; skipped with the reason without one,
 * failed in CI). Strings that are no text (NUL, lone surrogates) are refused with -32602 and their
 * path before they reach the store, and the carts a client creates, notifications included, are
 * bounded by its budget of new carts (-32029 past it).
 */
import type { Server } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { catalog } from '../../playground/service/catalog.js';
import { type CheckoutLimits, defaultLimits } from '../../playground/service/limits.js';
import { createMemoryStore } from '../../playground/service/memory-store.js';
import type { CheckoutStore } from '../../playground/service/store.js';
import { applyMigrations } from '../../playground/store/migrations.js';
import { openPgliteDatabase } from '../../playground/store/pglite-database.js';
import { openPostgresDatabase } from '../../playground/store/postgres-database.js';
import type { SqlDatabase } from '../../playground/store/sql-database.js';
import { createSqlStore } from '../../playground/store/sql-store.js';
import { postgresMissing, scratchDatabase, type ScratchDatabase } from '../postgres.js';
import { playgroundModules, type PlaygroundModules, type ServerStart } from './harness.js';

const address = { street: '1 Market Street', city: 'San Francisco', state: 'CA', zipCode: '94105', country: 'US' };
/** Unix seconds after every cart's TTL: expireCarts then deletes (and counts) every cart. */
const farFuture = 4_000_000_000;
const postgresReason = await postgresMissing();
let modules: PlaygroundModules;
let start: ServerStart;
let pglite: SqlDatabase | undefined;
let postgres: { scratch: ScratchDatabase; db: SqlDatabase } | undefined;
const servers: Server[] = [];

beforeAll(async () => {
  modules = await playgroundModules();
  start = await modules.load<ServerStart>('/server/start.ts');
  pglite = await openPgliteDatabase(':memory:');
  if (postgresReason === undefined) {
    const scratch = await scratchDatabase('service_input');
    postgres = { scratch, db: await openPostgresDatabase(scratch.url, 10) };
  }
}, 60_000);

afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

afterAll(async () => {
  await modules?.close();
  await pglite?.close();
  await postgres?.db.close();
  await postgres?.scratch.drop();
});

/** A store on a shared database: tables emptied, catalog reseeded; closing it leaves the database open. */
async function freshSqlStore(db: SqlDatabase, limits: CheckoutLimits): Promise<CheckoutStore> {
  await applyMigrations(db);
  await db.exec('TRUNCATE products, carts, cart_items, orders, order_items; UPDATE cart_count SET carts = 0;');
  return createSqlStore({ ...db, close: async () => {} }, { limits });
}

const stores: [string, (limits: CheckoutLimits) => Promise<CheckoutStore>, () => string | undefined][] = [
  ['memory', async (limits) => createMemoryStore({ limits }), () => undefined],
  ['PGlite', (limits) => freshSqlStore(pglite!, limits), () => undefined],
  ['PostgreSQL', (limits) => freshSqlStore(postgres!.db, limits), () => postgresReason],
];

interface Answer {
  id?: number | null;
  result?: unknown;
  error?: { code: number; message: string; data?: { errors?: { path: string; message: string }[]; retryAfterSeconds?: number } };
}

/** POSTs a JSON body to the server (JSON-RPC on `/`, or the OpenAPI binding); the status and the parsed answer (undefined for 204). */
async function post(baseUrl: string, body: unknown, path = '') {
  const response = await fetch(baseUrl + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, json: text === '' ? undefined : JSON.parse(text) };
}

const request = (method: string, params: unknown, id = 1) => ({ jsonrpc: '2.0', method, params, id });
const notification = (method: string, params: unknown) => ({ jsonrpc: '2.0', method, params });

describe.each(stores)('the service on the %s store', (_name, makeStore, skipReason) => {
  /** A server over a fresh store with `limits`, or a skip with the reason. */
  async function serve(context: { skip(note: string): void }, limits: CheckoutLimits = defaultLimits) {
    const reason = skipReason();
    if (reason !== undefined) context.skip(reason);
    const store = await makeStore(limits);
    const server = await start.startCheckoutServer({ port: 0, host: '127.0.0.1', store, docsPage: false });
    servers.push(server);
    const { port } = server.address() as { port: number };
    const baseUrl = `http://127.0.0.1:${port}/`;
    const call = async (method: string, params: unknown) => (await post(baseUrl, request(method, params))).json as Answer;
    return { baseUrl, store, call };
  }

  describe('strings that are no text', () => {
    it('refuses a NUL in any string parameter with -32602 and its path, and logs nothing', async (context) => {
      const { call } = await serve(context);
      const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      const nul = 'victim\u0000';
      const problem = 'holds a NUL character (\\u0000) at index 6';
      const cases: [string, unknown, string][] = [
        ['CatalogService.getProduct', [nul], 'params[0]'],
        ['CartService.getCart', [nul], 'params[0]'],
        ['CartService.getCart', { cartId: nul }, 'params.cartId'],
        ['CartService.clearCart', [nul], 'params[0]'],
        ['OrderService.getOrder', { orderId: nul }, 'params.orderId'],
        ['CartService.addToCart', [{ cartId: nul, productId: 'mug', quantity: 1 }], 'params[0].cartId'],
        ['CartService.addToCart', { request: { productId: nul, quantity: 1 } }, 'params.request.productId'],
        ['OrderService.createOrder', [{ cartId: nul, shippingAddress: address, paymentMethod: 'paypal' }], 'params[0].cartId'],
      ];
      for (const [method, params, path] of cases) {
        expect((await call(method, params)).error, `${method} ${JSON.stringify(params)}`).toEqual({
          code: -32602,
          message: `Invalid params: ${path}: ${problem}`,
          data: { errors: [{ path, message: problem }] },
        });
      }
      expect(logged).not.toHaveBeenCalled();
    });

    it('answers a batch of 100 NUL calls with 100 -32602 errors and not one line of log', async (context) => {
      const { baseUrl } = await serve(context);
      const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      const batch = Array.from({ length: 100 }, (_, i) => request('CartService.getCart', [`victim${i}\u0000`], i));
      const { json } = await post(baseUrl, batch);
      expect(json).toHaveLength(100);
      for (const answer of json as Answer[]) expect(answer.error?.code).toBe(-32602);
      expect(logged).not.toHaveBeenCalled();
    });

    it('keeps victim\\ud800, victim\\udc00 and victim\\ufffd apart: lone surrogates are refused', async (context) => {
      const { call } = await serve(context);
      for (const [cartId, unit] of [
        ['victim\ud800', 'd800'],
        ['victim\udc00', 'dc00'],
      ]) {
        expect((await call('CartService.addToCart', [{ cartId, productId: 'mug', quantity: 1 }])).error).toMatchObject({
          code: -32602,
          message: `Invalid params: params[0].cartId: holds a lone surrogate (\\u${unit}) at index 6`,
        });
      }
      const added = await call('CartService.addToCart', [{ cartId: 'victim\ufffd', productId: 'mug', quantity: 1 }]);
      expect(added.result).toMatchObject({ cartId: 'victim\ufffd', items: [{ productId: 'mug', quantity: 1 }] });
      expect((await call('CartService.getCart', ['victim\ufffd'])).result).toMatchObject({ items: { length: 1 } });
    });

    it('refuses address fields holding NUL or lone surrogates, each with its path, and orders nothing', async (context) => {
      const { call } = await serve(context);
      const cart = (await call('CartService.addToCart', [{ productId: 'tote', quantity: 1 }])).result as { cartId: string };
      const shippingAddress = { ...address, street: '1 Market\u0000Street', city: 'San \udc00Francisco' };
      const { error } = await call('OrderService.createOrder', {
        request: { cartId: cart.cartId, shippingAddress, paymentMethod: 'paypal' },
      });
      expect(error?.code).toBe(-32602);
      expect(error?.data?.errors).toEqual([
        { path: 'params.request.shippingAddress.street', message: 'holds a NUL character (\\u0000) at index 8' },
        { path: 'params.request.shippingAddress.city', message: 'holds a lone surrogate (\\udc00) at index 4' },
      ]);
      expect((await call('CartService.getCart', [cart.cartId])).result).toMatchObject({ items: { length: 1 } });
      const stock = ((await call('CatalogService.getProduct', ['tote'])).result as { stock: number }).stock;
      expect(stock).toBe(catalog.find((product) => product.productId === 'tote')!.stock);
    });
  });

  describe('the budget of new carts per client', () => {
    const limits = { ...defaultLimits, maxNewCartsPerClient: 5 };

    it('counts carts created by notifications, then answers -32029 for new carts and still adds to existing ones', async (context) => {
      const { baseUrl, store, call } = await serve(context, limits);
      const first = (await call('CartService.addToCart', [{ productId: 'mug', quantity: 1 }])).result as { cartId: string };
      const flood = Array.from({ length: 20 }, () => notification('CartService.addToCart', [{ productId: 'filters', quantity: 1 }]));
      expect((await post(baseUrl, flood)).status).toBe(204);

      const refused = await call('CartService.addToCart', [{ productId: 'mug', quantity: 1 }]);
      expect(refused.error?.code).toBe(-32029);
      expect(refused.error?.message).toMatch(
        /^Too many new carts: this client created 5 carts within 3600 s; add to one of them, or try again in \d+ s$/,
      );
      expect(refused.error?.data?.retryAfterSeconds).toBeGreaterThan(3500);
      // A cart id of its own choosing is a new cart too.
      expect((await call('CartService.addToCart', [{ cartId: 'mine', productId: 'mug', quantity: 1 }])).error?.code).toBe(-32029);
      expect((await call('CartService.getCart', ['mine'])).result).toBeNull();
      // Its existing carts still take items.
      expect((await call('CartService.addToCart', [{ cartId: first.cartId, productId: 'mug', quantity: 1 }])).result).toMatchObject({
        items: { length: 2 },
      });
      // The OpenAPI binding says 429.
      const rest = await post(baseUrl, { request: { productId: 'mug', quantity: 1 } }, 'CartService/addToCart');
      expect(rest.status).toBe(429);
      expect(rest.json.code).toBe(-32029);
      // Five carts in all: counted by deleting them.
      expect(await store.expireCarts(farFuture)).toBe(5);
    });

    it('gives back what a call did not create: unknown products and full carts use none of it', async (context) => {
      const { call } = await serve(context, { ...limits, maxItemsPerCart: 1 });
      for (let i = 0; i < 10; i++) {
        expect((await call('CartService.addToCart', [{ productId: 'unicorn', quantity: 1 }])).error?.message).toBe('Product not found');
      }
      for (let i = 0; i < 5; i++)
        expect((await call('CartService.addToCart', [{ cartId: `c${i}`, productId: 'mug', quantity: 1 }])).result).toBeDefined();
      expect((await call('CartService.addToCart', [{ cartId: 'c0', productId: 'mug', quantity: 1 }])).error?.message).toMatch(
        /the cart is full/,
      );
      expect((await call('CartService.addToCart', [{ cartId: 'c5', productId: 'mug', quantity: 1 }])).error?.code).toBe(-32029);
    });
  });

  it('lets 110 batches of 100 addToCart notifications create no more than the default budget of carts', async (context) => {
    const { baseUrl, store, call } = await serve(context, { ...defaultLimits });
    const batch = Array.from({ length: 100 }, () => notification('CartService.addToCart', [{ productId: 'filters', quantity: 1 }]));
    for (let i = 0; i < 110; i++) expect((await post(baseUrl, batch)).status).toBe(204);
    expect((await call('CartService.addToCart', [{ productId: 'mug', quantity: 1 }])).error?.code).toBe(-32029);
    expect(await store.expireCarts(farFuture)).toBe(defaultLimits.maxNewCartsPerClient);
  }, 120_000);
});
