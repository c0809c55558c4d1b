/**
 * unplugin-idl-rpc/runtime/msw: MSW request handlers answering the endpoint (JSON-RPC and the REST
 * binding) with mock values, as a front-end unit test uses them (msw/node intercepting fetch).
 */
import { readFileSync } from 'node:fs';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileIdl, toIdlJson } from '../../src/idl/index.js';
import { HttpTransport } from '../../runtime/client.js';
import { createMswHandlers } from '../../runtime/mock/msw.js';
import { compileValidators } from '../../runtime/validation.js';

const idl = toIdlJson(compileIdl(readFileSync(new URL('../../playground/checkout.idl', import.meta.url), 'utf8'), 'checkout.idl'));
const validators = compileValidators(idl);
/** A real handler object for the one interface left unmocked. */
const CartService = { addToCart: () => ({ cartId: 'c', items: [], subtotal: 0 }), getCart: () => null, clearCart: () => true };
const mockWorker = setupServer(
  ...createMswHandlers(idl, {
    url: 'http://shop.test/rpc',
    seed: 'msw',
    handlers: { CartService },
    interfaces: ['CatalogService', 'OrderService'],
  }),
);

beforeAll(() => mockWorker.listen({ onUnhandledRequest: 'error' }));
afterAll(() => mockWorker.close());

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`http://shop.test/rpc${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

describe('createMswHandlers', () => {
  it('answers the generated client over JSON-RPC with valid, repeatable mock values', async () => {
    const transport = new HttpTransport('http://shop.test/rpc');
    const products = await transport.call('CatalogService.listProducts', []);
    expect(validators['CatalogService.listProducts'].result.errors(products)).toEqual([]);
    expect((products as unknown[]).length).toBeGreaterThan(0);
    expect(await transport.call('CatalogService.listProducts', [])).toEqual(products);
  });

  it('answers the REST binding, keeps real handlers for the interfaces it does not mock', async () => {
    const response = await post('/CatalogService/getProduct', { productId: 'kettle' });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ productId: 'kettle' });
    expect(await (await post('', { jsonrpc: '2.0', id: 1, method: 'CartService.clearCart', params: ['c'] })).json()).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: true,
    });
  });

  it('answers a request carrying x-idlrpc-mock-error with that declared error', async () => {
    const call = {
      jsonrpc: '2.0',
      id: 1,
      method: 'OrderService.createOrder',
      params: [
        { cartId: 'c', shippingAddress: { street: 's', city: 'c', state: 's', zipCode: 'z', country: 'PT' }, paymentMethod: 'paypal' },
      ],
    };
    const answer = await (await post('', call, { 'x-idlrpc-mock-error': 'PaymentFailed' })).json();
    expect(answer).toEqual({ jsonrpc: '2.0', id: 1, error: { code: 1003, message: 'PaymentFailed: payment method rejected' } });
  });
});
