import type { OrderStatus } from '../checkout.idl';
import type { FulfilmentSteps, OrderProgress } from '../service/fulfilment.js';
import { type OrderChange, OrderChangeFeed, type OrderChangeListener } from '../service/order-changes.js';
import { lifecycle } from '../service/order-lifecycle.js';
import type { SqlDatabase } from './sql-database.js';

/** The channel of PostgreSQL's LISTEN/NOTIFY on which every process hears of order changes. */
export const orderChangesChannel = 'order_changes';

interface ProgressRow {
  order_id: string;
  status: string;
  /** bigint: a string from `pg`, a number from PGlite. */
  status_changed_at: number | string;
}

const progressOf = (row: ProgressRow): OrderProgress => ({
  orderId: row.order_id,
  status: row.status as OrderStatus,
  changedAtMs: Number(row.status_changed_at),
});

/**
 * The fulfilment's steps in SQL. A step is one transaction: an `UPDATE ... WHERE status = <from>`,
 * whose row lock and re-check make it a claim (of processes trying the same step at once, one
 * updates the row, the others find it moved), and a `NOTIFY` that PostgreSQL delivers to every
 * listening process when the transaction commits, and not at all when it rolls back.
 */
export function sqlFulfilmentSteps(db: SqlDatabase): FulfilmentSteps {
  return {
    advance(orderId, from, to, atMs) {
      return db.transaction(async (tx) => {
        const [moved] = await tx.query<ProgressRow>(
          `UPDATE orders SET status = $3, status_changed_at = $4 WHERE order_id = $1 AND status = $2
           RETURNING order_id, status, status_changed_at`,
          [orderId, from, to, atMs],
        );
        if (moved !== undefined) {
          const change: OrderChange = { orderId, status: to };
          await tx.query('SELECT pg_notify($1, $2)', [orderChangesChannel, JSON.stringify(change)]);
          return progressOf(moved);
        }
        const [current] = await tx.query<ProgressRow>('SELECT order_id, status, status_changed_at FROM orders WHERE order_id = $1', [
          orderId,
        ]);
        return current && progressOf(current);
      });
    },
    async unfinished() {
      const rows = await db.query<ProgressRow>(
        `SELECT order_id, status, status_changed_at FROM orders WHERE status NOT IN ('delivered', 'cancelled')`,
      );
      return rows.map(progressOf);
    },
  };
}

/** A NOTIFY payload as an OrderChange; undefined for anything else on the channel. */
export function parseOrderChange(payload: string): OrderChange | undefined {
  try {
    const change = JSON.parse(payload) as Partial<OrderChange>;
    const known = typeof change.orderId === 'string' && lifecycle.concat('cancelled').includes(change.status as OrderStatus);
    return known ? (change as OrderChange) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The order changes of a SQL store: one LISTEN per store, started by the first subscriber (a store
 * nobody watches holds no listening connection), told to every subscriber of this process.
 */
export class SqlOrderChanges {
  readonly #db: SqlDatabase;
  readonly #feed = new OrderChangeFeed();
  #listening: Promise<() => Promise<void>> | undefined;

  constructor(db: SqlDatabase) {
    this.#db = db;
  }

  /** Adds a listener; resolves once the store listens, to the function that removes it. */
  async subscribe(listener: OrderChangeListener): Promise<() => void> {
    this.#listening ??= this.#db.listen(orderChangesChannel, (payload) => this.#told(payload));
    // A failed LISTEN is tried again by the next subscriber.
    this.#listening.catch(() => {
      this.#listening = undefined;
    });
    await this.#listening;
    return this.#feed.add(listener);
  }

  /** Stops listening. */
  async close(): Promise<void> {
    const listening = this.#listening;
    this.#listening = undefined;
    if (listening !== undefined) await (await listening.catch(() => async () => {}))();
  }

  #told(payload: string | undefined): void {
    if (payload === undefined) return this.#feed.emit(undefined);
    const change = parseOrderChange(payload);
    if (change === undefined)
      console.error(`Ignored a notification on ${orderChangesChannel} that is no order change: ${payload.slice(0, 200)}`);
    else this.#feed.emit(change);
  }
}
