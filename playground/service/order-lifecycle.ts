import type { Order, OrderStatus } from '../checkout.idl';

/**
 * The playground's simulated fulfilment: every new order moves `pending -> paid -> shipped ->
 * delivered`, one step every `stepMs`. The IDL leaves the transitions open; docs/playground.md
 * documents these.
 */
export const lifecycle: readonly OrderStatus[] = ['pending', 'paid', 'shipped', 'delivered'];

/** Statuses after which an order never changes again. */
const finalStatuses: ReadonlySet<OrderStatus> = new Set(['delivered', 'cancelled']);

/** Every status in the order of the IDL's enum, which is the order an order goes through them (cancelled last). */
const statusOrder: readonly OrderStatus[] = ['pending', 'paid', 'shipped', 'delivered', 'cancelled'];

/** The status that follows `status` in the simulated fulfilment, or undefined for a final one. */
export function nextStatus(status: OrderStatus): OrderStatus | undefined {
  const index = lifecycle.indexOf(status);
  return index === -1 ? undefined : lifecycle[index + 1];
}

/** True when the order will never change again (delivered or cancelled). */
export function isFinal(status: OrderStatus): boolean {
  return finalStatuses.has(status);
}

/**
 * The stream event id of an order in `status`: its place in the enum, counted from 1 (pending "1",
 * paid "2", shipped "3", delivered "4", cancelled "5"). An order's status only moves forward through
 * the enum, so a later state always has a larger id.
 */
export function statusEventId(status: OrderStatus): string {
  return String(statusOrder.indexOf(status) + 1);
}

/**
 * The ordinal a watcher that last saw `lastEventId` has seen up to, for an order now in `current`:
 * the id's number when it is one this service issues for that order (a decimal from 1 up to the
 * current status's), else 0, so that the watcher gets the current state (an id it never issued, or
 * none at all).
 */
export function seenOrdinal(lastEventId: string | undefined, current: OrderStatus): number {
  if (lastEventId === undefined || !/^[1-9]\d{0,2}$/.test(lastEventId)) return 0;
  const ordinal = Number(lastEventId);
  return ordinal <= Number(statusEventId(current)) ? ordinal : 0;
}

/** True when `order` is news to a watcher that has seen up to `seen` (see seenOrdinal). */
export function isNewerThan(order: Order, seen: number): boolean {
  return Number(statusEventId(order.status)) > seen;
}

/** The fulfilment's timing. */
export interface FulfilmentOptions {
  /** Milliseconds between an order's change and its next one (3 steps from pending to delivered). */
  stepMs: number;
}

/** 5 s between steps: delivered 15 s after the order is placed. */
export const defaultFulfilment: FulfilmentOptions = Object.freeze({ stepMs: 5000 });

/** The longest step: 3 of them stay within 30 s. */
export const maxFulfilmentStepMs = 10_000;

/**
 * The fulfilment's timing from `PLAYGROUND_FULFILMENT_STEP_MS` (a whole number of milliseconds from 0
 * to 10,000) when set, else the default. Throws, naming the variable, for anything else.
 */
export function fulfilmentFromEnv(env: Record<string, string | undefined>): FulfilmentOptions {
  const text = env.PLAYGROUND_FULFILMENT_STEP_MS?.trim();
  if (!text) return defaultFulfilment;
  const stepMs = Number(text);
  if (!Number.isSafeInteger(stepMs) || stepMs < 0 || stepMs > maxFulfilmentStepMs) {
    throw new Error(`PLAYGROUND_FULFILMENT_STEP_MS must be a whole number of milliseconds from 0 to ${maxFulfilmentStepMs}, not "${text}"`);
  }
  return { stepMs };
}
