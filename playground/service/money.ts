/**
 * Prices are IDL `float`s (dollars) on the wire, because that is the contract; inside the service
 * every amount is a whole number of cents, so that sums are exact (a float sum of a large quantity
 * drifts: 2^53-1 × 0.10 came out $140 off) and a cart of three 0.10 items has a subtotal of 0.3,
 * not 0.30000000000000004.
 */

/** Cents of a dollar amount, rounded to the nearest cent. */
export function toCents(amount: number): number {
  return Math.round(amount * 100);
}

/** The dollar amount of a whole number of cents, as the wire carries it. */
export function fromCents(cents: number): number {
  return cents / 100;
}

/** Sum of price times quantity over all lines, in cents (exact while it stays below 2^53). */
export function subtotalCents(items: readonly { priceCents: number; quantity: number }[]): number {
  return items.reduce((sum, item) => sum + item.priceCents * item.quantity, 0);
}
