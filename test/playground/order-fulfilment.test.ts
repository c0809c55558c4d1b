/**
 * The simulated fulfilment and the order change feed of each store (in memory, PGlite in memory,
 * PostgreSQL on TEST_DATABASE_URL: skipped with the reason without one, failed in CI), and the
 * order updates a watcher gets (playground/service/order-updates.ts): every order moves pending ->
 * paid -> shipped -> delivered, each step once however many stores follow it, a restarted store
 * resumes it, and a watcher on one store hears of the changes another store makes on the same
 * database (as a worker process does of another's). Steps are 20 ms apart here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order, Product } from '../../playground/checkout.idl';
import { createMemoryStore } from '../../playground/service/memory-store.js';
import type { OrderChange } from '../../playground/service/order-changes.js';
import { type OrderUpdate, orderUpdates } from '../../playground/service/order-updates.js';
import type { CheckoutStore } from '../../playground/service/store.js';
import { listenerCountingStore } from './listener-counting-store.js';
import { openPgliteDatabase } from '../../playground/store/pglite-database.js';
import { openPostgresDatabase } from '../../playground/store/postgres-database.js';
import type { SqlDatabase } from '../../playground/store/sql-database.js';
import { orderChangesChannel } from '../../playground/store/sql-order-progress.js';
import { createSqlStore, type SqlStoreOptions } from '../../playground/store/sql-store.js';
import { postgresMissing, scratchDatabase, type ScratchDatabase } from '../postgres.js';

const products: Product[] = [{ productId: 'mug', name: 'Mug', description: 'A mug', price: 16.5, stock: 100_000 }];
const address = { street: '1 Market Street', city: 'San Francisco', state: 'CA', zipCode: '94105', country: 'US' };
const stepMs = 20;

class OrderNotFound extends Error {}
const notFound = (orderId: string) => new OrderNotFound(`order "${orderId}" does not exist`);

const postgresReason = await postgresMissing();
let pglite: SqlDatabase | undefined;
let postgres: { scratch: ScratchDatabase; url: string; db: SqlDatabase } | undefined;
/** Everything a test opened, closed after it. */
const opened: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  pglite = await openPgliteDatabase(':memory:');
  if (postgresReason === undefined) {
    const scratch = await scratchDatabase('fulfilment');
    postgres = { scratch, url: scratch.url, db: await openPostgresDatabase(scratch.url) };
  }
});

afterAll(async () => {
  for (const item of opened.reverse()) await item.close();
  await pglite?.close();
  await postgres?.db.close();
  await postgres?.scratch.drop();
});

/** The database seen as a store of its own (closing the store leaves it open), as another process would have it. */
const sharing = (db: SqlDatabase): SqlDatabase => ({ ...db, close: async () => {} });

/** Opens a store (closed after the file) with the test's step. */
async function sqlStore(db: SqlDatabase, options: SqlStoreOptions = {}): Promise<CheckoutStore> {
  const store = await createSqlStore(sharing(db), { products, fulfilment: { stepMs }, ...options });
  opened.push(store);
  return store;
}

let orderNumber = 0;
/** A new order id, unique in the file and across runs on one database. */
const newOrderId = () => `order_${Date.now().toString(36)}_${++orderNumber}`;

/** Places an order of one mug in a new cart; returns its id. */
async function placeOrder(store: CheckoutStore, orderId = newOrderId()): Promise<string> {
  const cartId = `cart_${orderId}`;
  await store.addItem(cartId, 'mug', 1);
  const order = await store.placeOrder(
    { orderId, cartId, shippingAddress: address, paymentMethod: 'paypal', createdAt: 1_700_000_000 },
    () => {},
  );
  return order.orderId;
}

/** The changes `store` hears of for `orderId`, from before `start` until delivered (or the deadline). */
async function changesUntilDelivered(store: CheckoutStore, orderId: string, start: () => Promise<unknown>) {
  const heard: OrderChange[] = [];
  let delivered!: () => void;
  const done = new Promise<void>((resolve) => {
    delivered = resolve;
  });
  const stop = await store.onOrderChange((change) => {
    if (change?.orderId !== orderId) return;
    heard.push(change);
    if (change.status === 'delivered') delivered();
  });
  try {
    await start();
    await withDeadline(done, 'the order to be delivered');
    // Whatever else comes (a second process taking a step again) would come now.
    await new Promise((resolve) => setTimeout(resolve, stepMs * 5));
    return heard.map((change) => change.status);
  } finally {
    stop();
  }
}

/** Every update of a watcher, to its end. */
async function allUpdates(updates: AsyncIterable<OrderUpdate>): Promise<[string, Order['status']][]> {
  const seen: [string, Order['status']][] = [];
  await withDeadline(
    (async () => {
      for await (const update of updates) seen.push([update.eventId, update.order.status]);
    })(),
    'the updates to end',
  );
  return seen;
}

/** Fails after 10 s instead of hanging (a bound for a broken feed, not a measure). */
function withDeadline<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), 10_000);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

const ids: Record<Order['status'], string> = { pending: '1', paid: '2', shipped: '3', delivered: '4', cancelled: '5' };

/**
 * Updates as a watcher must get them: each state once, in order, its id the status's ordinal,
 * ending with delivered. (A state that came and went while the watcher read the order is not
 * sent: the next read shows the state it led to, so that no state is asserted but the last.)
 */
function expectProgress(updates: [string, Order['status']][]): void {
  expect(updates.at(-1)).toEqual(['4', 'delivered']);
  for (const [id, status] of updates) expect(id).toBe(ids[status]);
  const numbers = updates.map(([id]) => Number(id));
  expect(numbers).toEqual([...new Set(numbers)].sort());
}

type Kind = 'memory' | 'PGlite' | 'PostgreSQL';
const kinds: [Kind, () => string | undefined][] = [
  ['memory', () => undefined],
  ['PGlite', () => undefined],
  ['PostgreSQL', () => postgresReason],
];

describe.each(kinds)('the %s store', (kind, skipReason) => {
  async function storeFor(context: { skip(note: string): void }, options: { fulfilment?: false } = {}): Promise<CheckoutStore> {
    const reason = skipReason();
    if (reason !== undefined) context.skip(reason);
    if (kind === 'memory') return createMemoryStore({ products, fulfilment: { stepMs }, ...options });
    return sqlStore(kind === 'PGlite' ? pglite! : postgres!.db, options);
  }

  it('moves a new order pending -> paid -> shipped -> delivered, telling each change once', async (context) => {
    const store = await storeFor(context);
    const orderId = newOrderId();
    expect(await changesUntilDelivered(store, orderId, () => placeOrder(store, orderId))).toEqual(['paid', 'shipped', 'delivered']);
    expect((await store.getOrder(orderId))!.status).toBe('delivered');
  });

  it('without the fulfilment an order stays pending', async (context) => {
    const store = await storeFor(context, { fulfilment: false });
    const orderId = await placeOrder(store);
    await new Promise((resolve) => setTimeout(resolve, stepMs * 5));
    expect((await store.getOrder(orderId))!.status).toBe('pending');
  });

  it("a watcher gets the current state, then each change, with the status's ordinal as event id, then the end", async (context) => {
    const store = await storeFor(context);
    const orderId = await placeOrder(store);
    const updates = await allUpdates(orderUpdates(store, orderId, { notFound }));
    expectProgress(updates);
  });

  it('a watcher of a delivered order gets it and ends; resumed with its last id, it gets nothing', async (context) => {
    const store = await storeFor(context);
    const orderId = await placeOrder(store);
    await allUpdates(orderUpdates(store, orderId, { notFound }));
    expect(await allUpdates(orderUpdates(store, orderId, { notFound }))).toEqual([['4', 'delivered']]);
    expect(await allUpdates(orderUpdates(store, orderId, { notFound, lastEventId: '4' }))).toEqual([]);
    // Resumed from "2" (paid): the current state, which it has not seen.
    expect(await allUpdates(orderUpdates(store, orderId, { notFound, lastEventId: '2' }))).toEqual([['4', 'delivered']]);
  });

  it('an id the service did not issue for the order counts as none: the watcher gets the current state', async (context) => {
    const store = await storeFor(context, { fulfilment: false });
    const orderId = await placeOrder(store);
    for (const lastEventId of ['abc', '2', '99', '01', '1.0', '-1', '', ' 1']) {
      const watcher = orderUpdates(store, orderId, { notFound, lastEventId });
      const first = await watcher.next();
      expect([lastEventId, first.value]).toEqual([lastEventId, { eventId: '1', order: expect.objectContaining({ status: 'pending' }) }]);
      await watcher.return();
    }
    // "1" is the pending state it issued: a watcher that saw it waits for the next change.
    const resumed = orderUpdates(store, orderId, { notFound, lastEventId: '1', signal: AbortSignal.timeout(stepMs * 5) });
    expect(await resumed.next()).toEqual({ done: true, value: undefined });
  });

  it('an unknown order throws the notFound error and leaves no listener', async (context) => {
    const store = listenerCountingStore(await storeFor(context));
    await expect(orderUpdates(store, 'order_nothing', { notFound }).next()).rejects.toBeInstanceOf(OrderNotFound);
    expect(store.listening()).toBe(0);
  });

  it('aborting ends a waiting watcher and removes its listener', async (context) => {
    const store = listenerCountingStore(await storeFor(context, { fulfilment: false }));
    const orderId = await placeOrder(store);
    const abort = new AbortController();
    const watcher = orderUpdates(store, orderId, { notFound, signal: abort.signal });
    expect((await watcher.next()).value?.eventId).toBe('1');
    const waiting = watcher.next();
    await new Promise((resolve) => setTimeout(resolve, stepMs));
    expect(store.listening()).toBe(1);
    abort.abort();
    expect(await withDeadline(waiting, 'the watcher to end')).toEqual({ done: true, value: undefined });
    expect(store.listening()).toBe(0);
  });

  it('breaking out of the loop removes the listener', async (context) => {
    // No fulfilment: on a busy machine the order could otherwise move on before the first item.
    const store = listenerCountingStore(await storeFor(context, { fulfilment: false }));
    const orderId = await placeOrder(store);
    for await (const update of orderUpdates(store, orderId, { notFound })) {
      expect(update.eventId).toBe('1');
      // Subscribed before the current state is sent, so that no change in between is missed.
      expect(store.listening()).toBe(1);
      break;
    }
    expect(store.listening()).toBe(0);
  });
});

/** The SQL stores: two stores on one database stand for two processes on one PostgreSQL. */
describe.each(kinds.slice(1))('%s: several stores on one database', (kind, skipReason) => {
  function databaseFor(context: { skip(note: string): void }): SqlDatabase {
    const reason = skipReason();
    if (reason !== undefined) context.skip(reason);
    return kind === 'PGlite' ? pglite! : postgres!.db;
  }

  it('a watcher on one store sees the changes the fulfilment of another makes', async (context) => {
    const db = databaseFor(context);
    const watching = await sqlStore(db, { fulfilment: false });
    const orderId = await placeOrder(watching);
    const watcher = orderUpdates(watching, orderId, { notFound });
    expect((await watcher.next()).value).toMatchObject({ eventId: '1', order: { orderId, status: 'pending' } });
    // Another store, as another process, moves the order on; the watcher's store takes no step itself.
    await sqlStore(db);
    const updates = await allUpdates(watcher);
    expectProgress([['1', 'pending'], ...updates]);
    expect(updates.length).toBeGreaterThan(0);
  });

  it('each step happens once when several stores follow one order', async (context) => {
    const db = databaseFor(context);
    const first = await sqlStore(db);
    const orderId = newOrderId();
    const changes = await changesUntilDelivered(first, orderId, async () => {
      await placeOrder(first, orderId);
      // Two more stores start while the order is on its way: each resumes it, as a restarted worker does.
      await Promise.all([sqlStore(db), sqlStore(db)]);
    });
    expect(changes).toEqual(['paid', 'shipped', 'delivered']);
  });

  it('a store opened after a stop resumes the unfinished orders', async (context) => {
    const db = databaseFor(context);
    const stopped = await sqlStore(db, { fulfilment: { stepMs: 60_000 } });
    const orderId = await placeOrder(stopped);
    await stopped.close();
    expect((await stopped.getOrder(orderId))?.status).toBe('pending');
    // The next start: its steps fall due from the order's last change as the database has it.
    const restarted = await sqlStore(db, { fulfilment: { stepMs: 0 } });
    const updates = await allUpdates(orderUpdates(restarted, orderId, { notFound }));
    expect(updates.at(-1)).toEqual(['4', 'delivered']);
  });
});

describe('PostgreSQL: the listening connection', () => {
  it('lost, it connects again, says changes may have been missed, and hears the next ones', async (context) => {
    if (postgresReason !== undefined) return context.skip(postgresReason);
    const listeners = async () =>
      (
        await postgres!.db.query<{ pid: number }>(
          `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN %'`,
        )
      ).map((row) => row.pid);
    const others = await listeners();
    const db = await openPostgresDatabase(postgres!.url, 2);
    opened.push(db);
    const heard: (string | undefined)[] = [];
    await db.listen(orderChangesChannel, (payload) => heard.push(payload));
    const own = (await listeners()).filter((pid) => !others.includes(pid));
    expect(own).toHaveLength(1);
    await postgres!.db.query('SELECT pg_terminate_backend($1)', [own[0]]);
    await withDeadline(
      (async () => {
        while (!heard.includes(undefined)) await new Promise((resolve) => setTimeout(resolve, 50));
      })(),
      'the listener to come back',
    );
    const after = JSON.stringify({ orderId: 'order_after', status: 'paid' });
    await postgres!.db.query('SELECT pg_notify($1, $2)', [orderChangesChannel, after]);
    await withDeadline(
      (async () => {
        while (!heard.includes(after)) await new Promise((resolve) => setTimeout(resolve, 20));
      })(),
      'the next notification',
    );
    expect(heard).toEqual([undefined, after]);
  });
});
