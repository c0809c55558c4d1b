import { describe, expect, it } from 'vitest';
import { addressProblems } from './address.js';
import { declineReason, declinedZipCode } from './payment.js';
import { subtotalOf } from './money.js';

const address = { street: '1 Market Street', city: 'San Francisco', state: 'CA', zipCode: '94105', country: 'US' };

describe('addressProblems', () => {
  it('accepts a complete address and postal codes of several countries', () => {
    for (const zipCode of ['94105', '94105-1234', 'SW1A 1AA', 'K1A 0B6', '1012 AB', '10115', '000']) {
      expect(addressProblems({ ...address, zipCode }), zipCode).toEqual([]);
    }
  });

  it('reports every blank field, in field order', () => {
    const problems = addressProblems({ ...address, street: '  ', country: '' });
    expect(problems).toEqual([
      { field: 'street', message: 'street is empty' },
      { field: 'country', message: 'country is empty' },
    ]);
  });

  it('rejects zip codes that do not look like postal codes', () => {
    for (const zipCode of ['1', '12', '12345678901', '94105!', '-9410', '9410-']) {
      expect(
        addressProblems({ ...address, zipCode }).map((p) => p.field),
        zipCode,
      ).toEqual(['zipCode']);
    }
  });
});

describe('declineReason', () => {
  it('declines only the documented test zip code', () => {
    expect(declineReason(address, 'credit_card' as never)).toBeUndefined();
    expect(declineReason({ ...address, zipCode: ` ${declinedZipCode} ` }, 'paypal' as never)).toMatch(/paypal payment was declined/);
  });
});

describe('subtotalOf', () => {
  it('sums price times quantity in whole cents', () => {
    expect(subtotalOf([])).toBe(0);
    expect(subtotalOf([{ price: 0.1, quantity: 3 }])).toBe(0.3);
    expect(
      subtotalOf([
        { price: 18, quantity: 2 },
        { price: 29.5, quantity: 1 },
        { price: 6.25, quantity: 4 },
      ]),
    ).toBe(90.5);
  });
});
