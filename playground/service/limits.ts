/**
 * The bounds that keep the checkout service's memory and storage flat whatever its callers send:
 * every id, every cart and the number of carts is bounded, and a call past a bound is answered
 * with an invalid-params error (checkout.idl declares no error for these, and stays as it is).
 */
export interface CheckoutLimits {
  /** Longest cartId, productId or orderId accepted, in characters (generated ids have 21). */
  maxIdLength: number;
  /** Most lines a cart holds; addToCart appends a line per call. */
  maxItemsPerCart: number;
  /** Largest quantity of one line (quantities start at 1). */
  maxQuantity: number;
  /** Most carts kept at once; abandoned carts expire to make room. */
  maxCarts: number;
  /** A cart untouched (no add, clear or order) for this long is abandoned and may be deleted. */
  cartTtlSeconds: number;
  /** Longest address field, in characters. */
  maxAddressFieldLength: number;
}

/** The playground's limits: far above what a shopper needs, far below what hurts the server. */
export const defaultLimits: CheckoutLimits = Object.freeze({
  maxIdLength: 64,
  maxItemsPerCart: 100,
  maxQuantity: 1000,
  maxCarts: 10_000,
  cartTtlSeconds: 24 * 60 * 60,
  maxAddressFieldLength: 200,
});

/** The environment variables that change a limit, for a server that must hold more (or fewer) carts. */
const limitVariables = {
  PLAYGROUND_MAX_CARTS: 'maxCarts',
  PLAYGROUND_CART_TTL_SECONDS: 'cartTtlSeconds',
} as const satisfies Record<string, keyof CheckoutLimits>;

/**
 * The default limits, with `PLAYGROUND_MAX_CARTS` and `PLAYGROUND_CART_TTL_SECONDS` from the
 * environment when set. Throws, naming the variable, for anything but a whole number from 1 up.
 */
export function limitsFromEnv(env: Record<string, string | undefined>): CheckoutLimits {
  const limits = { ...defaultLimits };
  for (const [variable, limit] of Object.entries(limitVariables)) {
    const text = env[variable]?.trim();
    if (!text) continue;
    const value = Number(text);
    if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${variable} must be a whole number from 1 up, not "${text}"`);
    limits[limit] = value;
  }
  return limits;
}
