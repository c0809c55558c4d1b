/**
 * Prices are IDL `float`s (dollars). Sums are rounded to whole cents so that a cart of three
 * 0.10 items has a subtotal of 0.3, not 0.30000000000000004.
 */
export function roundToCents(amount: number): number {
  return Math.round(amount * 100) / 100;
}

/** Sum of price times quantity over all lines, in whole cents. */
export function subtotalOf(items: readonly { price: number; quantity: number }[]): number {
  return roundToCents(items.reduce((sum, item) => sum + item.price * item.quantity, 0));
}
