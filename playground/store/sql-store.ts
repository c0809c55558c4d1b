import type { Cart, CartItem, Order, PaymentMethod, Product } from '../checkout.idl';
import { catalog } from '../service/catalog.js';
import { type CheckoutLimits, defaultLimits } from '../service/limits.js';
import { Fulfilment } from '../service/fulfilment.js';
import { fromCents, toCents } from '../service/money.js';
import { defaultFulfilment, type FulfilmentOptions } from '../service/order-lifecycle.js';
import type { AddItemOutcome, CheckoutStore, Shortage } from '../service/store.js';
import { applyMigrations } from './migrations.js';
import type { SqlDatabase, SqlExecutor } from './sql-database.js';
import { SqlOrderChanges, sqlFulfilmentSteps } from './sql-order-progress.js';

export interface SqlStoreOptions {
  /** Products inserted when missing (a product already there, with its stock, is left as it is); the playground catalog by default. */
  products?: readonly Product[];
  limits?: CheckoutLimits;
  /** Unix seconds now; `Date.now()` by default (tests move it to expire carts). */
  now?: () => number;
  /**
   * The simulated fulfilment's timing (order-lifecycle.ts), or false for orders that stay pending.
   * With it, the store follows the orders it places and, from the start, every unfinished one.
   */
  fulfilment?: FulfilmentOptions | false;
}

/** Row shapes; `bigint` columns arrive as strings from `pg` and as numbers from PGlite, so they go through Number(). */
type Amount = number | string;
interface ProductRow {
  product_id: string;
  name: string;
  description: string;
  price_cents: Amount;
  stock: number;
  image_url: string | null;
}
interface ItemRow {
  product_id: string | null;
  quantity: number | null;
  price_cents: Amount | null;
}

/** Thrown inside a transaction to roll it back and answer with an outcome instead. */
class Refusal {
  constructor(readonly outcome: AddItemOutcome) {}
}

/**
 * The checkout store on PostgreSQL: PGlite in-process or a PostgreSQL server, the same schema
 * (migrations.ts) and the same queries. Applies the migrations and seeds the catalog, then answers.
 *
 * Every change is one transaction. `addItem` runs the same four statements whatever the size of the
 * cart (product price, upsert of the cart row with its count and subtotal, insert of the line,
 * read of the cart to return it). `placeOrder` locks the cart row, then the product rows in id
 * order (so two checkouts never wait on each other in a circle), checks, and takes the stock,
 * stores the order and empties the cart before it commits; `stock >= 0` is also a constraint.
 */
export async function createSqlStore(db: SqlDatabase, options: SqlStoreOptions = {}): Promise<CheckoutStore> {
  const limits = options.limits ?? defaultLimits;
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  await applyMigrations(db);
  await seedProducts(db, options.products ?? catalog);
  const fulfilmentOptions = options.fulfilment ?? defaultFulfilment;
  const fulfilment = fulfilmentOptions === false ? undefined : new Fulfilment(sqlFulfilmentSteps(db), fulfilmentOptions);
  await fulfilment?.resume();
  const changes = new SqlOrderChanges(db);

  async function refusable(work: (tx: SqlExecutor) => Promise<AddItemOutcome>): Promise<AddItemOutcome> {
    try {
      return await db.transaction(work);
    } catch (error) {
      if (error instanceof Refusal) return error.outcome;
      throw error;
    }
  }

  /** Deletes the abandoned carts (the TTL, or the shorter one of empty carts), with their lines, and counts them off. */
  async function expire(tx: SqlExecutor, at: number): Promise<number> {
    const [row] = await tx.query<{ expired: number }>(
      `WITH gone AS (DELETE FROM carts WHERE updated_at < $1 OR (item_count = 0 AND updated_at < $2) RETURNING cart_id),
            counted AS (SELECT count(*)::integer AS expired FROM gone)
       UPDATE cart_count SET carts = carts - counted.expired FROM counted RETURNING counted.expired`,
      [at - limits.cartTtlSeconds, at - limits.emptyCartTtlSeconds],
    );
    return Number(row?.expired ?? 0);
  }

  /** Takes room for one more cart from the count; false when `maxCarts` carts exist. */
  async function takeCartRoom(tx: SqlExecutor): Promise<boolean> {
    const taken = await tx.query('UPDATE cart_count SET carts = carts + 1 WHERE carts < $1 RETURNING carts', [limits.maxCarts]);
    return taken.length > 0;
  }

  return {
    limits,

    async listProducts() {
      const rows = await db.query<ProductRow>('SELECT * FROM products ORDER BY ordinal, product_id');
      return rows.map(productOf);
    },

    async getProduct(productId) {
      const [row] = await db.query<ProductRow>('SELECT * FROM products WHERE product_id = $1', [productId]);
      return row && productOf(row);
    },

    addItem(cartId, productId, quantity, create = true) {
      return refusable(async (tx) => {
        const [product] = await tx.query<{ price_cents: Amount }>('SELECT price_cents FROM products WHERE product_id = $1', [productId]);
        if (product === undefined) return { kind: 'productNotFound' };
        const priceCents = Number(product.price_cents);
        const at = now();
        // One statement creates the cart or counts the line into it, unless it is full: the row
        // lock it takes makes concurrent adds to one cart, from any process, take turns.
        const [cart] = await tx.query<{ item_count: number; inserted: boolean }>(
          `INSERT INTO carts AS cart (cart_id, item_count, subtotal_cents, updated_at) VALUES ($1, 1, $2, $3)
           ON CONFLICT (cart_id) DO UPDATE
             SET item_count = cart.item_count + 1, subtotal_cents = cart.subtotal_cents + excluded.subtotal_cents, updated_at = excluded.updated_at
             WHERE cart.item_count < $4
           RETURNING cart.item_count, (cart.xmax = 0) AS inserted`,
          [cartId, priceCents * quantity, at, limits.maxItemsPerCart],
        );
        if (cart === undefined) return { kind: 'cartFull' };
        // Rolls the insert back: a call that may not create a cart finds none.
        if (cart.inserted && !create) throw new Refusal({ kind: 'cartNotFound' });
        if (cart.inserted && !(await takeCartRoom(tx))) {
          await expire(tx, at);
          if (!(await takeCartRoom(tx))) throw new Refusal({ kind: 'tooManyCarts' });
        }
        await tx.query('INSERT INTO cart_items (cart_id, position, product_id, quantity, price_cents) VALUES ($1, $2, $3, $4, $5)', [
          cartId,
          cart.item_count - 1,
          productId,
          quantity,
          priceCents,
        ]);
        const added = await readCart(tx, cartId);
        if (added === undefined) throw new Error(`addItem: cart "${cartId}" vanished inside its own transaction`);
        return { kind: 'added', cart: added, created: cart.inserted };
      });
    },

    getCart(cartId) {
      return readCart(db, cartId);
    },

    clearCart(cartId) {
      return db.transaction(async (tx) => {
        const cleared = await tx.query(
          'UPDATE carts SET item_count = 0, subtotal_cents = 0, updated_at = $2 WHERE cart_id = $1 RETURNING cart_id',
          [cartId, now()],
        );
        if (cleared.length === 0) return false;
        await tx.query('DELETE FROM cart_items WHERE cart_id = $1', [cartId]);
        return true;
      });
    },

    async placeOrder(draft, check) {
      const placedAtMs = Date.now();
      const placed = await db.transaction(async (tx) => {
        const [locked] = await tx.query<{ last_order_id: string | null }>('SELECT last_order_id FROM carts WHERE cart_id = $1 FOR UPDATE', [
          draft.cartId,
        ]);
        if (locked === undefined) {
          check({ cart: undefined, lastOrderId: undefined, shortages: [] });
          throw new Error(`placeOrder: the check let an order for the missing cart "${draft.cartId}" through`);
        }
        const cart = await readCart(tx, draft.cartId);
        if (cart === undefined) throw new Error(`placeOrder: cart "${draft.cartId}" vanished while locked`);
        // The products of the cart, locked in id order, with the quantity the cart wants of each.
        const stock = await tx.query<{ product_id: string; name: string; stock: number; requested: Amount }>(
          `SELECT product.product_id, product.name, product.stock, wanted.requested
           FROM products product
           JOIN (SELECT product_id, sum(quantity) AS requested FROM cart_items WHERE cart_id = $1 GROUP BY product_id) wanted
             ON wanted.product_id = product.product_id
           ORDER BY product.product_id
           FOR NO KEY UPDATE OF product`,
          [draft.cartId],
        );
        const shortages: Shortage[] = stock
          .filter((row) => Number(row.requested) > row.stock)
          .map((row) => ({ productId: row.product_id, name: row.name, requested: Number(row.requested), available: row.stock }));
        check({ cart, lastOrderId: locked.last_order_id ?? undefined, shortages });
        if (cart.items.length === 0) throw new Error(`placeOrder: the check let an order for the empty cart "${draft.cartId}" through`);

        await tx.query(
          `UPDATE products product SET stock = product.stock - wanted.requested
           FROM (SELECT product_id, sum(quantity) AS requested FROM cart_items WHERE cart_id = $1 GROUP BY product_id) wanted
           WHERE wanted.product_id = product.product_id`,
          [draft.cartId],
        );
        const address = draft.shippingAddress;
        await tx.query(
          `INSERT INTO orders (order_id, cart_id, street, city, state, zip_code, country, payment_method, status, total_cents, created_at,
                               status_changed_at)
           SELECT $1, cart_id, $2, $3, $4, $5, $6, $7, 'pending', subtotal_cents, $8, $10 FROM carts WHERE cart_id = $9`,
          [
            draft.orderId,
            address.street,
            address.city,
            address.state,
            address.zipCode,
            address.country,
            draft.paymentMethod,
            draft.createdAt,
            draft.cartId,
            placedAtMs,
          ],
        );
        await tx.query(
          `INSERT INTO order_items (order_id, position, product_id, quantity, price_cents)
           SELECT $1, position, product_id, quantity, price_cents FROM cart_items WHERE cart_id = $2`,
          [draft.orderId, draft.cartId],
        );
        await tx.query('DELETE FROM cart_items WHERE cart_id = $1', [draft.cartId]);
        await tx.query('UPDATE carts SET item_count = 0, subtotal_cents = 0, last_order_id = $2, updated_at = $3 WHERE cart_id = $1', [
          draft.cartId,
          draft.orderId,
          now(),
        ]);
        const order: Order = {
          orderId: draft.orderId,
          cart,
          shippingAddress: { ...address },
          paymentMethod: draft.paymentMethod,
          status: 'pending',
          total: cart.subtotal,
          createdAt: draft.createdAt,
        };
        return order;
      });
      // Committed: from now on the fulfilment may move it (in this process, or in another after a restart).
      fulfilment?.follow({ orderId: placed.orderId, status: 'pending', changedAtMs: placedAtMs });
      return placed;
    },

    async getOrder(orderId) {
      // One statement, so the order and its lines come from one snapshot.
      const rows = await db.query<OrderRow & ItemRow>(
        `SELECT o.order_id, o.cart_id, o.street, o.city, o.state, o.zip_code, o.country, o.payment_method, o.status,
                o.total_cents, o.created_at, i.product_id, i.quantity, i.price_cents
         FROM orders o LEFT JOIN order_items i ON i.order_id = o.order_id
         WHERE o.order_id = $1 ORDER BY i.position`,
        [orderId],
      );
      const [first] = rows;
      if (first === undefined) return undefined;
      const total = fromCents(Number(first.total_cents));
      return {
        orderId: first.order_id,
        cart: { cartId: first.cart_id, items: itemsOf(rows), subtotal: total },
        shippingAddress: { street: first.street, city: first.city, state: first.state, zipCode: first.zip_code, country: first.country },
        paymentMethod: first.payment_method as PaymentMethod,
        status: first.status as Order['status'],
        total,
        createdAt: Number(first.created_at),
      };
    },

    expireCarts(at) {
      return db.transaction((tx) => expire(tx, at));
    },

    onOrderChange(listener) {
      return changes.subscribe(listener);
    },

    async close() {
      fulfilment?.stop();
      await changes.close();
      await db.close();
    },
  };
}

interface OrderRow {
  order_id: string;
  cart_id: string;
  street: string;
  city: string;
  state: string;
  zip_code: string;
  country: string;
  payment_method: string;
  status: string;
  total_cents: Amount;
  created_at: Amount;
}

/** The cart with its lines, read in one statement (one snapshot); undefined when there is none. */
async function readCart(db: SqlExecutor, cartId: string): Promise<Cart | undefined> {
  const rows = await db.query<{ subtotal_cents: Amount } & ItemRow>(
    `SELECT cart.subtotal_cents, item.product_id, item.quantity, item.price_cents
     FROM carts cart LEFT JOIN cart_items item ON item.cart_id = cart.cart_id
     WHERE cart.cart_id = $1 ORDER BY item.position`,
    [cartId],
  );
  const [first] = rows;
  if (first === undefined) return undefined;
  return { cartId, items: itemsOf(rows), subtotal: fromCents(Number(first.subtotal_cents)) };
}

/** The lines of a LEFT JOIN (a cart or order without lines gives one row of nulls). */
function itemsOf(rows: readonly ItemRow[]): CartItem[] {
  const items: CartItem[] = [];
  for (const row of rows) {
    if (row.product_id === null || row.quantity === null || row.price_cents === null) continue;
    items.push({ productId: row.product_id, quantity: row.quantity, price: fromCents(Number(row.price_cents)) });
  }
  return items;
}

function productOf(row: ProductRow): Product {
  const product: Product = {
    productId: row.product_id,
    name: row.name,
    description: row.description,
    price: fromCents(Number(row.price_cents)),
    stock: row.stock,
  };
  if (row.image_url !== null) product.imageUrl = row.image_url;
  return product;
}

/** Inserts the products that are missing, in one statement; existing rows (and their stock) stay. */
async function seedProducts(db: SqlDatabase, products: readonly Product[]): Promise<void> {
  if (products.length === 0) return;
  const params: unknown[] = [];
  const rows = products.map((product, index) => {
    params.push(
      product.productId,
      product.name,
      product.description,
      toCents(product.price),
      product.stock,
      product.imageUrl ?? null,
      index,
    );
    const base = index * 7;
    return `($${base + 1}, $${base + 2}, $${base + 3}, $${base + 4}::bigint, $${base + 5}::integer, $${base + 6}, $${base + 7}::integer)`;
  });
  await db.query(
    `INSERT INTO products (product_id, name, description, price_cents, stock, image_url, ordinal) VALUES ${rows.join(', ')}
     ON CONFLICT (product_id) DO NOTHING`,
    params,
  );
}
