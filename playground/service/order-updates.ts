import type { Order } from '../checkout.idl';
import { isFinal, isNewerThan, seenOrdinal, statusEventId } from './order-lifecycle.js';
import type { CheckoutStore } from './store.js';

/** One state of a watched order and its stream event id. */
export interface OrderUpdate {
  order: Order;
  eventId: string;
}

export interface OrderUpdateOptions {
  /** The id of the last state the watcher received (a resumed stream's `Last-Event-ID`). */
  lastEventId?: string;
  /** Ends the updates (the client went away, the server shuts down). */
  signal?: AbortSignal;
  /** The error thrown when there is no order with the id. */
  notFound: (orderId: string) => Error;
}

/**
 * The states of an order as it changes: first the current one, then each change, until it is
 * delivered (or cancelled), then the end. Each state's event id is its status's ordinal
 * (statusEventId), so that a watcher resumed with `lastEventId` gets only what it has not seen: the
 * current state only when it is later than that id, then the changes. An id this service never
 * issued for the order (not a number, or later than its current status) counts as none: the watcher
 * gets the current state. Hears of changes made by any process on the store's database
 * (`onOrderChange`), and reads the order again on each; a change it missed while away shows as the
 * state it led to. `signal` ends it; either way its subscription ends with it.
 */
export async function* orderUpdates(store: CheckoutStore, orderId: string, options: OrderUpdateOptions): AsyncGenerator<OrderUpdate, void> {
  const wakeUp = new WakeUp();
  // Listening before the first read: a change committed in between still wakes the loop.
  const unsubscribe = await store.onOrderChange((change) => {
    if (change === undefined || change.orderId === orderId) wakeUp.set();
  });
  try {
    let order = await store.getOrder(orderId);
    if (order === undefined) throw options.notFound(orderId);
    let seen = seenOrdinal(options.lastEventId, order.status);
    while (!options.signal?.aborted) {
      if (isNewerThan(order, seen)) {
        const eventId = statusEventId(order.status);
        yield { order, eventId };
        seen = Number(eventId);
      }
      if (isFinal(order.status)) return;
      await wakeUp.wait(options.signal);
      if (options.signal?.aborted) return;
      const latest = await store.getOrder(orderId);
      // Orders are never deleted; should one vanish, the stream ends rather than waiting forever.
      if (latest === undefined) return;
      order = latest;
    }
  } finally {
    unsubscribe();
  }
}

/** A flag the loop waits on: set by any number of changes, cleared by the wait that sees it. */
class WakeUp {
  #set = false;
  #resolve: (() => void) | undefined;

  set(): void {
    this.#set = true;
    this.#resolve?.();
  }

  /** Resolves once set (at once if it already is), or when `signal` aborts; clears the flag. */
  async wait(signal: AbortSignal | undefined): Promise<void> {
    if (!this.#set && !signal?.aborted) {
      await new Promise<void>((resolve) => {
        const done = () => {
          signal?.removeEventListener('abort', done);
          this.#resolve = undefined;
          resolve();
        };
        this.#resolve = done;
        signal?.addEventListener('abort', done, { once: true });
      });
    }
    this.#set = false;
  }
}
