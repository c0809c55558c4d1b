const currency = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** A price in dollars as the page shows it: `$1,234.50`. */
export function formatMoney(amount: number): string {
  return currency.format(amount);
}

/** A Unix time in seconds as a local date and time. */
export function formatUnixTime(seconds: number): string {
  return new Date(seconds * 1000).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });
}

/** How the product card describes the stock. */
export function stockLabel(stock: number): string {
  if (stock <= 0) return 'Sold out';
  if (stock <= 3) return `Only ${stock} left`;
  return `${stock} in stock`;
}
