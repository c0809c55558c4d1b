import { describe, expect, it } from 'vitest';
import { copyData } from './copy-data.js';

describe('copyData', () => {
  const order = {
    orderId: 'order_1',
    cart: { cartId: 'cart_1', items: [{ productId: 'kettle', quantity: 2, price: 39.99 }], subtotal: 79.98 },
    shippingAddress: { street: '1 Main St', city: 'Springfield', state: 'OR', zipCode: '97477', country: 'US' },
    status: 'PENDING',
    note: null,
    gift: false,
  };

  it('gives an equal value that shares no object or array with the original', () => {
    const copy = copyData(order);
    expect(copy).toStrictEqual(order);
    expect(copy).not.toBe(order);
    expect(copy.cart).not.toBe(order.cart);
    expect(copy.cart.items).not.toBe(order.cart.items);
    expect(copy.cart.items[0]).not.toBe(order.cart.items[0]);
    copy.cart.items[0].quantity = 5;
    copy.shippingAddress.city = 'Portland';
    expect(order.cart.items[0].quantity).toBe(2);
    expect(order.shippingAddress.city).toBe('Springfield');
  });

  it('returns primitives and null as they are', () => {
    for (const value of ['text', 0, -1.5, true, null, undefined]) expect(copyData(value)).toBe(value);
  });

  it('agrees with structuredClone on JSON data', () => {
    const values = [[], {}, [[1, [2, [3]]], { a: { b: { c: [] } } }], { list: ['x', null, 3], empty: '' }];
    for (const value of values) expect(copyData(value)).toStrictEqual(structuredClone(value));
  });
});
