import { describe, expect, it } from 'vitest';
import { camelCase, claim, packageName, pascalCase } from './names.js';

describe('Go names', () => {
  it('converts IDL names to exported PascalCase and to lowerCamelCase', () => {
    expect(['credit_card', 'productId', 'go_to', '_x', 'OrderID', 'v2_beta', '3d'].map(pascalCase)).toStrictEqual([
      'CreditCard',
      'ProductId',
      'GoTo',
      'X',
      'OrderID',
      'V2Beta',
      'X3d',
    ]);
    expect(['order_id', 'OrderID', 'func', '3d'].map(camelCase)).toStrictEqual(['orderId', 'orderID', 'func', 'x3d']);
  });

  it('appends _ to keywords and to names already taken', () => {
    const taken = new Set(['GoTo']);
    expect([claim('func', taken), claim('GoTo', taken), claim('GoTo', taken), claim('type', new Set())]).toStrictEqual([
      'func_',
      'GoTo_',
      'GoTo__',
      'type_',
    ]);
  });

  it('makes a package name of a namespace', () => {
    expect(['Shop', 'every_thing', '9lives'].map(packageName)).toStrictEqual(['shop', 'every_thing', 'x9lives']);
  });
});
