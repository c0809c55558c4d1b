import { Type } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { describe, expect, it } from 'vitest';
import { calcIdl } from '../test/runtime/fixtures/calc-idl.js';
import { checkoutIdl } from '../test/runtime/fixtures/checkout-idl.js';
import { idlSchemas, typeSchema } from './schema.js';
import { compileValidators, formatPath, typeboxValidator } from './validation.js';

describe('typeSchema: the IDL -> TypeBox mapping', () => {
  it('maps every IDL type form', () => {
    expect(typeSchema({ builtIn: 'string' })).toStrictEqual(Type.String());
    expect(typeSchema({ builtIn: 'int' })).toStrictEqual(Type.Integer({ minimum: -(2 ** 53 - 1), maximum: 2 ** 53 - 1 }));
    expect(typeSchema({ builtIn: 'float' })).toStrictEqual(Type.Number());
    expect(typeSchema({ builtIn: 'bool' })).toStrictEqual(Type.Boolean());
    expect(typeSchema({ array: { userDefined: 'Cart' } })).toStrictEqual(Type.Array(Type.Ref('Cart')));
    expect(typeSchema({ mapValue: { array: { builtIn: 'float' } } })).toStrictEqual(
      Type.Record(Type.String({ pattern: '^[\\s\\S]*$' }), Type.Array(Type.Number())),
    );
  });

  it('checks the value under every map key, line breaks and U+2028 included', () => {
    const check = TypeCompiler.Compile(typeSchema({ mapValue: { builtIn: 'int' } }));
    for (const key of ['', 'a', '\n', 'a\nb', '\r\n', '\u2028', '\u2029']) {
      expect(check.Check({ [key]: 1 }), JSON.stringify(key)).toBe(true);
      expect(check.Check({ [key]: 'not an int' }), JSON.stringify(key)).toBe(false);
    }
  });

  it('builds one schema per struct and enum; a child refers to its parent; optional = absent or null', () => {
    const { references, methods } = idlSchemas(calcIdl);
    expect(references.map((r) => r.$id)).toStrictEqual(['Tree', 'Animal', 'Dog', 'Color']);
    const dog = references[2];
    expect(dog).toStrictEqual(
      Type.Intersect(
        [
          Type.Ref('Animal'),
          Type.Object({
            good: Type.Boolean(),
            color: Type.Optional(Type.Union([Type.Ref('Color'), Type.Null()])),
          }),
        ],
        { $id: 'Dog' },
      ),
    );
    // The child has the parent's fields: a dog without legs is no dog.
    const check = TypeCompiler.Compile(Type.Ref('Dog'), references);
    expect(check.Check({ name: 'Rex', legs: 4, good: true })).toBe(true);
    expect(check.Check({ name: 'Rex', good: true })).toBe(false);
    expect(check.Check({ name: 'Rex', legs: 4 })).toBe(false);
    expect(references[3]).toStrictEqual(
      Type.Union([Type.Literal('black'), Type.Literal('white'), Type.Literal('brown')], { $id: 'Color' }),
    );
    expect(methods['Calc.describe']).toStrictEqual({ params: [Type.Ref('Dog')], result: Type.Union([Type.String(), Type.Null()]) });
    expect(methods['Calc.ping']).toStrictEqual({ params: [], result: Type.Boolean() });
  });

  it('rejects an extends cycle instead of building checks that never end', () => {
    const cyclic = {
      rootNamespace: 'c',
      structs: [
        { name: 'A', namespace: 'c', extends: 'B' },
        { name: 'B', namespace: 'c', extends: 'A' },
      ],
    };
    expect(() => idlSchemas(cyclic as typeof calcIdl)).toThrow('Struct A extends itself');
  });

  it('compiles ahead of time with TypeCompiler.Code (what the generator does)', () => {
    const { references, methods } = idlSchemas(checkoutIdl);
    const code = TypeCompiler.Code(methods['OrderService.getOrder'].result, references);
    expect(code).toContain('return function check(value)');
  });
});

describe('validators', () => {
  const table = compileValidators(checkoutIdl);

  it('one validator per parameter and one for the result of every method', () => {
    expect(Object.keys(table)).toStrictEqual([
      'CatalogService.listProducts',
      'CatalogService.getProduct',
      'CartService.addToCart',
      'CartService.getCart',
      'CartService.clearCart',
      'OrderService.createOrder',
      'OrderService.getOrder',
      'OrderService.watchOrder',
    ]);
    expect(table['CatalogService.listProducts'].params).toHaveLength(0);
    expect(table['CartService.addToCart'].params).toHaveLength(1);
  });

  it('enforces docs/protocol.md "Validation"', () => {
    const item = table['CartService.addToCart'].params[0];
    expect(item.check({ productId: 'p', quantity: 5 })).toBe(true);
    expect(item.check({ productId: 'p', quantity: 5, cartId: null })).toBe(true);
    expect(item.check({ productId: 'p', quantity: 5, unknown: [1] })).toBe(true);
    expect(item.check({ productId: 'p', quantity: 5.5 })).toBe(false);
    expect(item.check({ productId: 'p', quantity: 2 ** 53 })).toBe(false);
    expect(item.check({ productId: null, quantity: 1 })).toBe(false);
    expect(item.check({ productId: 'p', quantity: '1' })).toBe(false);
    const cart = table['CartService.getCart'].result;
    expect(cart.check(null)).toBe(true);
    expect(cart.check({ cartId: 'c', items: [{ productId: 'p', quantity: 1, price: Infinity }], subtotal: 1 })).toBe(false);
    expect(table['CartService.clearCart'].result.check(1)).toBe(false);
    const order = table['OrderService.getOrder'].result;
    const validOrder = {
      orderId: 'o',
      cart: { cartId: 'c', items: [], subtotal: 0 },
      shippingAddress: { street: 's', city: 'c', state: 's', zipCode: 'z', country: 'c' },
      paymentMethod: 'paypal',
      status: 'pending',
      total: 0,
      createdAt: 1700000000,
    };
    expect(order.check(validOrder)).toBe(true);
    expect(order.check({ ...validOrder, status: 'Pending' })).toBe(false);
    expect(order.errors({ ...validOrder, status: 'Pending' })).toStrictEqual([
      { path: ['status'], message: 'expected one of: pending, paid, shipped, delivered, cancelled' },
    ]);
    expect(order.errors(validOrder)).toStrictEqual([]);
  });

  it('recursive structs validate at any depth', () => {
    const tree = compileValidators(calcIdl)['Calc.echoTree'].params[0];
    let deep: { label: string; children?: unknown[] } = { label: 'leaf' };
    for (let i = 0; i < 50; i++) deep = { label: `n${i}`, children: [deep] };
    expect(tree.check(deep)).toBe(true);
  });

  it('typeboxValidator explains only on failure, and caps the list', () => {
    let explained = 0;
    const schema = Type.Array(Type.Integer());
    const validator = typeboxValidator(
      (value) => {
        explained++;
        return Array.isArray(value) && value.every(Number.isInteger);
      },
      schema,
      [],
    );
    expect(validator.errors([1, 2])).toStrictEqual([]);
    expect(explained).toBe(1);
    expect(validator.errors(Array.from({ length: 500 }, () => 'x'))).toHaveLength(100);
  });

  it('falls back to TypeBox messages for schema kinds outside the IDL mapping', () => {
    const schema = Type.String({ minLength: 3 });
    const validator = typeboxValidator((value) => typeof value === 'string' && value.length >= 3, schema, []);
    const [issue] = validator.errors('ab');
    expect(issue.path).toStrictEqual([]);
    expect(issue.message.length).toBeGreaterThan(0);
  });
});

describe('formatPath', () => {
  it('writes JavaScript-like paths', () => {
    expect(formatPath(['params', 0, 'items', 2, 'quantity'])).toBe('params[0].items[2].quantity');
    expect(formatPath(['params', 'request', 'a b', '"'])).toBe('params.request["a b"]["\\""]');
    expect(formatPath([])).toBe('');
  });
});
