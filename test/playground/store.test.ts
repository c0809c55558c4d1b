/**
 * The store contract (playground/service/store.ts), the same tests for each store: in memory,
 * PGlite in memory, and PostgreSQL (a scratch database on TEST_DATABASE_URL; skipped with the
 * reason when there is none, failed in CI). One PGlite and one PostgreSQL database serve the whole
 * file: each test starts from emptied tables.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Product } from '../../playground/checkout.idl';
import { defaultLimits, type CheckoutLimits } from '../../playground/service/limits.js';
import { createMemoryStore } from '../../playground/service/memory-store.js';
import type { CheckoutState, CheckoutStore, OrderDraft } from '../../playground/service/store.js';
import { applyMigrations } from '../../playground/store/migrations.js';
import { openPgliteDatabase } from '../../playground/store/pglite-database.js';
import { openPostgresDatabase } from '../../playground/store/postgres-database.js';
import type { SqlDatabase, SqlExecutor } from '../../playground/store/sql-database.js';
import { createSqlStore } from '../../playground/store/sql-store.js';
import { postgresMissing, scratchDatabase, type ScratchDatabase } from '../postgres.js';

const products: Product[] = [
  { productId: 'dime', name: 'Dime', description: 'Ten cents', price: 0.1, stock: 1000 },
  { productId: 'mug', name: 'Mug', description: 'A mug', price: 16.5, stock: 3, imageUrl: '/images/mug.svg' },
  { productId: 'pot', name: 'Pot', description: 'The last one', price: 44, stock: 1 },
  { productId: 'five', name: 'Five', description: 'Five in stock', price: 2.5, stock: 5 },
];
const limits: CheckoutLimits = { ...defaultLimits, maxItemsPerCart: 60, maxCarts: 40, cartTtlSeconds: 100, emptyCartTtlSeconds: 20 };
const address = { street: '1 Market Street', city: 'San Francisco', state: 'CA', zipCode: '94105', country: 'US' };

/** Makes a fresh store (empty carts and orders, the products above) whose clock is `clock.now`. */
type StoreFactory = (clock: { now: number }) => Promise<CheckoutStore>;

const postgresReason = await postgresMissing();
let pglite: SqlDatabase | undefined;
let postgres: { scratch: ScratchDatabase; db: SqlDatabase } | undefined;

beforeAll(async () => {
  pglite = await openPgliteDatabase(':memory:');
  if (postgresReason === undefined) {
    const scratch = await scratchDatabase('store');
    postgres = { scratch, db: await openPostgresDatabase(scratch.url, 30) };
  }
});

afterAll(async () => {
  await pglite?.close();
  await postgres?.db.close();
  await postgres?.scratch.drop();
});

/** A store on a shared database: tables emptied, catalog reseeded; closing it leaves the database open. */
async function freshSqlStore(db: SqlDatabase, clock: { now: number }): Promise<CheckoutStore> {
  await applyMigrations(db);
  await db.exec('TRUNCATE products, carts, cart_items, orders, order_items; UPDATE cart_count SET carts = 0;');
  const shared: SqlDatabase = { ...db, close: async () => {} };
  // Without the fulfilment: a test's orders stay as placed (order-fulfilment.test.ts tests it).
  return createSqlStore(shared, { products, limits, now: () => clock.now, fulfilment: false });
}

const stores: [string, StoreFactory, () => string | undefined][] = [
  ['memory', async (clock) => createMemoryStore({ products, limits, now: () => clock.now, fulfilment: false }), () => undefined],
  ['PGlite', (clock) => freshSqlStore(pglite!, clock), () => undefined],
  ['PostgreSQL', (clock) => freshSqlStore(postgres!.db, clock), () => postgresReason],
];

const draft = (cartId: string, orderId = `order_${cartId}`): OrderDraft => ({
  orderId,
  cartId,
  shippingAddress: address,
  paymentMethod: 'paypal',
  createdAt: 1_700_000_000,
});

describe.each(stores)('the %s store', (_name, makeStore, skipReason) => {
  /** A fresh store for one test, or a skip with the reason. */
  async function storeFor(context: { skip(note: string): void }, clock = { now: 1000 }): Promise<CheckoutStore> {
    const reason = skipReason();
    if (reason !== undefined) context.skip(reason);
    return makeStore(clock);
  }

  it('lists the products in catalog order and finds one by id', async (context) => {
    const store = await storeFor(context);
    expect(await store.listProducts()).toEqual(products);
    expect(await store.getProduct('mug')).toEqual(products[1]);
    expect(await store.getProduct('nothing')).toBeUndefined();
  });

  it('addItem creates the cart, appends lines and keeps the subtotal in exact cents', async (context) => {
    const store = await storeFor(context);
    for (let i = 0; i < 3; i++) await store.addItem('c1', 'dime', 1);
    const outcome = await store.addItem('c1', 'mug', 2);
    expect(outcome).toEqual({
      kind: 'added',
      cart: {
        cartId: 'c1',
        items: [
          { productId: 'dime', quantity: 1, price: 0.1 },
          { productId: 'dime', quantity: 1, price: 0.1 },
          { productId: 'dime', quantity: 1, price: 0.1 },
          { productId: 'mug', quantity: 2, price: 16.5 },
        ],
        subtotal: 33.3,
      },
      created: false,
    });
    expect(await store.getCart('c1')).toEqual(outcome.kind === 'added' ? outcome.cart : undefined);
    // 1000 dimes: a float sum would give 99.9999999999986.
    const thousand = await store.addItem('c2', 'dime', 1000);
    expect(thousand.kind === 'added' && thousand.cart.subtotal).toBe(100);
  });

  it('addItem of an unknown product creates no cart', async (context) => {
    const store = await storeFor(context);
    expect(await store.addItem('c1', 'unicorn', 1)).toEqual({ kind: 'productNotFound' });
    expect(await store.getCart('c1')).toBeUndefined();
  });

  it('a full cart takes no more lines', async (context) => {
    const store = await storeFor(context);
    for (let i = 0; i < limits.maxItemsPerCart; i++) expect((await store.addItem('full', 'dime', 1)).kind).toBe('added');
    expect(await store.addItem('full', 'dime', 1)).toEqual({ kind: 'cartFull' });
    expect((await store.getCart('full'))!.items).toHaveLength(limits.maxItemsPerCart);
    // Emptied, it takes lines again.
    expect(await store.clearCart('full')).toBe(true);
    expect((await store.addItem('full', 'mug', 1)).kind).toBe('added');
  });

  it('keeps at most maxCarts carts; carts untouched for the TTL expire to make room', async (context) => {
    const clock = { now: 1000 };
    const store = await storeFor(context, clock);
    for (let i = 0; i < limits.maxCarts; i++) expect((await store.addItem(`cart-${i}`, 'dime', 1)).kind).toBe('added');
    expect(await store.addItem('one-too-many', 'dime', 1)).toEqual({ kind: 'tooManyCarts' });
    expect(await store.getCart('one-too-many')).toBeUndefined();
    // An existing cart still takes lines.
    clock.now += 60;
    expect((await store.addItem('cart-0', 'dime', 1)).kind).toBe('added');

    clock.now += limits.cartTtlSeconds - 30; // every cart but cart-0 is now older than the TTL
    expect((await store.addItem('newcomer', 'dime', 1)).kind).toBe('added');
    expect(await store.getCart('cart-1')).toBeUndefined();
    expect(await store.getCart('cart-0')).toBeDefined();
    expect(await store.expireCarts(clock.now + limits.cartTtlSeconds + 1)).toBe(2);
  });

  it('addItem says whether it created the cart; with create false it adds to existing carts only', async (context) => {
    const store = await storeFor(context);
    expect(await store.addItem('c1', 'dime', 1)).toMatchObject({ kind: 'added', created: true });
    expect(await store.addItem('c1', 'dime', 1)).toMatchObject({ kind: 'added', created: false });
    expect(await store.addItem('c1', 'mug', 1, false)).toMatchObject({ kind: 'added', created: false, cart: { items: { length: 3 } } });
    expect(await store.addItem('c2', 'dime', 1, false)).toEqual({ kind: 'cartNotFound' });
    expect(await store.getCart('c2')).toBeUndefined();
    // The refused cart took no room: the store still counts one cart.
    expect(await store.expireCarts(1_000_000)).toBe(1);
  });

  it('carts without items expire after emptyCartTtlSeconds, carts with items after cartTtlSeconds', async (context) => {
    const clock = { now: 1000 };
    const store = await storeFor(context, clock);
    await store.addItem('cleared', 'dime', 1);
    await store.clearCart('cleared');
    await store.addItem('ordered', 'dime', 1);
    await store.placeOrder(draft('ordered'), () => undefined);
    await store.addItem('full', 'dime', 1);
    clock.now += limits.emptyCartTtlSeconds - 1;
    expect(await store.expireCarts(clock.now)).toBe(0);
    clock.now += 2;
    expect(await store.expireCarts(clock.now)).toBe(2);
    expect(await store.getCart('cleared')).toBeUndefined();
    expect(await store.getCart('ordered')).toBeUndefined();
    expect(await store.getCart('full')).toBeDefined();
    expect(await store.expireCarts(1000 + limits.cartTtlSeconds + 1)).toBe(1);
  });

  it('makes room for a new cart by deleting the carts emptied longer ago than emptyCartTtlSeconds', async (context) => {
    const clock = { now: 1000 };
    const store = await storeFor(context, clock);
    for (let i = 0; i < limits.maxCarts; i++) await store.addItem(`cart-${i}`, 'dime', 1);
    await store.clearCart('cart-7');
    clock.now += limits.emptyCartTtlSeconds + 1;
    expect((await store.addItem('newcomer', 'dime', 1)).kind).toBe('added');
    expect(await store.getCart('cart-7')).toBeUndefined();
    expect(await store.addItem('one-too-many', 'dime', 1)).toEqual({ kind: 'tooManyCarts' });
  });

  it('clearCart empties a cart; false for an unknown one', async (context) => {
    const store = await storeFor(context);
    await store.addItem('c1', 'mug', 1);
    expect(await store.clearCart('c1')).toBe(true);
    expect(await store.getCart('c1')).toEqual({ cartId: 'c1', items: [], subtotal: 0 });
    expect(await store.clearCart('nobody')).toBe(false);
  });

  it('placeOrder takes the stock, stores the order and empties the cart, remembering the order', async (context) => {
    const store = await storeFor(context);
    await store.addItem('c1', 'mug', 2);
    const added = await store.addItem('c1', 'dime', 3);
    const cart = added.kind === 'added' ? added.cart : undefined;
    const seen: CheckoutState[] = [];

    const order = await store.placeOrder(draft('c1'), (state) => seen.push(state));

    expect(seen).toEqual([{ cart, lastOrderId: undefined, shortages: [] }]);
    const expected = {
      orderId: 'order_c1',
      cart,
      shippingAddress: address,
      paymentMethod: 'paypal',
      status: 'pending',
      total: 33.3,
      createdAt: 1_700_000_000,
    };
    expect(order).toEqual(expected);
    expect(await store.getOrder('order_c1')).toEqual(expected);
    expect(await store.getOrder('nothing')).toBeUndefined();
    expect((await store.getProduct('mug'))!.stock).toBe(1);
    expect((await store.getProduct('dime'))!.stock).toBe(997);
    expect(await store.getCart('c1')).toEqual({ cartId: 'c1', items: [], subtotal: 0 });

    // A retry finds the cart empty and learns the order its checkout created; the store itself
    // refuses to place an empty order even when the check lets it through.
    await expect(store.placeOrder(draft('c1', 'order_again'), (state) => seen.push(state))).rejects.toThrow(/empty cart "c1"/);
    expect(await store.getOrder('order_again')).toBeUndefined();
    expect(seen[1]).toEqual({ cart: { cartId: 'c1', items: [], subtotal: 0 }, lastOrderId: 'order_c1', shortages: [] });
  });

  it('placeOrder shows the shortages (summed over lines) and changes nothing when the check refuses', async (context) => {
    const store = await storeFor(context);
    await store.addItem('c1', 'mug', 2);
    await store.addItem('c1', 'mug', 2);
    await store.addItem('c1', 'pot', 1);
    const before = await store.getCart('c1');
    const refusal = new Error('refused');
    let state: CheckoutState | undefined;

    await expect(
      store.placeOrder(draft('c1'), (seen) => {
        state = seen;
        throw refusal;
      }),
    ).rejects.toBe(refusal);

    expect(state!.shortages).toEqual([{ productId: 'mug', name: 'Mug', requested: 4, available: 3 }]);
    expect(await store.getCart('c1')).toEqual(before);
    expect((await store.getProduct('mug'))!.stock).toBe(3);
    expect(await store.getOrder('order_c1')).toBeUndefined();
  });

  it('placeOrder shows a missing cart to the check', async (context) => {
    const store = await storeFor(context);
    let state: CheckoutState | undefined;
    await expect(
      store.placeOrder(draft('nobody'), (seen) => {
        state = seen;
        throw new Error('no cart');
      }),
    ).rejects.toThrow('no cart');
    expect(state).toEqual({ cart: undefined, lastOrderId: undefined, shortages: [] });
  });

  it('50 concurrent addItem calls on one cart leave 50 lines and the exact subtotal', async (context) => {
    const store = await storeFor(context);
    await Promise.all(Array.from({ length: 50 }, () => store.addItem('busy', 'dime', 1)));
    const cart = await store.getCart('busy');
    expect(cart!.items).toHaveLength(50);
    expect(cart!.subtotal).toBe(5);
  });

  it('20 concurrent orders for a product with stock 5 give exactly 5 orders and stock 0', async (context) => {
    const store = await storeFor(context);
    const cartIds = Array.from({ length: 20 }, (_, i) => `buyer-${i}`);
    for (const cartId of cartIds) await store.addItem(cartId, 'five', 1);
    const refuseShortages = (state: CheckoutState) => {
      if (state.shortages.length > 0) throw new Error('OutOfStock');
    };
    const outcomes = await Promise.allSettled(cartIds.map((cartId) => store.placeOrder(draft(cartId), refuseShortages)));

    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(5);
    for (const outcome of outcomes) if (outcome.status === 'rejected') expect(String(outcome.reason)).toMatch(/OutOfStock/);
    expect((await store.getProduct('five'))!.stock).toBe(0);
  });
});

describe('the SQL store', () => {
  it('runs the same statements for the first and the 50th line of a cart', async () => {
    await freshSqlStore(pglite!, { now: 1000 });
    const statements: string[] = [];
    const counting = (executor: SqlExecutor): SqlExecutor => ({
      query: (text, params) => {
        statements.push(text);
        return executor.query(text, params);
      },
      exec: (script) => executor.exec(script),
    });
    const db: SqlDatabase = {
      ...pglite!,
      ...counting(pglite!),
      transaction: (work) => pglite!.transaction((tx) => work(counting(tx))),
      close: async () => {},
    };
    const store = await createSqlStore(db, { products, limits, now: () => 1000 });

    const statementsOf = async (line: number) => {
      statements.length = 0;
      const outcome = await store.addItem('long', 'dime', 1);
      expect(outcome.kind === 'added' && outcome.cart.items.length).toBe(line);
      return [...statements];
    };
    const first = await statementsOf(1);
    for (let line = 2; line < 50; line++) await store.addItem('long', 'dime', 1);
    const fiftieth = await statementsOf(50);
    expect(first).toHaveLength(5);
    expect(fiftieth).toHaveLength(4);
    expect(fiftieth).toEqual(first.filter((text) => !text.includes('cart_count'))); // only a new cart takes room from the count
  });
});

describe('migrations', () => {
  it('are applied once: a second run applies nothing', async () => {
    const db = await openPgliteDatabase(':memory:');
    try {
      expect(await applyMigrations(db)).toEqual([1, 2]);
      expect(await applyMigrations(db)).toEqual([]);
      const versions = await db.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
      expect(versions).toEqual([{ version: 1 }, { version: 2 }]);
    } finally {
      await db.close();
    }
  });
});
