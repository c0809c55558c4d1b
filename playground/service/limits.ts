/**
 * The bounds that keep the checkout service's memory and storage flat whatever its callers send:
 * every id, every cart, the number of carts and the carts one client creates are bounded, and a
 * call past a bound is answered with an invalid-params error, or -32029 for a client's new carts
 * (checkout.idl declares no error for these, and stays as it is).
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
  /** A cart with no items (cleared, or checked out) untouched for this long is abandoned too. */
  emptyCartTtlSeconds: number;
  /**
   * Most carts one client (one IPv4 address, one IPv6 /64) may create per `newCartWindowSeconds`,
   * notifications included: past it, addToCart can only add to carts that exist (error -32029).
   */
  maxNewCartsPerClient: number;
  /** The time window of `maxNewCartsPerClient`, in seconds. */
  newCartWindowSeconds: number;
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
  emptyCartTtlSeconds: 15 * 60,
  maxNewCartsPerClient: 100,
  newCartWindowSeconds: 60 * 60,
  maxAddressFieldLength: 200,
});

/**
 * The environment variables that change a limit, for a server that must hold more (or fewer) carts,
 * or serve more carts to one client (benchmarks and load tests run from one address).
 */
const limitVariables = {
  PLAYGROUND_MAX_CARTS: 'maxCarts',
  PLAYGROUND_CART_TTL_SECONDS: 'cartTtlSeconds',
  PLAYGROUND_EMPTY_CART_TTL_SECONDS: 'emptyCartTtlSeconds',
  PLAYGROUND_MAX_NEW_CARTS_PER_CLIENT: 'maxNewCartsPerClient',
  PLAYGROUND_NEW_CART_WINDOW_SECONDS: 'newCartWindowSeconds',
} as const satisfies Record<string, keyof CheckoutLimits>;

/**
 * The default limits, with each of `limitVariables` (`PLAYGROUND_MAX_CARTS`, ...) from the
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
