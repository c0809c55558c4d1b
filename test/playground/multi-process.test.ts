/**
 * Several server processes on one PostgreSQL (TEST_DATABASE_URL; skipped with the reason without
 * one, failed in CI): `WORKERS=2` (node:cluster, two processes on one port) beside a third,
 * separate process, with calls spread over both ports as a load balancer would. Also: WORKERS above
 * 1 without PostgreSQL is refused with a clear message.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgresDatabase } from '../../playground/store/postgres-database.js';
import { postgresMissing, scratchDatabase, type ScratchDatabase } from '../postgres.js';
import { buildServer, rpc, startServer, type ServerProcess } from './server-process.js';

const address = { street: '1 Market Street', city: 'San Francisco', state: 'CA', zipCode: '94105', country: 'US' };
const postgresReason = await postgresMissing();
let server: { mainJs: string; remove(): Promise<void> };
let scratch: ScratchDatabase | undefined;
const processes: ServerProcess[] = [];
let urls: string[] = [];

beforeAll(async () => {
  server = await buildServer();
  if (postgresReason !== undefined) return;
  scratch = await scratchDatabase('multi');
  // Started together: both run the migrations at once, and take turns (an advisory lock).
  processes.push(
    ...(await Promise.all([
      startServer(server.mainJs, { DATABASE_URL: scratch.url, WORKERS: '2' }),
      startServer(server.mainJs, { DATABASE_URL: scratch.url }),
    ])),
  );
  urls = processes.map((process) => process.url);
}, 120_000);

afterAll(async () => {
  await Promise.all(processes.map((process) => process.stop()));
  await scratch?.drop();
  await server?.remove();
});

/** The url for the i-th call: round robin over the servers. */
const spread = (index: number) => urls[index % urls.length];

describe('several processes on one PostgreSQL', () => {
  it('WORKERS=2 starts two worker processes under one primary, answering on its port', async (context) => {
    if (postgresReason !== undefined) return context.skip(postgresReason);
    const workers = spawnSync('pgrep', ['-P', String(processes[0].child.pid)], { encoding: 'utf8' })
      .stdout.trim()
      .split('\n');
    expect(workers.filter(Boolean)).toHaveLength(2);
    const products = await rpc<unknown[]>(processes[0].url, 'CatalogService.listProducts');
    expect(products.result).toHaveLength(12);
  });

  it('50 concurrent addToCart calls to one cart, spread over the processes, leave 50 items', async (context) => {
    if (postgresReason !== undefined) return context.skip(postgresReason);
    const cartId = 'shared-cart';
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => rpc(spread(i), 'CartService.addToCart', { cartId, productId: 'filters', quantity: 1 })),
    );
    expect(answers.filter((answer) => answer.error)).toEqual([]);
    const cart = await rpc<{ items: unknown[]; subtotal: number }>(urls[1], 'CartService.getCart', cartId);
    expect(cart.result!.items).toHaveLength(50);
    expect(cart.result!.subtotal).toBe(312.5);
  });

  it('20 concurrent createOrder calls for a product with stock 5 give exactly 5 orders and stock 0', async (context) => {
    if (postgresReason !== undefined) return context.skip(postgresReason);
    const db = await openPostgresDatabase(scratch!.url);
    try {
      await db.query("UPDATE products SET stock = 5 WHERE product_id = 'scale'");
    } finally {
      await db.close();
    }
    const cartIds = Array.from({ length: 20 }, (_, i) => `buyer-${i}`);
    for (const [i, cartId] of cartIds.entries()) await rpc(spread(i), 'CartService.addToCart', { cartId, productId: 'scale', quantity: 1 });

    const answers = await Promise.all(
      cartIds.map((cartId, i) =>
        rpc(spread(i + 1), 'OrderService.createOrder', { cartId, shippingAddress: address, paymentMethod: 'paypal' }),
      ),
    );

    expect(answers.filter((answer) => answer.result)).toHaveLength(5);
    const refusals = answers.filter((answer) => answer.error).map((answer) => answer.error!.code);
    expect(refusals).toEqual(Array(15).fill(1004)); // OutOfStock
    const product = await rpc<{ stock: number }>(urls[0], 'CatalogService.getProduct', 'scale');
    expect(product.result!.stock).toBe(0);
  });
});

it('WORKERS above 1 without DATABASE_URL is refused with a clear message', () => {
  const result = spawnSync(process.execPath, [server.mainJs], {
    env: { ...process.env, WORKERS: '2', DATABASE_URL: '', PLAYGROUND_DATA_DIR: ':memory:' },
    encoding: 'utf8',
    timeout: 30_000,
  });
  expect(result.status).toBe(1);
  expect(result.stderr).toContain('WORKERS=2 needs a PostgreSQL server: the embedded PGlite database lives in one process.');
});
