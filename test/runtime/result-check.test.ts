/**
 * The client's opt-in check of results (`validateResults`, runtime/result-check.ts): a generated
 * client over a server that answers what the IDL does not say, with the generated module's own
 * `validators` table.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { BatchingTransport, HttpTransport, validateResults, type Transport } from '../../runtime/client.js';
import { compileValidators } from '../../runtime/validation.js';
import { generateModule } from '../../src/codegen/index.js';
import { compileIdl } from '../../src/idl/index.js';
import { checkoutIdl } from './fixtures/checkout-idl.js';
import { failure } from './helpers.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');

interface CartClient {
  clearCart(cartId: string): Promise<unknown>;
  getCart(cartId: string): Promise<unknown>;
}
let generated: { validators: Parameters<typeof validateResults>[0]; CartServiceClient: new (transport: Transport) => CartClient };

beforeAll(async () => {
  const model = compileIdl(readFileSync(path.join(repoRoot, 'playground/checkout.idl'), 'utf8'), 'checkout.idl');
  const { js } = generateModule(model, {
    runtimeImport: path.join(repoRoot, 'runtime/index.ts'),
    runtimeClientImport: path.join(repoRoot, 'runtime/client.ts'),
    sourceFile: 'checkout.idl',
  });
  const dir = path.join(repoRoot, 'test-output/runtime/result-check');
  mkdirSync(dir, { recursive: true });
  const out = path.join(dir, `checkout-${process.pid}.mjs`);
  writeFileSync(out, js);
  generated = await import(pathToFileURL(out).href);
});

/** A fetch that answers every call (alone or in a batch) with `results[method]`. */
function answering(results: Record<string, unknown>): typeof fetch {
  return async (_input, init) => {
    const request = JSON.parse(String(init?.body)) as { method: string; id: number } | { method: string; id: number }[];
    const answer = (call: { method: string; id: number }) => ({ jsonrpc: '2.0', result: results[call.method], id: call.id });
    const body = Array.isArray(request) ? request.map(answer) : answer(request);
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  };
}

const badCart = { cartId: 'c1', items: [{ productId: 'p1', quantity: 'two', price: 9.5 }], subtotal: 19 };

describe('validateResults', () => {
  it('fails a call whose result is not what the IDL says, naming the method and the JSON path', async () => {
    const fetch = answering({ 'CartService.clearCart': 'not-a-bool', 'CartService.getCart': badCart });
    const carts = new generated.CartServiceClient(
      new HttpTransport('http://x/rpc', { fetch, interceptors: [validateResults(generated.validators)] }),
    );
    const notBool = await failure(carts.clearCart('c1'));
    expect(notBool.code).toBe(-32000);
    expect(notBool.message).toBe('Transport error: invalid result of CartService.clearCart: result: expected boolean');
    expect(notBool.data).toStrictEqual({ errors: [{ path: 'result', message: 'expected boolean' }] });
    const nested = await failure(carts.getCart('c1'));
    expect(nested.message).toBe('Transport error: invalid result of CartService.getCart: result.items[0].quantity: expected integer');
  });

  it('passes results that fit, and is off unless asked for', async () => {
    const fetch = answering({ 'CartService.clearCart': true, 'CartService.getCart': null });
    const checked = new generated.CartServiceClient(
      new HttpTransport('http://x/rpc', { fetch, interceptors: [validateResults(generated.validators)] }),
    );
    expect(await checked.clearCart('c1')).toBe(true);
    expect(await checked.getCart('c1')).toBeNull();
    const unchecked = new generated.CartServiceClient(
      new HttpTransport('http://x/rpc', { fetch: answering({ 'CartService.clearCart': 'not-a-bool' }) }),
    );
    expect(await unchecked.clearCart('c1')).toBe('not-a-bool');
  });

  it('checks each call of a batch; methods the table does not list pass unchecked', async () => {
    const fetch = answering({ 'CartService.clearCart': 'not-a-bool', 'CartService.getCart': badCart, 'Other.method': 'anything' });
    // The runtime's validators (built from the IDL JSON at run time) fit as well as generated ones.
    const transport = new BatchingTransport('http://x/rpc', { fetch, interceptors: [validateResults(compileValidators(checkoutIdl))] });
    const [clear, cart, other] = await Promise.allSettled([
      transport.call('CartService.clearCart', ['c1']),
      transport.call('CartService.getCart', ['c1']),
      transport.call('Other.method', []),
    ]);
    expect((clear as PromiseRejectedResult).reason.message).toBe(
      'Transport error: invalid result of CartService.clearCart: result: expected boolean',
    );
    expect((cart as PromiseRejectedResult).reason.message).toMatch(
      /^Transport error: invalid result of CartService\.getCart: result\.items\[0\]\.quantity: /,
    );
    expect(other).toStrictEqual({ status: 'fulfilled', value: 'anything' });
  });
});
