import type { OrderStatus } from '../checkout.idl';
import { type FulfilmentOptions, nextStatus } from './order-lifecycle.js';

/** Where an order is in its lifecycle. */
export interface OrderProgress {
  orderId: string;
  status: OrderStatus;
  /** Unix milliseconds of its last status change (its creation, at first). */
  changedAtMs: number;
}

/** What the fulfilment needs from a store. */
export interface FulfilmentSteps {
  /**
   * Moves the order from `from` to `to` (stamped `atMs`) only if it is still in `from`: of several
   * processes that try the same step, exactly one moves it. Returns the order's progress afterwards
   * (moved by this call or not), or undefined when there is no such order.
   */
  advance(orderId: string, from: OrderStatus, to: OrderStatus, atMs: number): Promise<OrderProgress | undefined>;
  /** Every order that is not delivered (nor cancelled) yet. */
  unfinished(): Promise<OrderProgress[]>;
}

/**
 * Runs the simulated fulfilment (order-lifecycle.ts) of a store's orders: each order's next step is
 * due `stepMs` after its last change, as the database records it, so that every process that
 * follows an order agrees on when; the step itself is a claim (`advance`), so it happens once
 * however many processes follow the order. A process follows the orders it creates and, at start,
 * every unfinished one (resume): so a restart, or the death of the process that created an order,
 * does not leave it stuck. One timer per unfinished order.
 */
export class Fulfilment {
  readonly #steps: FulfilmentSteps;
  readonly #stepMs: number;
  readonly #timers = new Map<string, NodeJS.Timeout>();
  #stopped = false;

  constructor(steps: FulfilmentSteps, options: FulfilmentOptions) {
    this.#steps = steps;
    this.#stepMs = options.stepMs;
  }

  /** Follows every unfinished order of the store (at start: a step that fell due while no process ran is taken at once). */
  async resume(): Promise<void> {
    for (const progress of await this.#steps.unfinished()) this.follow(progress);
  }

  /** Schedules the order's next step, if it has one. */
  follow(progress: OrderProgress): void {
    const to = nextStatus(progress.status);
    clearTimeout(this.#timers.get(progress.orderId));
    this.#timers.delete(progress.orderId);
    if (this.#stopped || to === undefined) return;
    const delay = Math.max(0, progress.changedAtMs + this.#stepMs - Date.now());
    const timer = setTimeout(() => void this.#step(progress, to), delay);
    // The simulation never keeps a process alive (tests, a server that shuts down).
    timer.unref();
    this.#timers.set(progress.orderId, timer);
  }

  /** Stops following every order; steps already running finish, and schedule nothing more. */
  stop(): void {
    this.#stopped = true;
    for (const timer of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
  }

  /** How many orders this process follows. */
  get following(): number {
    return this.#timers.size;
  }

  async #step(progress: OrderProgress, to: OrderStatus): Promise<void> {
    this.#timers.delete(progress.orderId);
    try {
      const after = await this.#steps.advance(progress.orderId, progress.status, to, Date.now());
      // Moved here or by another process: either way, the next step is due after this change.
      if (after !== undefined) this.follow(after);
    } catch (error) {
      if (this.#stopped) return;
      // The database away for a moment: try the same step again a step later.
      console.error(`Fulfilment of order ${progress.orderId} (${progress.status} -> ${to}) failed: ${(error as Error).message}`);
      this.follow({ ...progress, changedAtMs: Date.now() });
    }
  }
}
