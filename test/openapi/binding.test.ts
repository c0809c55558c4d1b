/**
 * The OpenAPI document describes what the runtime really serves: calls made the way the document
 * says (POST /<Interface>/<method> with a JSON object of named parameters) reach a runtime server
 * built from the same IDL, and every answer (results, null results, declared errors, invalid
 * params) has a status the operation lists and a body its schema accepts.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFetchHandler, createRpcServer, DeclaredError } from '../../runtime/index.js';
import { compileIdl } from '../../src/idl/compile.js';
import { toIdlJson } from '../../src/idl/json.js';
import { idlToOpenApi } from '../../src/openapi/index.js';

const model = compileIdl(readFileSync(join(import.meta.dirname, '../../playground/checkout.idl'), 'utf8'), 'checkout.idl');
const document = idlToOpenApi([model], { version: '3.1' }).document as Record<string, any>;

class CartNotFoundError extends DeclaredError {
  static readonly code = 1001;
  static readonly errorName = 'CartNotFound';
  static readonly defaultMessage = 'cart does not exist';
}

const product = { productId: 'p1', name: 'Pen', description: 'Blue', price: 1.5, stock: 3 };
const cart = { cartId: 'c1', items: [{ productId: 'p1', quantity: 2, price: 1.5 }], subtotal: 3 };
const server = createRpcServer({
  idl: toIdlJson(model),
  logger: { error() {}, warn() {} } as never,
  handlers: {
    CatalogService: {
      listProducts: () => [product, { ...product, productId: 'p2', imageUrl: 'https://example.test/p2.png' }],
      getProduct: (id: string) => (id === 'p1' ? product : null),
    },
    CartService: {
      addToCart: () => cart,
      getCart: (id: string) => (id === 'c1' ? cart : null),
      clearCart: () => true,
    },
    OrderService: {
      createOrder: () => {
        throw new CartNotFoundError();
      },
      getOrder: () => null,
      // A stream method, answered as text/event-stream (test/openapi/streams.test.ts checks its document).
      async *watchOrder() {},
    },
  },
});
const fetchHandler = createFetchHandler(server);
const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });

/** Calls an operation of the document and checks the answer against the document. */
async function call(path: string, params: unknown): Promise<{ status: number; body: unknown }> {
  const operation = document.paths[path]?.post;
  expect(operation, `the document has POST ${path}`).toBeDefined();
  const response = await fetchHandler(
    new Request(`http://127.0.0.1${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(params),
    }),
  );
  const body: unknown = JSON.parse(await response.text());
  const declared = operation.responses[String(response.status)];
  expect(declared, `POST ${path} answered ${response.status}, which the document does not list`).toBeDefined();
  const schema = declared.content['application/json'].schema;
  // The response schema with the document's components beside it, so its $refs resolve.
  const validate = ajv.compile({ ...schema, components: document.components });
  expect(validate(body), `${path} ${response.status}: ${ajv.errorsText(validate.errors)}`).toBe(true);
  return { status: response.status, body };
}

describe('the OpenAPI document matches the runtime binding', () => {
  it('results, null results and empty parameter lists', async () => {
    expect((await call('/CatalogService/listProducts', {})).status).toBe(200);
    expect(await call('/CatalogService/getProduct', { productId: 'p1' })).toEqual({ status: 200, body: product });
    expect(await call('/CatalogService/getProduct', { productId: 'nope' })).toEqual({ status: 200, body: null });
    expect((await call('/CartService/addToCart', { request: { cartId: null, productId: 'p1', quantity: 2 } })).status).toBe(200);
    expect(await call('/CartService/clearCart', { cartId: 'c1' })).toEqual({ status: 200, body: true });
    expect(await call('/OrderService/getOrder', { orderId: 'o1' })).toEqual({ status: 200, body: null });
    // The schemas used above do reject wrong bodies.
    const listSchema = document.paths['/CatalogService/listProducts'].post.responses['200'].content['application/json'].schema;
    expect(ajv.compile({ ...listSchema, components: document.components })([{ productId: 'p1' }])).toBe(false);
  });

  it('declared errors answer with a listed status and code', async () => {
    const address = { street: 's', city: 'c', state: 'st', zipCode: 'z', country: 'x' };
    const { status, body } = await call('/OrderService/createOrder', {
      request: { cartId: 'c1', shippingAddress: address, paymentMethod: 'paypal' },
    });
    expect(status).toBe(422);
    expect(body).toMatchObject({ code: 1001, message: 'CartNotFound: cart does not exist' });
  });

  it('invalid parameters answer with a listed status and the error schema', async () => {
    const { status, body } = await call('/CartService/getCart', { cartId: 42 });
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: -32602 });
  });
});
