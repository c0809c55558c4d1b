import { describe, expect, it } from 'vitest';
import { defaultLimits, limitsFromEnv } from './limits.js';

describe('limitsFromEnv', () => {
  it('gives the defaults without the variables, and takes each one that is set', () => {
    expect(limitsFromEnv({})).toEqual(defaultLimits);
    expect(limitsFromEnv({ PLAYGROUND_MAX_CARTS: '500', PLAYGROUND_CART_TTL_SECONDS: ' 60 ' })).toEqual({
      ...defaultLimits,
      maxCarts: 500,
      cartTtlSeconds: 60,
    });
  });

  it('takes the budget of new carts per client and the TTL of empty carts', () => {
    const env = {
      PLAYGROUND_MAX_NEW_CARTS_PER_CLIENT: '1000000',
      PLAYGROUND_NEW_CART_WINDOW_SECONDS: '60',
      PLAYGROUND_EMPTY_CART_TTL_SECONDS: '30',
    };
    expect(limitsFromEnv(env)).toEqual({
      ...defaultLimits,
      maxNewCartsPerClient: 1_000_000,
      newCartWindowSeconds: 60,
      emptyCartTtlSeconds: 30,
    });
  });

  it('names the variable of a value that is no whole number from 1 up', () => {
    for (const value of ['0', '-1', '1.5', 'many']) {
      expect(() => limitsFromEnv({ PLAYGROUND_MAX_CARTS: value })).toThrow(
        `PLAYGROUND_MAX_CARTS must be a whole number from 1 up, not "${value}"`,
      );
    }
  });
});
