import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startJaysonCheckout, type JaysonCheckoutServer } from './jayson-checkout.js';
import { type CheckoutServiceModule, playgroundModules, type PlaygroundModules } from './harness.js';

let modules: PlaygroundModules;
let jayson: JaysonCheckoutServer;

beforeAll(async () => {
  modules = await playgroundModules();
  const service = await modules.load<CheckoutServiceModule>('/service/checkout-service.ts');
  jayson = await startJaysonCheckout(service.createCheckoutService());
});
afterAll(async () => {
  await jayson?.close();
  await modules?.close();
});

async function post(body: unknown): Promise<{ status: number; text: string }> {
  const response = await fetch(jayson.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

describe('the jayson checkout server the client and conformance tests use', () => {
  it('serves the playground service by positional and named params, null for absent results', async () => {
    const list = JSON.parse((await post({ jsonrpc: '2.0', id: 1, method: 'CatalogService.listProducts', params: [] })).text);
    expect(list.result.length).toBeGreaterThan(0);
    const missing = JSON.parse(
      (await post({ jsonrpc: '2.0', id: 2, method: 'CatalogService.getProduct', params: { productId: 'zz' } })).text,
    );
    expect(missing).toStrictEqual({ jsonrpc: '2.0', id: 2, result: null });
  });

  it('answers declared errors with their code', async () => {
    const request = {
      cartId: 'none',
      shippingAddress: { street: 'a', city: 'b', state: 'c', zipCode: '1', country: 'x' },
      paymentMethod: 'paypal',
    };
    const answer = JSON.parse((await post({ jsonrpc: '2.0', id: 3, method: 'OrderService.createOrder', params: [request] })).text);
    expect(answer.error.code).toBe(1001);
    expect(answer.error.message).toMatch(/^CartNotFound: /);
  });

  it('keeps the protocol differences the tests look for', async () => {
    expect(await post('{broken')).toMatchObject({ status: 400 });
    expect(await post({ jsonrpc: '2.0', id: null, method: 'CatalogService.listProducts', params: [] })).toMatchObject({ status: 204 });
  });
});
