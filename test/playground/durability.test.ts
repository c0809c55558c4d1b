/**
 * Acknowledged orders survive SIGKILL: the built server under a load of orders is killed with
 * SIGKILL, started again on the same data, and every order it had acknowledged is there, with the
 * stock of every product matching the orders taken from it. Once on PGlite in a data folder (the
 * stale lock and postmaster.pid of the killed process are taken over), once on PostgreSQL
 * (TEST_DATABASE_URL; skipped with the reason without one, failed in CI).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalog } from '../../playground/service/catalog.js';
import { openPgliteDatabase } from '../../playground/store/pglite-database.js';
import { openPostgresDatabase } from '../../playground/store/postgres-database.js';
import type { SqlDatabase } from '../../playground/store/sql-database.js';
import { postgresMissing, scratchDatabase } from '../postgres.js';
import { buildServer, rpc, startServer, type ServerProcess } from './server-process.js';

const address = { street: '1 Market Street', city: 'San Francisco', state: 'CA', zipCode: '94105', country: 'US' };
const postgresReason = await postgresMissing();
let server: { mainJs: string; remove(): Promise<void> };
const running: ServerProcess[] = [];

beforeAll(async () => {
  server = await buildServer();
});

afterAll(async () => {
  await Promise.all(running.map((process) => process.kill()));
  await server?.remove();
});

/**
 * Clients that each, until told to stop, add a product to a new cart and order it; returns the ids
 * of the orders the server acknowledged. Failures (OutOfStock once a product runs out, refused
 * connections once the server is gone) are not acknowledgements and are ignored.
 */
function orderLoad(url: string, clients: number) {
  const acknowledged: string[] = [];
  let stopped = false;
  const productIds = catalog.filter((product) => product.stock >= 20).map((product) => product.productId);
  const client = async (index: number) => {
    for (let round = 0; !stopped; round++) {
      try {
        const productId = productIds[(index + round) % productIds.length];
        const cart = await rpc<{ cartId: string }>(url, 'CartService.addToCart', { productId, quantity: 1 + (round % 3) });
        if (!cart.result) continue;
        const order = await rpc<{ orderId: string }>(url, 'OrderService.createOrder', {
          cartId: cart.result.cartId,
          shippingAddress: address,
          paymentMethod: 'credit_card',
        });
        if (order.result) acknowledged.push(order.result.orderId);
      } catch {
        if (stopped) return;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    }
  };
  const done = Promise.all(Array.from({ length: clients }, (_, index) => client(index)));
  return {
    acknowledged,
    stop: async () => {
      stopped = true;
      await done;
    },
  };
}

/** Every product's stock plus what the orders took from it equals its starting stock. */
async function expectStockMatchesOrders(db: SqlDatabase): Promise<void> {
  const rows = await db.query<{ product_id: string; stock: number; ordered: string | number }>(
    `SELECT p.product_id, p.stock, coalesce(sum(i.quantity), 0) AS ordered
     FROM products p LEFT JOIN order_items i ON i.product_id = p.product_id GROUP BY p.product_id, p.stock`,
  );
  const seen = Object.fromEntries(rows.map((row) => [row.product_id, row.stock + Number(row.ordered)]));
  expect(seen).toEqual(Object.fromEntries(catalog.map((product) => [product.productId, product.stock])));
}

/** Loads the server at `env`, kills it with SIGKILL mid-load, restarts it and checks every acknowledged order. */
async function killDuringLoadAndRestart(storeEnv: Record<string, string>): Promise<string[]> {
  // The load creates a cart per order, all from one address: past the budget of new carts per client.
  const env = { ...storeEnv, PLAYGROUND_MAX_NEW_CARTS_PER_CLIENT: '1000000' };
  const first = await startServer(server.mainJs, env);
  running.push(first);
  const load = orderLoad(first.url, 6);
  // Let the load reach full speed, then kill while writes are in flight.
  const deadline = Date.now() + 15_000;
  while (load.acknowledged.length < 30 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  await first.kill();
  await load.stop();
  const acknowledged = [...load.acknowledged];
  expect(acknowledged.length).toBeGreaterThanOrEqual(30);

  const second = await startServer(server.mainJs, env);
  running.push(second);
  const missing: string[] = [];
  for (const orderId of acknowledged) {
    // Its status may have moved on since (the simulated fulfilment): that it is there is what counts.
    const order = await rpc<{ orderId: string } | null>(second.url, 'OrderService.getOrder', orderId);
    if (order.result?.orderId !== orderId) missing.push(orderId);
  }
  expect(missing).toEqual([]);
  // The restarted server takes orders again.
  const cart = await rpc<{ cartId: string }>(second.url, 'CartService.addToCart', { productId: 'tote', quantity: 1 });
  const order = await rpc(second.url, 'OrderService.createOrder', {
    cartId: cart.result!.cartId,
    shippingAddress: address,
    paymentMethod: 'paypal',
  });
  expect(order.error).toBeUndefined();
  await second.stop();
  return acknowledged;
}

describe('acknowledged orders survive SIGKILL', () => {
  it('on PGlite in a data folder', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'playground-durability-'));
    try {
      await killDuringLoadAndRestart({ PLAYGROUND_DATA_DIR: dataDir });
      const db = await openPgliteDatabase(dataDir);
      try {
        await expectStockMatchesOrders(db);
      } finally {
        await db.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it('on PostgreSQL', async (context) => {
    if (postgresReason !== undefined) return context.skip(postgresReason);
    const scratch = await scratchDatabase('durability');
    try {
      await killDuringLoadAndRestart({ DATABASE_URL: scratch.url });
      const db = await openPostgresDatabase(scratch.url);
      try {
        await expectStockMatchesOrders(db);
      } finally {
        await db.close();
      }
    } finally {
      await scratch.drop();
    }
  }, 120_000);
});
