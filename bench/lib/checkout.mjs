/**
 * Checkout fixtures shared by the suites: the reference IDL's path, the JSON-RPC bodies the load
 * generator sends, payloads for the validation suite, and hand-written JSON Schemas for Ajv.
 */
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
/** The reference IDL, as the playground serves it. */
export const checkoutIdlPath = path.join(repoRoot, 'playground', 'checkout.idl');

/** Products for the validation payloads. */
export const benchProducts = Array.from({ length: 20 }, (_, i) => ({
  productId: `p-${100 + i}`,
  name: `Product ${100 + i}`,
  description: 'A sturdy thing that a benchmark can buy over and over again.',
  price: 9.99 + i,
  stock: 1000,
  imageUrl: `https://example.com/images/p-${100 + i}.png`,
}));

/** How many products the servers' catalog holds (the playground's, then made-up ones). */
export const catalogSize = 100;

/**
 * The catalog the servers run on: the playground's products first (so `getProduct('kettle')` and
 * `addToCart('grinder')` answer as in the playground), then made-up ones up to `catalogSize`, every
 * third without its optional `imageUrl`, some names with characters JSON must escape.
 */
export function benchCatalog(playgroundCatalog) {
  const extra = Array.from({ length: catalogSize - playgroundCatalog.length }, (_, i) => {
    const product = {
      productId: `bench-${i}`,
      name: i % 10 === 0 ? `Mug "Classic" No. ${i}` : `Bench product ${i}`,
      description: `A sturdy thing number ${i}, which a benchmark lists over and over again.`,
      price: 5 + (i % 40) * 1.25,
      stock: 10 + i,
    };
    return i % 3 === 0 ? product : { ...product, imageUrl: `/images/bench-${i}.svg` };
  });
  return [...playgroundCatalog, ...extra];
}

const getProductCall = (id) => ({
  jsonrpc: '2.0',
  method: 'CatalogService.getProduct',
  params: ['kettle'],
  id,
});
// cartId null: "an absent optional value is sent as null by clients", and a new cart each time keeps
// the response the same size on every request.
const addToCartCall = (id) => ({
  jsonrpc: '2.0',
  method: 'CartService.addToCart',
  params: [{ cartId: null, productId: 'grinder', quantity: 2 }],
  id,
});

/** The request bodies of the server suites, by call name. */
export const serverCalls = {
  getProduct: JSON.stringify(getProductCall(1)),
  addToCart: JSON.stringify(addToCartCall(1)),
  // The whole catalog of `catalogSize` products: a large result, where serializing it dominates.
  listProducts: JSON.stringify({ jsonrpc: '2.0', method: 'CatalogService.listProducts', params: [], id: 1 }),
  batch10: JSON.stringify(Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? getProductCall(i + 1) : addToCartCall(i + 1)))),
};

/**
 * An answer as comparable text: keys sorted (servers order members differently) and generated
 * cart ids masked (they differ between servers); everything else must match.
 */
export function comparable(value) {
  return JSON.stringify(value, (key, v) => {
    if (key === 'cartId') return '<id>';
    if (v && typeof v === 'object' && !Array.isArray(v)) return Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)));
    return v;
  });
}

const address = {
  street: '1 Main Street',
  city: 'Springfield',
  state: 'OR',
  zipCode: '97477',
  country: 'US',
};

const cartOfTen = {
  cartId: 'cart-42',
  items: benchProducts.slice(0, 10).map((p, i) => ({ productId: p.productId, quantity: i + 1, price: p.price })),
  subtotal: 1234.5,
};

const order = {
  orderId: 'order-7',
  cart: cartOfTen,
  shippingAddress: address,
  paymentMethod: 'paypal',
  status: 'pending',
  total: 1234.5,
  createdAt: 1_763_800_000,
};

/**
 * Validation cases: which validator of the server checks the value (a method's parameter or its
 * result), the JSON Schema type Ajv checks it with, the value, and whether it is valid. Invalid
 * values carry several problems, as a broken client would send.
 */
export const validationCases = [
  {
    name: 'AddToCartRequest valid',
    method: 'CartService.addToCart',
    param: 0,
    type: 'AddToCartRequest',
    valid: true,
    value: { cartId: null, productId: 'p-107', quantity: 2 },
  },
  {
    name: 'CreateOrderRequest valid',
    method: 'OrderService.createOrder',
    param: 0,
    type: 'CreateOrderRequest',
    valid: true,
    value: { cartId: 'cart-42', shippingAddress: address, paymentMethod: 'credit_card' },
  },
  { name: 'Order (10-item cart) valid', method: 'OrderService.getOrder', result: true, type: 'Order', valid: true, value: order },
  {
    name: 'CreateOrderRequest invalid',
    method: 'OrderService.createOrder',
    param: 0,
    type: 'CreateOrderRequest',
    valid: false,
    value: {
      cartId: 'cart-42',
      shippingAddress: { street: '1 Main Street', city: 'Springfield', state: 'OR', country: 7 },
      paymentMethod: 'cash',
    },
  },
  {
    name: 'Order (10-item cart) invalid',
    method: 'OrderService.getOrder',
    result: true,
    type: 'Order',
    valid: false,
    value: {
      ...order,
      cart: { ...cartOfTen, items: cartOfTen.items.map((item, i) => (i === 7 ? { ...item, quantity: '3' } : item)) },
      status: 'lost',
    },
  },
];

const int = { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 };
const float = { type: 'number' };
const string = { type: 'string' };
const ref = (name) => ({ $ref: `#/definitions/${name}` });

/**
 * JSON Schemas for Ajv, written by hand the way a user of Ajv would, with the IDL's rules: optional
 * fields may be absent or null, ints are whole and within +-(2^53-1), unknown fields are accepted.
 */
export const checkoutJsonSchemas = {
  OrderStatus: { type: 'string', enum: ['pending', 'paid', 'shipped', 'delivered', 'cancelled'] },
  PaymentMethod: { type: 'string', enum: ['credit_card', 'debit_card', 'paypal', 'apple_pay'] },
  CartItem: {
    type: 'object',
    properties: { productId: string, quantity: int, price: float },
    required: ['productId', 'quantity', 'price'],
  },
  Cart: {
    type: 'object',
    properties: { cartId: string, items: { type: 'array', items: ref('CartItem') }, subtotal: float },
    required: ['cartId', 'items', 'subtotal'],
  },
  Address: {
    type: 'object',
    properties: { street: string, city: string, state: string, zipCode: string, country: string },
    required: ['street', 'city', 'state', 'zipCode', 'country'],
  },
  Order: {
    type: 'object',
    properties: {
      orderId: string,
      cart: ref('Cart'),
      shippingAddress: ref('Address'),
      paymentMethod: ref('PaymentMethod'),
      status: ref('OrderStatus'),
      total: float,
      createdAt: int,
    },
    required: ['orderId', 'cart', 'shippingAddress', 'paymentMethod', 'status', 'total', 'createdAt'],
  },
  AddToCartRequest: {
    type: 'object',
    properties: { cartId: { type: ['string', 'null'] }, productId: string, quantity: int },
    required: ['productId', 'quantity'],
  },
  CreateOrderRequest: {
    type: 'object',
    properties: { cartId: string, shippingAddress: ref('Address'), paymentMethod: ref('PaymentMethod') },
    required: ['cartId', 'shippingAddress', 'paymentMethod'],
  },
};
