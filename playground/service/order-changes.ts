import type { OrderStatus } from '../checkout.idl';

/** One order changed its status. */
export interface OrderChange {
  orderId: string;
  status: OrderStatus;
}

/**
 * Told of each order change; `undefined` says changes may have been missed (the connection that
 * listens for them was lost and is back), so that every watcher reads its order again.
 */
export type OrderChangeListener = (change: OrderChange | undefined) => void;

/**
 * The listeners of one process, told of every change the store hears of: one database
 * subscription (or one in-process source) serves any number of watchers.
 */
export class OrderChangeFeed {
  readonly #listeners = new Set<OrderChangeListener>();

  /** Adds a listener; returns the function that removes it (idempotent). */
  add(listener: OrderChangeListener): () => void {
    // A wrapper per subscription, so that one function added twice is two subscriptions.
    const entry: OrderChangeListener = (change) => listener(change);
    this.#listeners.add(entry);
    return () => {
      this.#listeners.delete(entry);
    };
  }

  /** Tells every listener; one that throws is logged and the others are still told. */
  emit(change: OrderChange | undefined): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(change);
      } catch (error) {
        console.error(`An order change listener failed: ${(error as Error).message}`);
      }
    }
  }

  /** How many listeners there are (tests check that watchers unsubscribe). */
  get size(): number {
    return this.#listeners.size;
  }
}
