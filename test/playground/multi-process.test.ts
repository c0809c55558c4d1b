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
import { buildServer, rpc, startServer, streamCall, type ServerProcess, type StreamMessage } from './server-process.js';

const address = { street: '1 Market Street', city: 'San Francisco', state: 'CA', zipCode: '94105', country: 'US' };
/** The fulfilment's step here: an order is delivered 1.2 s after it is placed. */
const stepMs = 400;
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
      startServer(server.mainJs, { DATABASE_URL: scratch.url, WORKERS: '2', PLAYGROUND_FULFILMENT_STEP_MS: String(stepMs) }),
      startServer(server.mainJs, { DATABASE_URL: scratch.url, PLAYGROUND_FULFILMENT_STEP_MS: String(stepMs) }),
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

  /** Places an order of one tote on the process at `url`; returns its id. */
  async function placeOrder(url: string): Promise<string> {
    const cart = await rpc<{ cartId: string }>(url, 'CartService.addToCart', { productId: 'tote', quantity: 1 });
    const order = await rpc<{ orderId: string }>(url, 'OrderService.createOrder', {
      cartId: cart.result!.cartId,
      shippingAddress: address,
      paymentMethod: 'paypal',
    });
    return order.result!.orderId;
  }

  /** The items' [event id, status] of a watchOrder answer, and whether it ended with its final response. */
  const itemsOf = (messages: StreamMessage[]) => ({
    items: messages
      .filter((message) => message.method === 'rpc.stream.item')
      .map((m) => [m.eventId, (m.params!.item as { status: string }).status]),
    ended: 'result' in (messages.at(-1) ?? {}) && messages.at(-1)!.result === null,
  });

  it('a watcher served by one process sees each change the fulfilment makes in another, to delivered', async (context) => {
    if (postgresReason !== undefined) return context.skip(postgresReason);
    // Placed on the lone process, which follows the order; the workers started before it and only hear of it.
    const orderId = await placeOrder(urls[1]);
    const { items, ended } = itemsOf(await streamCall(urls[0], 'OrderService.watchOrder', [orderId]));
    expect(ended).toBe(true);
    expect(items.at(-1)).toEqual(['4', 'delivered']);
    expect(items.length).toBeGreaterThan(1);
    expect(items.map(([id]) => id)).toEqual([...new Set(items.map(([id]) => id))].sort());
  });

  it('a stream resumed on another process with Last-Event-ID goes on where it stopped', async (context) => {
    if (postgresReason !== undefined) return context.skip(postgresReason);
    const orderId = await placeOrder(urls[1]);
    const first = itemsOf(await streamCall(urls[1], 'OrderService.watchOrder', [orderId], { stop: (messages) => messages.length === 1 }));
    expect(first.items).toHaveLength(1);
    const [lastEventId] = first.items[0];
    expect(lastEventId).toMatch(/^[123]$/);
    const rest = itemsOf(await streamCall(urls[0], 'OrderService.watchOrder', [orderId], { lastEventId }));
    expect(rest.ended).toBe(true);
    expect(rest.items.at(-1)).toEqual(['4', 'delivered']);
    // Every item once, in order, across the two processes.
    const ids = [lastEventId, ...rest.items.map(([id]) => id)];
    expect(ids).toEqual([...new Set(ids)].sort());
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
