/**
 * The document says what the server does: Stoplight Prism, as a validating proxy (`--errors`), stands
 * in front of the real checkout server with the 3.0 and the 3.1 document of checkout.idl, and every
 * method is called through it: results, `null` results, declared errors and invalid params. Prism
 * answers 500 when a response breaks the document and 422 when a request does; the server answers
 * 400 to every request the document forbids. The same for a server of the three-file fixture
 * (shop.idl importing common.idl and inventory.idl): Prism routes `/inventory.InventoryService/...`
 * and resolves the qualified component names (`common.Money`).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RpcError } from '../../runtime/errors.js';
import { compileIdl } from '../../src/idl/compile.js';
import type { IdlModel } from '../../src/idl/model.js';
import { toIdlJson } from '../../src/idl/json.js';
import { idlToOpenApi, type OpenApiVersion } from '../../src/openapi/index.js';
import { freePort, waitForOutput } from '../child-process.js';
import { post, startServer, type TestServer } from '../runtime/helpers.js';

const root = join(import.meta.dirname, '..', '..');
const prismBin = join(root, 'node_modules', '.bin', 'prism');
const model = compileIdl(readFileSync(join(root, 'playground', 'checkout.idl'), 'utf8'), 'checkout.idl');
const shopFile = join(root, 'test', 'idl', 'fixtures', 'multi-file', 'shop.idl');
const shopModel = compileIdl(readFileSync(shopFile, 'utf8'), shopFile);
const versions: OpenApiVersion[] = ['3.0', '3.1'];

let server: TestServer;
let shopServer: TestServer;
let folder = '';
const proxies = new Map<string, { child: ChildProcess; url: string }>();

/** Starts `prism proxy` for the document of `idl` in front of `target` and resolves once it listens. */
async function startPrism(
  name: string,
  idl: IdlModel,
  version: OpenApiVersion,
  target: string,
): Promise<{ child: ChildProcess; url: string }> {
  const documentPath = join(folder, `${name}-${version}.json`);
  writeFileSync(documentPath, JSON.stringify(idlToOpenApi([idl], { version }).document));
  const port = await freePort();
  const child = spawn(prismBin, ['proxy', documentPath, target, '--errors', '-p', String(port), '-h', '127.0.0.1'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await waitForOutput(child, /Prism is listening/, 60_000, 'prism');
  return { child, url: `http://127.0.0.1:${port}` };
}

const stock = { sku: 'mug', price: { amount: 950, currency: 'EUR' }, count: 3 };
/** The handlers of the three-file fixture: one article, `common.NotFound` (3001) for any other. */
const shopHandlers = {
  OrderService: {
    place: () => ({ orderId: 'o1', lines: [{ stock, quantity: 1 }], total: stock.price }),
    find: () => null,
    totals: (currency: string) => ({ all: { amount: 0, currency } }),
  },
  'inventory.InventoryService': {
    getStock(sku: string) {
      if (sku !== stock.sku) throw new RpcError(3001, `NotFound: no article ${sku}`);
      return stock;
    },
    list: () => [{ ...stock, reserved: null }],
  },
};

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'prism-'));
  server = await startServer();
  shopServer = await startServer({ idl: toIdlJson(shopModel), handlers: shopHandlers });
  const wanted = versions.flatMap((version) => [
    { key: `checkout ${version}`, start: () => startPrism('checkout', model, version, server.url) },
    { key: `shop ${version}`, start: () => startPrism('shop', shopModel, version, shopServer.url) },
  ]);
  const started = await Promise.all(wanted.map(({ start }) => start()));
  for (const [i, { key }] of wanted.entries()) proxies.set(key, started[i]);
}, 120_000);

afterAll(async () => {
  for (const { child } of proxies.values()) child.kill();
  await server?.close();
  await shopServer?.close();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

/** A problem Prism reports itself (a violation of the document) rather than the server's answer. */
function prismProblem(response: { headers: Headers; text: string }): string | undefined {
  const flagged = response.headers.get('content-type')?.includes('application/problem+json') || response.headers.has('sl-violations');
  return flagged ? `${response.headers.get('sl-violations') ?? ''}${response.text}` : undefined;
}

describe.each(versions)('Prism (validating proxy, OpenAPI %s) in front of the checkout server', (version) => {
  const call = (method: string, body: unknown) => post(`${proxies.get(`checkout ${version}`)!.url}/${method}`, body);

  /** Calls through Prism, expects the server's own answer with `status`, nothing flagged. */
  async function expectPassed(method: string, body: unknown, status: number) {
    const response = await call(method, body);
    expect(prismProblem(response), `${method} ${JSON.stringify(body)}`).toBeUndefined();
    expect(response.status, `${method} ${JSON.stringify(body)}: ${response.text}`).toBe(status);
    return response.json;
  }

  it('passes every method, null results included, without a violation', async () => {
    expect(await expectPassed('CatalogService/listProducts', {}, 200)).toHaveLength(2);
    expect(await expectPassed('CatalogService/getProduct', { productId: 'p2' }, 200)).toMatchObject({ productId: 'p2' });
    expect(await expectPassed('CatalogService/getProduct', { productId: 'unknown' }, 200)).toBeNull();
    const cart = await expectPassed('CartService/addToCart', { request: { productId: 'p1', quantity: 2 } }, 200);
    await expectPassed('CartService/addToCart', { request: { cartId: cart.cartId, productId: 'p2', quantity: 1 } }, 200);
    expect(await expectPassed('CartService/getCart', { cartId: cart.cartId }, 200)).toMatchObject({ cartId: cart.cartId });
    expect(await expectPassed('CartService/getCart', { cartId: 'unknown' }, 200)).toBeNull();
    const address = { street: 'Main St 1', city: 'Town', state: 'ST', zipCode: '12345', country: 'XX' };
    const order = await expectPassed(
      'OrderService/createOrder',
      { request: { cartId: cart.cartId, shippingAddress: address, paymentMethod: 'paypal' } },
      200,
    );
    expect(await expectPassed('OrderService/getOrder', { orderId: order.orderId }, 200)).toMatchObject({ status: 'pending' });
    expect(await expectPassed('OrderService/getOrder', { orderId: 'unknown' }, 200)).toBeNull();
    expect(await expectPassed('CartService/clearCart', { cartId: cart.cartId }, 200)).toBe(true);
    expect(await expectPassed('CartService/clearCart', { cartId: 'unknown' }, 200)).toBe(false);
  });

  it('passes declared errors and invalid params the document cannot see (the server answers them)', async () => {
    const address = { street: 'a', city: 'b', state: 'c', zipCode: 'd', country: 'e' };
    const notFound = await expectPassed(
      'OrderService/createOrder',
      { request: { cartId: 'unknown', shippingAddress: address, paymentMethod: 'paypal' } },
      422,
    );
    expect(notFound.code).toBe(1001);
    const cart = await expectPassed('CartService/addToCart', { request: { productId: 'p1', quantity: 1 } }, 200);
    await expectPassed('CartService/clearCart', { cartId: cart.cartId }, 200);
    const empty = await expectPassed(
      'OrderService/createOrder',
      { request: { cartId: cart.cartId, shippingAddress: address, paymentMethod: 'paypal' } },
      422,
    );
    expect(empty.code).toBe(1002);
    const unknownProduct = await expectPassed('CartService/addToCart', { request: { productId: 'nope', quantity: 1 } }, 400);
    expect(unknownProduct.code).toBe(-32602);
  });

  it.each([
    ['an unknown member', 'CatalogService/getProduct', { productId: 'p1', extra: 1 }],
    ['a missing parameter', 'CatalogService/getProduct', {}],
    ['a wrong type', 'CatalogService/getProduct', { productId: 3 }],
    ['an int past 2^53 - 1', 'CartService/addToCart', { request: { productId: 'p1', quantity: 2 ** 53 } }],
    ['an int below -(2^53 - 1)', 'CartService/addToCart', { request: { productId: 'p1', quantity: -(2 ** 53) } }],
    ['an unknown enum value', 'OrderService/createOrder', { request: { cartId: 'c', shippingAddress: {}, paymentMethod: 'cash' } }],
  ])('flags a request with %s as the document forbids it, and the server refuses it with 400', async (_what, method, body) => {
    const response = await call(method, body);
    expect(response.status).toBe(422);
    expect(response.json.type).toBe('https://stoplight.io/prism/errors#UNPROCESSABLE_ENTITY');
    expect(response.json.validation.every((v: { location: string[] }) => v.location[0] === 'body')).toBe(true);
    expect((await post(`${server.url}/${method}`, body)).status).toBe(400);
  });
});

describe.each(versions)('Prism (validating proxy, OpenAPI %s) in front of the server of the three-file fixture', (version) => {
  const call = (method: string, body: unknown) => post(`${proxies.get(`shop ${version}`)!.url}/${method}`, body);

  it.each([
    ['inventory.InventoryService/getStock', { sku: 'mug' }, 200, stock],
    ['inventory.InventoryService/getStock', { sku: 'cup' }, 422, { code: 3001, message: 'NotFound: no article cup' }],
    ['inventory.InventoryService/list', { page: { offset: 0, limit: 10 } }, 200, [{ ...stock, reserved: null }]],
    ['OrderService/totals', { currency: 'USD' }, 200, { all: { amount: 0, currency: 'USD' } }],
    ['OrderService/find', { orderId: 'o1' }, 200, null],
  ])('passes %s %j (%i) without a violation', async (method, body, status, answer) => {
    const response = await call(method, body);
    expect(prismProblem(response), `${method} ${JSON.stringify(body)}`).toBeUndefined();
    expect([response.status, response.json]).toEqual([status, answer]);
  });

  it('flags a request the imported types forbid (a currency common.Currency has not)', async () => {
    const response = await call('OrderService/totals', { currency: 'CHF' });
    expect(response.status).toBe(422);
    expect(response.json.type).toBe('https://stoplight.io/prism/errors#UNPROCESSABLE_ENTITY');
  });
});
