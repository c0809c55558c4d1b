/**
 * Strings that are no text (docs/runtime.md, "Strings that are no text"): NUL characters and lone
 * surrogates. The server accepts them by default, as JSON does; the `textStringsOnly` middleware
 * refuses them with -32602 and the path of each, on both bindings; and a handler failing on a
 * call that brought them (a database refusing NUL) is logged in one line, without a stack.
 */
import { describe, expect, it } from 'vitest';
import { createRpcServer, MAX_ISSUES, nonTextStrings, RpcError, type RpcServerOptions, textStringsOnly } from '../../runtime/index.js';
import { checkoutIdl } from './fixtures/checkout-idl.js';
import { checkoutHandlers } from './helpers.js';

const address = { street: '1 Market Street', city: 'San Francisco', state: 'CA', zipCode: '94105', country: 'US' };

/** A checkout server in process, with what it logged. */
function server(options: Partial<RpcServerOptions> = {}) {
  const logged: unknown[][] = [];
  const service = checkoutHandlers();
  const rpc = createRpcServer({
    idl: checkoutIdl,
    handlers: service.handlers,
    logger: { error: (...args) => void logged.push(args) },
    ...options,
  });
  return { rpc, logged, service };
}

/** POSTs a JSON body (JSON-RPC, or REST to `path`) and gives the status and the parsed answer. */
async function post(rpc: ReturnType<typeof createRpcServer>, body: unknown, path = '/') {
  const answer = await rpc.handleHttp({
    method: 'POST',
    path,
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });
  return { status: answer.status, json: answer.body === '' ? undefined : JSON.parse(answer.body) };
}

const call = (method: string, params: unknown, id = 1) => ({ jsonrpc: '2.0', method, params, id });

describe('nonTextStrings', () => {
  it('finds NUL characters and lone surrogates, in document order, and nothing in text', () => {
    expect(nonTextStrings({ a: 'fine', b: ['x', 'y\u0000'], c: { d: 'lone \ud800 high', e: 'lone \udc00 low' }, f: 'end\u0000' })).toEqual([
      { path: ['b', 1], message: 'holds a NUL character (\\u0000) at index 1' },
      { path: ['c', 'd'], message: 'holds a lone surrogate (\\ud800) at index 5' },
      { path: ['c', 'e'], message: 'holds a lone surrogate (\\udc00) at index 5' },
      { path: ['f'], message: 'holds a NUL character (\\u0000) at index 3' },
    ]);
    expect(nonTextStrings('a pair \ud83d\ude00, a replacement \ufffd, and \u0001')).toEqual([]);
    expect(nonTextStrings('\udc00\ud800')).toEqual([{ path: [], message: 'holds a lone surrogate (\\udc00) at index 0' }]);
    expect(nonTextStrings({ 'key\u0000': 1 })).toEqual([
      { path: ['key\u0000'], message: 'its name holds a NUL character (\\u0000) at index 3' },
    ]);
    expect(nonTextStrings(42)).toEqual([]);
  });

  it('walks values of any depth, cycles and huge arrays without failing, and stops at MAX_ISSUES', () => {
    let deep: unknown = '\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(nonTextStrings(deep)).toHaveLength(1);
    const cyclic: Record<string, unknown> = { name: 'x\u0000' };
    cyclic.self = cyclic;
    expect(nonTextStrings(cyclic)).toEqual([{ path: ['name'], message: 'holds a NUL character (\\u0000) at index 1' }]);
    expect(nonTextStrings(Array.from({ length: 10_000 }, () => '\u0000'))).toHaveLength(MAX_ISSUES);
  });
});

describe('the server without textStringsOnly', () => {
  it('passes NUL characters and lone surrogates to the handler, as JSON carries them', async () => {
    const { rpc, service } = server();
    const answer = await post(rpc, call('CartService.addToCart', [{ cartId: 'a\u0000\ud800', productId: 'p1', quantity: 1 }]));
    expect(answer.json.result.cartId).toBe('a\u0000\ud800');
    expect([...service.carts.keys()]).toEqual(['a\u0000\ud800']);
  });
});

describe('textStringsOnly', () => {
  const { rpc, service } = server({ middleware: [textStringsOnly] });

  it('refuses a positional param holding NUL with -32602 and its path, before the handler', async () => {
    const answer = await post(rpc, call('CartService.getCart', ['victim\u0000']));
    expect(answer.json.error).toEqual({
      code: -32602,
      message: 'Invalid params: params[0]: holds a NUL character (\\u0000) at index 6',
      data: { errors: [{ path: 'params[0]', message: 'holds a NUL character (\\u0000) at index 6' }] },
    });
  });

  it('lists every offending string of named params with its path', async () => {
    const request = { cartId: 'c\ud800', shippingAddress: { ...address, street: '1\u0000', city: 'x\udc00' }, paymentMethod: 'paypal' };
    const answer = await post(rpc, call('OrderService.createOrder', { request }));
    expect(answer.json.error.code).toBe(-32602);
    expect(answer.json.error.message).toBe('Invalid params: params.request.cartId: holds a lone surrogate (\\ud800) at index 1');
    expect(answer.json.error.data.errors.map((error: { path: string }) => error.path)).toEqual([
      'params.request.cartId',
      'params.request.shippingAddress.street',
      'params.request.shippingAddress.city',
    ]);
  });

  it('keeps victim\\ud800, victim\\udc00 and victim\\ufffd apart: the first two are refused, the third is text', async () => {
    for (const cartId of ['victim\ud800', 'victim\udc00']) {
      const answer = await post(rpc, call('CartService.addToCart', [{ cartId, productId: 'p1', quantity: 1 }]));
      expect(answer.json.error.data.errors[0].path).toBe('params[0].cartId');
    }
    const accepted = await post(rpc, call('CartService.addToCart', [{ cartId: 'victim\ufffd', productId: 'p1', quantity: 1 }]));
    expect(accepted.json.result.items).toHaveLength(1);
    expect([...service.carts.keys()]).toEqual(['victim\ufffd']);
  });

  it('answers 400 with the named path on the OpenAPI binding', async () => {
    const answer = await post(rpc, { productId: 'p\u0000' }, '/CatalogService/getProduct');
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ code: -32602, data: { errors: [{ path: 'params.productId' }] } });
  });

  it('lets text through, pairs and U+FFFD included', async () => {
    const answer = await post(rpc, call('CatalogService.getProduct', ['p1 \ud83d\ude00 \ufffd']));
    expect(answer.json).toEqual({ jsonrpc: '2.0', id: 1, result: null });
  });
});

describe('a handler failing on strings that are no text', () => {
  /** Like PostgreSQL: refuses NUL in text with an error that has a stack. */
  const database = {
    read(id: string) {
      if (id.includes('\u0000')) throw new Error('invalid byte sequence for encoding "UTF8": 0x00');
      if (id === 'bug') throw new TypeError('a bug of the service');
      return null;
    },
  };
  const handlers = { ...checkoutHandlers().handlers };
  handlers.CartService = { ...handlers.CartService, getCart: async (cartId: string) => database.read(cartId) };

  it('is logged in one line without the stack, for each of a batch of 100, and answered -32603', async () => {
    const { rpc, logged } = server({ handlers });
    const batch = Array.from({ length: 100 }, (_, i) => call('CartService.getCart', [`victim${i}\u0000`], i));
    const requestBytes = JSON.stringify(batch).length;
    const answer = await post(rpc, batch);

    expect(answer.json).toHaveLength(100);
    for (const response of answer.json) expect(response.error).toEqual({ code: -32603, message: 'Internal error' });
    expect(logged).toHaveLength(100);
    expect(logged[0]).toEqual([
      'CartService.getCart failed on its input (params[0] holds a NUL character (\\u0000) at index 7): "invalid byte sequence for encoding \\"UTF8\\": 0x00"',
      undefined,
    ]);
    // One line of a few hundred characters per call, whatever the handler's error held: with the
    // stack, a batch like this one logged twelve times its own size.
    for (const args of logged) {
      expect(args[1]).toBeUndefined();
      expect(String(args[0])).not.toContain('\n');
      expect(String(args[0]).length).toBeLessThan(400);
    }
    expect(logged.map(([line]) => String(line).length).reduce((sum, length) => sum + length)).toBeLessThan(2 * requestBytes);
  });

  it('keeps the stack of a failure on text input', async () => {
    const { rpc, logged } = server({ handlers });
    await post(rpc, call('CartService.getCart', ['bug']));
    expect(logged).toHaveLength(1);
    expect(logged[0][0]).toBe('CartService.getCart failed');
    expect((logged[0][1] as Error).stack).toMatch(/\n\s+at /);
  });

  it('cuts a long message to its first line and 200 characters, escaped', async () => {
    const { rpc, logged } = server({
      handlers: {
        ...handlers,
        CatalogService: {
          ...handlers.CatalogService,
          getProduct: (productId: string) => {
            throw new Error(`${'x'.repeat(300)} ${productId}\nsecond line`);
          },
        },
      },
    });
    const answer = await post(rpc, call('CatalogService.getProduct', { productId: '\u0000' }));
    expect(answer.json.error.code).toBe(-32603);
    expect(logged).toEqual([
      [
        `CatalogService.getProduct failed on its input (params.productId holds a NUL character (\\u0000) at index 0): "${'x'.repeat(200)}..."`,
        undefined,
      ],
    ]);
  });

  it('sends declared errors and RpcErrors as they are, unlogged', async () => {
    const { rpc, logged } = server({
      handlers: { ...handlers, CatalogService: { ...handlers.CatalogService, getProduct: () => Promise.reject(new RpcError(4000, 'no')) } },
    });
    const answer = await post(rpc, call('CatalogService.getProduct', ['\u0000']));
    expect(answer.json.error).toEqual({ code: 4000, message: 'no' });
    expect(logged).toEqual([]);
  });
});
