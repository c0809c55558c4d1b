import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { canonicalContractText, compileIdl, parseIdl, printIdl, toIdlJson, tryCompileIdl } from '../../src/index.js';

// The family's reference checkout.idl, byte for byte, as the family publishes it (the playground's
// copy has since grown constructs outside the family's common subset).
const CHECKOUT_PATH = new URL('./fixtures/family/checkout.idl', import.meta.url);
const checkoutSource = readFileSync(CHECKOUT_PATH, 'utf8');

const S = { builtIn: 'string' } as const;
const I = { builtIn: 'int' } as const;
const F = { builtIn: 'float' } as const;
const B = { builtIn: 'bool' } as const;
const U = (name: string) => ({ userDefined: name });

// Written by hand from the rules in docs/idl.md "JSON form and checksum" (not copied from output);
// its hash is the family's own test vector (test/idl/checksum.test.ts).
const CANONICAL = [
  'namespace:checkout',
  'interface:checkout.CartService',
  '  method:addToCart',
  '    param:request:checkout.AddToCartRequest',
  '    returns:checkout.Cart',
  '  method:clearCart',
  '    param:cartId:string',
  '    returns:bool',
  '  method:getCart',
  '    param:cartId:string',
  '    returns:checkout.Cart',
  '    returnOptional:true',
  'interface:checkout.CatalogService',
  '  method:getProduct',
  '    param:productId:string',
  '    returns:checkout.Product',
  '    returnOptional:true',
  '  method:listProducts',
  '    returns:[]checkout.Product',
  'interface:checkout.OrderService',
  '  method:createOrder',
  '    param:request:checkout.CreateOrderRequest',
  '    returns:checkout.CheckoutResponse',
  '    raises:CartEmpty',
  '    raises:CartNotFound',
  '    raises:InvalidAddress',
  '    raises:OutOfStock',
  '    raises:PaymentFailed',
  '  method:getOrder',
  '    param:orderId:string',
  '    returns:checkout.Order',
  '    returnOptional:true',
  'struct:checkout.AddToCartRequest',
  '  field:cartId:string:optional',
  '  field:productId:string',
  '  field:quantity:int',
  'struct:checkout.Address',
  '  field:city:string',
  '  field:country:string',
  '  field:state:string',
  '  field:street:string',
  '  field:zipCode:string',
  'struct:checkout.Cart',
  '  field:cartId:string',
  '  field:items:[]checkout.CartItem',
  '  field:subtotal:float',
  'struct:checkout.CartItem',
  '  field:price:float',
  '  field:productId:string',
  '  field:quantity:int',
  'struct:checkout.CheckoutResponse',
  '  field:message:string:optional',
  '  field:orderId:string',
  'struct:checkout.CreateOrderRequest',
  '  field:cartId:string',
  '  field:paymentMethod:checkout.PaymentMethod',
  '  field:shippingAddress:checkout.Address',
  'struct:checkout.Order',
  '  field:cart:checkout.Cart',
  '  field:createdAt:int',
  '  field:orderId:string',
  '  field:paymentMethod:checkout.PaymentMethod',
  '  field:shippingAddress:checkout.Address',
  '  field:status:checkout.OrderStatus',
  '  field:total:float',
  'struct:checkout.Product',
  '  field:description:string',
  '  field:imageUrl:string:optional',
  '  field:name:string',
  '  field:price:float',
  '  field:productId:string',
  '  field:stock:int',
  'enum:checkout.OrderStatus',
  '  value:cancelled',
  '  value:delivered',
  '  value:paid',
  '  value:pending',
  '  value:shipped',
  'enum:checkout.PaymentMethod',
  '  value:apple_pay',
  '  value:credit_card',
  '  value:debit_card',
  '  value:paypal',
  'error:checkout.CartEmpty:1002',
  'error:checkout.CartNotFound:1001',
  'error:checkout.InvalidAddress:1005',
  'error:checkout.OutOfStock:1004',
  'error:checkout.PaymentFailed:1003',
  '',
].join('\n');

const EXPECTED_JSON = {
  rootNamespace: 'checkout',
  checksum: createHash('sha256').update(CANONICAL).digest('base64url'),
  interfaces: [
    {
      name: 'CatalogService',
      namespace: 'checkout',
      methods: [
        { name: 'listProducts', comment: 'All available products.', returnType: { array: U('Product') } },
        {
          name: 'getProduct',
          comment: 'One product, or null when the id is unknown.',
          parameters: [{ name: 'productId', type: S }],
          returnType: U('Product'),
          returnOptional: true,
        },
      ],
    },
    {
      name: 'CartService',
      namespace: 'checkout',
      methods: [
        {
          name: 'addToCart',
          comment: 'Adds an item; creates the cart when cartId is absent or unknown.',
          parameters: [{ name: 'request', type: U('AddToCartRequest') }],
          returnType: U('Cart'),
        },
        {
          name: 'getCart',
          comment: 'The cart, or null when the id is unknown.',
          parameters: [{ name: 'cartId', type: S }],
          returnType: U('Cart'),
          returnOptional: true,
        },
        {
          name: 'clearCart',
          comment: 'Empties the cart; false when it does not exist.',
          parameters: [{ name: 'cartId', type: S }],
          returnType: B,
        },
      ],
    },
    {
      name: 'OrderService',
      namespace: 'checkout',
      methods: [
        {
          name: 'createOrder',
          comment: 'Turns a cart into a pending order.',
          parameters: [{ name: 'request', type: U('CreateOrderRequest') }],
          returnType: U('CheckoutResponse'),
          raises: ['CartNotFound', 'CartEmpty', 'PaymentFailed', 'OutOfStock', 'InvalidAddress'],
        },
        {
          name: 'getOrder',
          comment: 'The order, or null when the id is unknown.',
          parameters: [{ name: 'orderId', type: S }],
          returnType: U('Order'),
          returnOptional: true,
        },
      ],
    },
  ],
  structs: [
    {
      name: 'Product',
      namespace: 'checkout',
      comment: 'An item that can be bought.',
      fields: [
        { name: 'productId', type: S },
        { name: 'name', type: S },
        { name: 'description', type: S },
        { name: 'price', type: F },
        { name: 'stock', type: I },
        { name: 'imageUrl', type: S, optional: true },
      ],
    },
    {
      name: 'CartItem',
      namespace: 'checkout',
      comment: 'One line of a cart; price is the product price when it was added.',
      fields: [
        { name: 'productId', type: S },
        { name: 'quantity', type: I },
        { name: 'price', type: F },
      ],
    },
    {
      name: 'Cart',
      namespace: 'checkout',
      fields: [
        { name: 'cartId', type: S },
        { name: 'items', type: { array: U('CartItem') } },
        { name: 'subtotal', type: F, comment: 'Sum of price times quantity over all items.' },
      ],
    },
    {
      name: 'Address',
      namespace: 'checkout',
      fields: ['street', 'city', 'state', 'zipCode', 'country'].map((name) => ({ name, type: S })),
    },
    {
      name: 'Order',
      namespace: 'checkout',
      fields: [
        { name: 'orderId', type: S },
        { name: 'cart', type: U('Cart') },
        { name: 'shippingAddress', type: U('Address') },
        { name: 'paymentMethod', type: U('PaymentMethod') },
        { name: 'status', type: U('OrderStatus') },
        { name: 'total', type: F },
        { name: 'createdAt', type: I, comment: 'Unix time in seconds.' },
      ],
    },
    {
      name: 'AddToCartRequest',
      namespace: 'checkout',
      fields: [
        { name: 'cartId', type: S, optional: true, comment: 'Absent: a new cart is created.' },
        { name: 'productId', type: S },
        { name: 'quantity', type: I },
      ],
    },
    {
      name: 'CreateOrderRequest',
      namespace: 'checkout',
      fields: [
        { name: 'cartId', type: S },
        { name: 'shippingAddress', type: U('Address') },
        { name: 'paymentMethod', type: U('PaymentMethod') },
      ],
    },
    {
      name: 'CheckoutResponse',
      namespace: 'checkout',
      fields: [
        { name: 'orderId', type: S },
        { name: 'message', type: S, optional: true },
      ],
    },
  ],
  enums: [
    {
      name: 'OrderStatus',
      namespace: 'checkout',
      comment: 'Lifecycle of an order. New orders start as pending.',
      values: ['pending', 'paid', 'shipped', 'delivered', 'cancelled'].map((name) => ({ name })),
    },
    {
      name: 'PaymentMethod',
      namespace: 'checkout',
      comment: 'How the customer pays.',
      values: ['credit_card', 'debit_card', 'paypal', 'apple_pay'].map((name) => ({ name })),
    },
  ],
  errors: [
    { name: 'checkout.CartNotFound', namespace: 'checkout', code: 1001, message: 'cart does not exist' },
    { name: 'checkout.CartEmpty', namespace: 'checkout', code: 1002, message: 'cart has no items' },
    { name: 'checkout.PaymentFailed', namespace: 'checkout', code: 1003, message: 'payment method rejected' },
    { name: 'checkout.OutOfStock', namespace: 'checkout', code: 1004, message: 'insufficient inventory' },
    { name: 'checkout.InvalidAddress', namespace: 'checkout', code: 1005, message: 'shipping address validation failed' },
  ],
};

describe('checkout.idl (the reference service)', () => {
  test('parses and checks without diagnostics', () => {
    const result = tryCompileIdl(checkoutSource, 'checkout.idl');
    expect(result.diagnostics).toEqual([]);
    expect(result.model?.namespace).toBe('checkout');
    expect(result.model?.namespaceComment).toBe('The checkout reference service: a product catalog, shopping carts and orders.');
  });

  test('its canonical contract text is the documented form', () => {
    expect(canonicalContractText(compileIdl(checkoutSource, 'checkout.idl'))).toBe(CANONICAL);
  });

  test('its JSON form matches docs/protocol.md §2 member by member', () => {
    const json = toIdlJson(compileIdl(checkoutSource, 'checkout.idl'));
    expect(json).toEqual(EXPECTED_JSON);
    // Key order is part of what people read in `rpc-idl` answers.
    expect(Object.keys(json)).toEqual(['rootNamespace', 'checksum', 'interfaces', 'structs', 'enums', 'errors']);
    expect(Object.keys(json.interfaces![2].methods![0])).toEqual(['name', 'comment', 'parameters', 'returnType', 'raises']);
  });

  test('the checksum ignores comments, whitespace and declaration order but not the contract', () => {
    const base = toIdlJson(compileIdl(checkoutSource, 'checkout.idl')).checksum;
    const withoutComments = checkoutSource.replace(/^\s*\/\/.*\n/gm, '').replace(/ {4}/g, '\t');
    expect(toIdlJson(compileIdl(withoutComments, 'checkout.idl')).checksum).toBe(base);

    const file = parseIdl(checkoutSource, 'checkout.idl');
    const reordered = printIdl({ ...file, declarations: [...file.declarations].reverse() });
    expect(toIdlJson(compileIdl(reordered, 'checkout.idl')).checksum).toBe(base);

    const changed = checkoutSource.replace('imageUrl     string  [optional]', 'imageUrl     string');
    expect(toIdlJson(compileIdl(changed, 'checkout.idl')).checksum).not.toBe(base);
    const renamedValue = checkoutSource.replace('apple_pay', 'google_pay');
    expect(toIdlJson(compileIdl(renamedValue, 'checkout.idl')).checksum).not.toBe(base);
  });

  test('printing the parsed file gives back the reference text exactly', () => {
    expect(printIdl(parseIdl(checkoutSource, 'checkout.idl'))).toBe(checkoutSource);
  });
});
