import { describe, expect, it } from 'vitest';
import { addressProblems } from './address.js';
import { declineReason, declinedZipCode } from './payment.js';
import { fromCents, subtotalCents, toCents } from './money.js';

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

  it('rejects fields longer than the limit, naming each', () => {
    const long = 'x'.repeat(201);
    expect(addressProblems({ ...address, street: long, city: long }, 200).map((p) => p.message)).toEqual([
      'street is longer than 200 characters',
      'city is longer than 200 characters',
    ]);
    expect(addressProblems({ ...address, street: 'x'.repeat(200) }, 200)).toEqual([]);
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

describe('subtotalCents', () => {
  it('sums price times quantity in whole cents, exactly', () => {
    expect(subtotalCents([])).toBe(0);
    expect(fromCents(subtotalCents([{ priceCents: toCents(0.1), quantity: 3 }]))).toBe(0.3);
    expect(
      subtotalCents([
        { priceCents: 1800, quantity: 2 },
        { priceCents: 2950, quantity: 1 },
        { priceCents: 625, quantity: 4 },
      ]),
    ).toBe(9050);
    // Where a float sum drifts (0.1 + 0.2 is 0.30000000000000004), cents do not.
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(
      fromCents(
        subtotalCents([
          { priceCents: toCents(0.1), quantity: 1 },
          { priceCents: toCents(0.2), quantity: 1 },
        ]),
      ),
    ).toBe(0.3);
  });

  it('rounds prices to the nearest cent', () => {
    expect(toCents(64.9)).toBe(6490);
    expect(toCents(14.75)).toBe(1475);
    expect(toCents(0.005)).toBe(1);
  });
});
