import type { SqlDatabase } from './sql-database.js';

/** One step of the schema; a version is applied once and never changed afterwards (add a new one). */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/**
 * The checkout schema. Amounts are whole cents (`bigint`), so sums are exact; times are Unix seconds.
 * A cart keeps its line count and subtotal on its own row, so that adding a line touches two rows
 * whatever the size of the cart; `cart_count` holds the number of carts, so the limit on carts is
 * checked without counting them.
 */
export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: 'products, carts, orders',
    sql: `
      CREATE TABLE products (
        product_id  text PRIMARY KEY,
        name        text NOT NULL,
        description text NOT NULL,
        price_cents bigint NOT NULL CHECK (price_cents >= 0),
        stock       integer NOT NULL CHECK (stock >= 0),
        image_url   text,
        -- The place of the product in listProducts (the catalog's order).
        ordinal     integer NOT NULL DEFAULT 0
      );
      CREATE TABLE carts (
        cart_id        text PRIMARY KEY,
        item_count     integer NOT NULL CHECK (item_count >= 0),
        subtotal_cents bigint NOT NULL,
        last_order_id  text,
        updated_at     bigint NOT NULL
      );
      CREATE INDEX carts_by_updated_at ON carts (updated_at);
      CREATE TABLE cart_items (
        cart_id     text NOT NULL REFERENCES carts ON DELETE CASCADE,
        position    integer NOT NULL,
        product_id  text NOT NULL REFERENCES products,
        quantity    integer NOT NULL CHECK (quantity > 0),
        price_cents bigint NOT NULL,
        PRIMARY KEY (cart_id, position)
      );
      CREATE TABLE cart_count (
        single boolean PRIMARY KEY DEFAULT true CHECK (single),
        carts  integer NOT NULL CHECK (carts >= 0)
      );
      INSERT INTO cart_count (carts) VALUES (0);
      CREATE TABLE orders (
        order_id       text PRIMARY KEY,
        cart_id        text NOT NULL,
        street         text NOT NULL,
        city           text NOT NULL,
        state          text NOT NULL,
        zip_code       text NOT NULL,
        country        text NOT NULL,
        payment_method text NOT NULL,
        status         text NOT NULL,
        total_cents    bigint NOT NULL,
        created_at     bigint NOT NULL
      );
      CREATE TABLE order_items (
        order_id    text NOT NULL REFERENCES orders ON DELETE CASCADE,
        position    integer NOT NULL,
        product_id  text NOT NULL,
        quantity    integer NOT NULL,
        price_cents bigint NOT NULL,
        PRIMARY KEY (order_id, position)
      );
    `,
  },
  {
    version: 2,
    name: 'order fulfilment',
    // The simulated fulfilment moves an order on a step after its last change, which every process
    // must read alike. Orders placed before this column (or by a process of the version before it)
    // get 0, "long ago": their next step is due at once. The partial index finds the unfinished
    // orders at start without reading the delivered ones.
    sql: `
      ALTER TABLE orders ADD COLUMN status_changed_at bigint NOT NULL DEFAULT 0;
      CREATE INDEX orders_unfinished ON orders (order_id) WHERE status NOT IN ('delivered', 'cancelled');
    `,
  },
];

/** Any constant: the key of the advisory lock that lets one process at a time migrate a database. */
const migrationLockKey = 23_0001;

/**
 * Applies the migrations the database has not seen yet, in order, in one transaction, and returns
 * the versions applied. Idempotent; processes that start together on one PostgreSQL take turns
 * (an advisory lock), so each version is applied exactly once.
 */
export async function applyMigrations(db: SqlDatabase, steps: readonly Migration[] = migrations): Promise<number[]> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [migrationLockKey]);
    await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version    integer PRIMARY KEY,
      name       text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const applied = new Set(
      (await tx.query<{ version: number }>('SELECT version FROM schema_migrations')).map((row) => Number(row.version)),
    );
    const pending = [...steps].filter((step) => !applied.has(step.version)).sort((a, b) => a.version - b.version);
    for (const step of pending) {
      await tx.exec(step.sql);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [step.version, step.name]);
    }
    return pending.map((step) => step.version);
  });
}
