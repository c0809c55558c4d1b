import { describe, expect, it } from 'vitest';
import { identifierWords, pascalCaseWords, snakeCase, upperSnakeCase } from './case-conversion.js';

describe('case conversion of IDL names', () => {
  it('splits words at underscores and case changes, acronyms kept together', () => {
    expect(identifierWords('productId')).toEqual(['product', 'Id']);
    expect(identifierWords('HTTPServer2')).toEqual(['HTTP', 'Server2']);
    expect(identifierWords('imageURL')).toEqual(['image', 'URL']);
    expect(identifierWords('zip__code_')).toEqual(['zip', 'code']);
  });

  it('writes snake_case, UPPER_SNAKE_CASE and PascalCase', () => {
    expect(['productId', 'HTTPServer', 'zip_code', 'None', 'a1B'].map(snakeCase)).toEqual([
      'product_id',
      'http_server',
      'zip_code',
      'none',
      'a1_b',
    ]);
    expect(['credit_card', 'creditCard', 'paypal'].map(upperSnakeCase)).toEqual(['CREDIT_CARD', 'CREDIT_CARD', 'PAYPAL']);
    expect(['order_status', 'cartItem', 'HTTPError', 'class'].map(pascalCaseWords)).toEqual([
      'OrderStatus',
      'CartItem',
      'HTTPError',
      'Class',
    ]);
  });
});
