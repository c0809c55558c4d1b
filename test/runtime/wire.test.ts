/**
 * docs/protocol.md §1 row by row, over real HTTP: a listening server on 127.0.0.1 and the global
 * fetch. Every answer is checked for status, content type and the exact JSON body.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRpcServer, listen, RpcError } from '../../runtime/index.js';
import { calcHandlers, calcIdl } from './fixtures/calc-idl.js';
import { checkoutIdl } from './fixtures/checkout-idl.js';
import { checkoutHandlers, post, serverHandle, startServer, type TestServer } from './helpers.js';

let checkout: TestServer;
let calc: TestServer;
let handlerState: ReturnType<typeof checkoutHandlers>;

beforeAll(async () => {
  handlerState = checkoutHandlers();
  checkout = await startServer({ handlers: handlerState.handlers });
  const calcRpc = createRpcServer({ idl: calcIdl, handlers: calcHandlers, maxBatchSize: 3, logger: { error() {} } });
  calc = serverHandle(await listen(calcRpc, { port: 0, host: '127.0.0.1' }));
});
afterAll(async () => {
  await checkout?.close();
  await calc?.close();
});

/** POSTs a JSON-RPC body and asserts the 200 + application/json envelope every JSON-RPC answer has. */
async function rpc(body: unknown, server: TestServer = checkout, path = '') {
  const answer = await post(server.url + path, body);
  expect(answer.status).toBe(200);
  expect(answer.headers.get('content-type')).toBe('application/json');
  return answer.json;
}

const error = (id: unknown, code: number, message: string, data?: unknown) => ({
  jsonrpc: '2.0',
  error: data === undefined ? { code, message } : { code, message, data },
  id,
});

describe('HTTP verb', () => {
  for (const method of ['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
    it(`${method} gets 405 with {"error":"Method Not Allowed"}`, async () => {
      const response = await fetch(checkout.url, { method });
      expect(response.status).toBe(405);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(await response.text()).toBe('{"error":"Method Not Allowed"}');
    });
  }
});

describe('path', () => {
  it('the standalone server answers JSON-RPC on its base and on every path of one segment', async () => {
    for (const path of ['/', '/rpc', '/rpc/', '/?x=1', '/rpc?x=1']) {
      expect(await rpc({ jsonrpc: '2.0', method: 'CalcService.nothing', id: 1 }, checkout, path)).toStrictEqual(
        error(1, -32601, 'Method not found: CalcService.nothing'),
      );
      expect(await rpc({ jsonrpc: '2.0', method: 'CartService.clearCart', params: ['none'], id: 2 }, checkout, path)).toStrictEqual({
        jsonrpc: '2.0',
        result: false,
        id: 2,
      });
    }
  });

  it('a POST to a deeper path that names no method is 404 with {code, message}', async () => {
    for (const path of ['/some/deep/path', '/CatalogService/getProdcut', '/CatalogService/listProducts/']) {
      const answer = await post(checkout.url + path, { jsonrpc: '2.0', method: 'CartService.clearCart', params: ['none'], id: 2 });
      expect(answer.status, path).toBe(404);
      expect(answer.headers.get('content-type')).toBe('application/json');
      expect(answer.json).toStrictEqual({ code: -32601, message: `Method not found: ${path}` });
    }
  });
});

describe('method member', () => {
  it('selects <Interface>.<method>', async () => {
    const body = await rpc({ jsonrpc: '2.0', method: 'CatalogService.getProduct', params: ['p1'], id: 'a' });
    expect(body).toStrictEqual({
      jsonrpc: '2.0',
      result: { productId: 'p1', name: 'Mug', description: 'A mug', price: 9.5, stock: 10 },
      id: 'a',
    });
  });

  it.each([
    ['no dot', 'listProducts'],
    ['unknown interface', 'ShopService.listProducts'],
    ['unknown method', 'CatalogService.listAll'],
    ['wrong case', 'catalogService.listProducts'],
    ['trailing dot', 'CatalogService.'],
    ['extra dot', 'CatalogService.listProducts.x'],
    ['inherited Object member', 'CatalogService.constructor'],
  ])('%s gives -32601 Method not found', async (_, method) => {
    expect(await rpc({ jsonrpc: '2.0', method, id: 7 })).toStrictEqual(error(7, -32601, `Method not found: ${method}`));
  });
});

describe('params', () => {
  it('positional params in IDL order', async () => {
    expect(await rpc({ jsonrpc: '2.0', method: 'Calc.join', params: ['a', 'b', 'c'], id: 1 }, calc)).toStrictEqual({
      jsonrpc: '2.0',
      result: 'a-b-c',
      id: 1,
    });
  });

  it('named params map to IDL order whatever the key order', async () => {
    const orders = [
      { first: 'a', second: 'b', third: 'c' },
      { third: 'c', first: 'a', second: 'b' },
      { second: 'b', third: 'c', first: 'a' },
    ];
    for (const params of orders) {
      expect(await rpc({ jsonrpc: '2.0', method: 'Calc.join', params, id: 2 }, calc)).toStrictEqual({
        jsonrpc: '2.0',
        result: 'a-b-c',
        id: 2,
      });
    }
  });

  it('unknown and missing names are invalid params, all reported', async () => {
    const body = await rpc({ jsonrpc: '2.0', method: 'Calc.join', params: { first: 'a', fourth: 'd' }, id: 3 }, calc);
    expect(body).toStrictEqual(
      error(3, -32602, "Invalid params: params.fourth: unknown parameter 'fourth'", {
        errors: [
          { path: 'params.fourth', message: "unknown parameter 'fourth'" },
          { path: 'params', message: "missing parameter 'second'" },
          { path: 'params', message: "missing parameter 'third'" },
        ],
      }),
    );
  });

  it('a parameter named like an Object member is looked up as an own key only', async () => {
    expect(await rpc({ jsonrpc: '2.0', method: 'Calc.tag', params: { constructor: 'x' }, id: 1 }, calc)).toStrictEqual({
      jsonrpc: '2.0',
      result: '#x',
      id: 1,
    });
    expect(await rpc({ jsonrpc: '2.0', method: 'Calc.tag', params: {}, id: 2 }, calc)).toStrictEqual(
      error(2, -32602, "Invalid params: params: missing parameter 'constructor'", {
        errors: [{ path: 'params', message: "missing parameter 'constructor'" }],
      }),
    );
  });

  it('omitted or null params are valid only for a method without parameters', async () => {
    expect(await rpc({ jsonrpc: '2.0', method: 'Calc.ping', id: 4 }, calc)).toStrictEqual({ jsonrpc: '2.0', result: true, id: 4 });
    expect(await rpc({ jsonrpc: '2.0', method: 'Calc.ping', params: null, id: 5 }, calc)).toStrictEqual({
      jsonrpc: '2.0',
      result: true,
      id: 5,
    });
    expect(await rpc({ jsonrpc: '2.0', method: 'Calc.ping', params: [], id: 6 }, calc)).toStrictEqual({
      jsonrpc: '2.0',
      result: true,
      id: 6,
    });
    expect(await rpc({ jsonrpc: '2.0', method: 'Calc.ping', params: {}, id: 7 }, calc)).toStrictEqual({
      jsonrpc: '2.0',
      result: true,
      id: 7,
    });
    const expected = (id: number) =>
      error(id, -32602, 'Invalid params: params: expected 2 parameters (a, b), got none', {
        errors: [{ path: 'params', message: 'expected 2 parameters (a, b), got none' }],
      });
    expect(await rpc({ jsonrpc: '2.0', method: 'Calc.add', id: 8 }, calc)).toStrictEqual(expected(8));
    expect(await rpc({ jsonrpc: '2.0', method: 'Calc.add', params: null, id: 9 }, calc)).toStrictEqual(expected(9));
  });

  it('lists at most 100 problems', async () => {
    const params = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`extra${i}`, i]));
    const body = await rpc({ jsonrpc: '2.0', method: 'Calc.join', params, id: 12 }, calc);
    expect(body.error.message).toBe("Invalid params: params.extra0: unknown parameter 'extra0'");
    expect(body.error.data.errors).toHaveLength(100);
  });

  it('a wrong parameter count is invalid params', async () => {
    expect(await rpc({ jsonrpc: '2.0', method: 'Calc.add', params: [1, 2, 3], id: 10 }, calc)).toStrictEqual(
      error(10, -32602, 'Invalid params: params: expected 2 parameters, got 3', {
        errors: [{ path: 'params', message: 'expected 2 parameters, got 3' }],
      }),
    );
    expect(await rpc({ jsonrpc: '2.0', method: 'CatalogService.getProduct', params: [], id: 11 })).toStrictEqual(
      error(11, -32602, 'Invalid params: params: expected 1 parameter, got 0', {
        errors: [{ path: 'params', message: 'expected 1 parameter, got 0' }],
      }),
    );
  });
});

describe('success', () => {
  it('200 with the JSON-RPC response; an ordinary null result for an unknown id', async () => {
    const answer = await post(checkout.url, { jsonrpc: '2.0', method: 'CatalogService.getProduct', params: ['nope'], id: 1 });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(answer.text).toBe('{"jsonrpc":"2.0","result":null,"id":1}');
  });

  it('a handler returning undefined for an optional result sends null', async () => {
    // getProduct's handler returns Array.find's undefined for an unknown id.
    expect(
      await rpc({ jsonrpc: '2.0', method: 'Calc.describe', params: [{ name: 'Rex', legs: 4, good: false }], id: 2 }, calc),
    ).toStrictEqual({
      jsonrpc: '2.0',
      result: null,
      id: 2,
    });
  });

  it('keeps the id type: string, number, fraction, null', async () => {
    for (const id of ['x-1', 0, 42, 1.5, null]) {
      expect(await rpc({ jsonrpc: '2.0', method: 'Calc.ping', id }, calc)).toStrictEqual({ jsonrpc: '2.0', result: true, id });
    }
  });

  it('rpc-idl returns the IDL JSON, params ignored', async () => {
    expect(await rpc({ jsonrpc: '2.0', method: 'rpc-idl', id: 1 })).toStrictEqual({ jsonrpc: '2.0', result: checkoutIdl, id: 1 });
    expect(await rpc({ jsonrpc: '2.0', method: 'rpc-idl', params: ['whatever', 1], id: 2 })).toStrictEqual({
      jsonrpc: '2.0',
      result: checkoutIdl,
      id: 2,
    });
  });

  it('idlMethodNames: the IDL also answers under the names other implementations ask for, rpc-idl still', async () => {
    const rpcServer = createRpcServer({ idl: calcIdl, handlers: calcHandlers, idlMethodNames: ['pulserpc-idl', 'barrister-idl'] });
    const server = serverHandle(await listen(rpcServer, { port: 0, host: '127.0.0.1' }));
    try {
      for (const method of ['rpc-idl', 'pulserpc-idl', 'barrister-idl']) {
        expect(await rpc({ jsonrpc: '2.0', method, id: method }, server)).toStrictEqual({ jsonrpc: '2.0', result: calcIdl, id: method });
      }
      expect(await rpc({ jsonrpc: '2.0', method: 'other-idl', id: 1 }, server)).toStrictEqual(
        error(1, -32601, 'Method not found: other-idl'),
      );
    } finally {
      await server.close();
    }
    // By default only rpc-idl.
    expect(await rpc({ jsonrpc: '2.0', method: 'barrister-idl', id: 2 }, calc)).toStrictEqual(
      error(2, -32601, 'Method not found: barrister-idl'),
    );
  });

  it('idlMethodNames that shadow a method or are not names are refused at start-up', () => {
    expect(() => createRpcServer({ idl: calcIdl, handlers: calcHandlers, idlMethodNames: ['Calc.ping'] })).toThrow(
      'createRpcServer: idlMethodNames: "Calc.ping" is a method of the IDL',
    );
    expect(() => createRpcServer({ idl: calcIdl, handlers: calcHandlers, idlMethodNames: [''] })).toThrow(
      'createRpcServer: idlMethodNames must hold non-empty strings, got ""',
    );
    expect(() => createRpcServer({ idl: calcIdl, handlers: calcHandlers, idlMethodNames: 'pulserpc-idl' as never })).toThrow(
      'createRpcServer: idlMethodNames must be an array of method names',
    );
  });

  it('passes the handler a context: headers, remote address, id, signal', async () => {
    handlerState.contexts.length = 0;
    await post(
      checkout.url,
      { jsonrpc: '2.0', method: 'CatalogService.getProduct', params: ['p2'], id: 'ctx' },
      {
        headers: { 'content-type': 'application/json', 'x-trace': 't-1' },
      },
    );
    expect(handlerState.contexts).toHaveLength(1);
    const [ctx] = handlerState.contexts;
    expect(ctx.headers['x-trace']).toBe('t-1');
    expect(ctx.remoteAddress).toMatch(/127\.0\.0\.1/);
    expect(ctx.id).toBe('ctx');
    expect(ctx.method).toBe('CatalogService.getProduct');
    expect(ctx.signal).toBeInstanceOf(AbortSignal);
  });
});

describe('notifications', () => {
  it('run the handler and answer 204 with an empty body', async () => {
    const answer = await post(checkout.url, {
      jsonrpc: '2.0',
      method: 'CartService.addToCart',
      params: [{ cartId: 'note-1', productId: 'p1', quantity: 2 }],
    });
    expect(answer.status).toBe(204);
    expect(answer.text).toBe('');
    expect(answer.headers.get('content-type')).toBeNull();
    expect(handlerState.carts.get('note-1')?.subtotal).toBe(19);
  });

  it('get no answer even when they fail', async () => {
    for (const body of [
      { jsonrpc: '2.0', method: 'Nope.nothing' },
      { jsonrpc: '2.0', method: 'CartService.addToCart', params: [{ productId: 'unknown', quantity: 1 }] },
      { jsonrpc: '2.0', method: 'Calc.add', params: ['x'] },
    ]) {
      const answer = await post(checkout.url, body);
      expect(answer.status).toBe(204);
      expect(answer.text).toBe('');
    }
  });

  it('"id": null is a request, not a notification', async () => {
    expect(await rpc({ jsonrpc: '2.0', method: 'CartService.clearCart', params: ['x'], id: null })).toStrictEqual({
      jsonrpc: '2.0',
      result: false,
      id: null,
    });
  });
});

describe('batches', () => {
  it('answer the non-notifications in request order', async () => {
    const body = await rpc([
      { jsonrpc: '2.0', method: 'CartService.addToCart', params: [{ cartId: 'batch-1', productId: 'p2', quantity: 1 }] },
      { jsonrpc: '2.0', method: 'CatalogService.getProduct', params: ['p9'], id: 1 },
      { jsonrpc: '2.0', method: 'Nope.x', id: 2 },
      { jsonrpc: '2.0', method: 'Nope.x' },
      { foo: 'bar' },
      { jsonrpc: '2.0', method: 'CartService.clearCart', params: { cartId: 'none' }, id: 'last' },
    ]);
    expect(body).toStrictEqual([
      { jsonrpc: '2.0', result: null, id: 1 },
      error(2, -32601, 'Method not found: Nope.x'),
      error(null, -32600, 'Invalid Request: jsonrpc must be "2.0"'),
      { jsonrpc: '2.0', result: false, id: 'last' },
    ]);
    expect(handlerState.carts.get('batch-1')?.items).toHaveLength(1);
  });

  it('of only notifications answer 204', async () => {
    const answer = await post(calc.url, [
      { jsonrpc: '2.0', method: 'Calc.ping' },
      { jsonrpc: '2.0', method: 'Calc.add', params: [1, 2] },
    ]);
    expect(answer.status).toBe(204);
    expect(answer.text).toBe('');
  });

  it('empty is one -32600', async () => {
    expect(await rpc([])).toStrictEqual(error(null, -32600, 'Invalid Request: empty batch'));
  });

  it('larger than maxBatchSize is one -32600', async () => {
    const batch = Array.from({ length: 4 }, (_, i) => ({ jsonrpc: '2.0', method: 'Calc.ping', id: i }));
    expect(await rpc(batch, calc)).toStrictEqual(error(null, -32600, 'Invalid Request: batch of 4 messages exceeds the limit of 3'));
    expect(await rpc(batch.slice(0, 3), calc)).toHaveLength(3);
  });

  it('of non-objects answer -32600 per member', async () => {
    expect(await rpc([1, 'x'])).toStrictEqual([
      error(null, -32600, 'Invalid Request: expected a JSON object'),
      error(null, -32600, 'Invalid Request: expected a JSON object'),
    ]);
  });
});

describe('invalid requests: -32600, id always present', () => {
  it.each([
    ['not an object', 42, null, 'Invalid Request: expected a JSON object'],
    ['a string', '"hello"', null, 'Invalid Request: expected a JSON object'],
    ['null', 'null', null, 'Invalid Request: expected a JSON object'],
    ['jsonrpc missing', { method: 'Calc.ping', id: 1 }, 1, 'Invalid Request: jsonrpc must be "2.0"'],
    ['jsonrpc 1.0', { jsonrpc: '1.0', method: 'Calc.ping', id: 2 }, 2, 'Invalid Request: jsonrpc must be "2.0"'],
    ['method missing', { jsonrpc: '2.0', id: 3 }, 3, 'Invalid Request: method must be a non-empty string'],
    ['method empty', { jsonrpc: '2.0', method: '', id: 4 }, 4, 'Invalid Request: method must be a non-empty string'],
    ['method a number', { jsonrpc: '2.0', method: 1, params: 'bar' }, null, 'Invalid Request: method must be a non-empty string'],
    [
      'params a string',
      { jsonrpc: '2.0', method: 'Calc.ping', params: 'bar', id: 5 },
      5,
      'Invalid Request: params must be an array or an object',
    ],
    ['id an object', { jsonrpc: '2.0', method: 'Calc.ping', id: { a: 1 } }, null, 'Invalid Request: id must be a string, a number or null'],
    ['id a boolean', { jsonrpc: '2.0', method: 'Calc.ping', id: true }, null, 'Invalid Request: id must be a string, a number or null'],
    // JSON.parse reads these as ±Infinity, which JSON cannot send back.
    ['id 1e400', '{"jsonrpc":"2.0","method":"Calc.ping","id":1e400}', null, 'Invalid Request: id must be a finite number'],
    ['id -1e400', '{"jsonrpc":"2.0","method":"Calc.ping","id":-1e400}', null, 'Invalid Request: id must be a finite number'],
  ])('%s', async (_, body, id, message) => {
    expect(await rpc(typeof body === 'string' ? body : body, calc)).toStrictEqual(error(id, -32600, message));
  });
});

describe('parse errors: -32700 with id null', () => {
  it.each([
    ['truncated JSON', '{"jsonrpc":"2.0",'],
    ['not JSON at all', 'hello'],
    ['empty body', ''],
    ['trailing garbage', '{"jsonrpc":"2.0","method":"Calc.ping","id":1} x'],
  ])('%s', async (_, text) => {
    const body = await rpc(text, calc);
    expect(Object.keys(body)).toStrictEqual(['jsonrpc', 'error', 'id']);
    expect(body.jsonrpc).toBe('2.0');
    expect(body.id).toBeNull();
    expect(Object.keys(body.error)).toStrictEqual(['code', 'message']);
    expect(body.error.code).toBe(-32700);
    expect(body.error.message).toMatch(/^Parse error: \S/);
    // The detail is the parser's own words, e.g. "Unexpected end of JSON input".
    let detail = '';
    try {
      JSON.parse(text);
    } catch (e) {
      detail = (e as Error).message;
    }
    expect(body.error.message).toBe(`Parse error: ${detail}`);
  });
});

describe('invalid params: -32602 with every problem and its path', () => {
  it('wrong types, missing fields, bad enum, out-of-range int, all at once', async () => {
    const body = await rpc({
      jsonrpc: '2.0',
      method: 'OrderService.createOrder',
      params: [{ cartId: 7, shippingAddress: { street: 'Main', city: null, state: 'S', zipCode: 'Z' }, paymentMethod: 'Cash' }],
      id: 1,
    });
    expect(body).toStrictEqual(
      error(1, -32602, 'Invalid params: params[0].cartId: expected string', {
        errors: [
          { path: 'params[0].cartId', message: 'expected string' },
          { path: 'params[0].shippingAddress.city', message: 'expected string' },
          { path: 'params[0].shippingAddress', message: "missing required field 'country'" },
          { path: 'params[0].paymentMethod', message: 'expected one of: credit_card, debit_card, paypal, apple_pay' },
        ],
      }),
    );
  });

  it('an int past 2^53 − 1 and a fractional int', async () => {
    const body = await rpc('{"jsonrpc":"2.0","method":"Calc.add","params":[9007199254740993, 1.5],"id":2}', calc);
    expect(body).toStrictEqual(
      error(2, -32602, 'Invalid params: params[0]: value 9007199254740992 is outside the safe integer range ±(2^53−1)', {
        errors: [
          { path: 'params[0]', message: 'value 9007199254740992 is outside the safe integer range ±(2^53−1)' },
          { path: 'params[1]', message: 'expected integer' },
        ],
      }),
    );
    // 5.0 is the integer 5.
    expect(await rpc('{"jsonrpc":"2.0","method":"Calc.add","params":[5.0, -9007199254740991],"id":3}', calc)).toStrictEqual({
      jsonrpc: '2.0',
      result: -9007199254740986,
      id: 3,
    });
  });

  it('paths into arrays, maps, recursive and inherited structs', async () => {
    const tree = { label: 'root', children: [{ label: 'a' }, { label: 'b', children: [{ label: 3 }] }] };
    expect(await rpc({ jsonrpc: '2.0', method: 'Calc.echoTree', params: [tree], id: 4 }, calc)).toStrictEqual(
      error(4, -32602, 'Invalid params: params[0].children[1].children[0].label: expected string', {
        errors: [{ path: 'params[0].children[1].children[0].label', message: 'expected string' }],
      }),
    );
    expect(await rpc({ jsonrpc: '2.0', method: 'Calc.totals', params: { scores: { 'a b': [1, '2'], c: 3 } }, id: 5 }, calc)).toStrictEqual(
      error(5, -32602, 'Invalid params: params.scores["a b"][1]: expected number', {
        errors: [
          { path: 'params.scores["a b"][1]', message: 'expected number' },
          { path: 'params.scores.c', message: 'expected array' },
        ],
      }),
    );
    expect(await rpc({ jsonrpc: '2.0', method: 'Calc.describe', params: [{ good: 'yes', color: 'pink' }], id: 6 }, calc)).toStrictEqual(
      error(6, -32602, "Invalid params: params[0]: missing required field 'name'", {
        errors: [
          { path: 'params[0]', message: "missing required field 'name'" },
          { path: 'params[0]', message: "missing required field 'legs'" },
          { path: 'params[0].good', message: 'expected boolean' },
          { path: 'params[0].color', message: 'expected one of: black, white, brown or null' },
        ],
      }),
    );
  });

  it('optional fields may be absent or null; unknown fields pass through', async () => {
    const request = { productId: 'p1', quantity: 1, cartId: null, extra: { kept: true } };
    const body = await rpc({ jsonrpc: '2.0', method: 'CartService.addToCart', params: [request], id: 7 });
    expect(body.result.items).toStrictEqual([{ productId: 'p1', quantity: 1, price: 9.5 }]);
    expect(
      await rpc(
        { jsonrpc: '2.0', method: 'Calc.describe', params: [{ name: 'Rex', legs: 4, good: true, color: null, tail: 1 }], id: 8 },
        calc,
      ),
    ).toStrictEqual({
      jsonrpc: '2.0',
      result: 'Rex (4 legs) is good',
      id: 8,
    });
  });

  it('reference service: addToCart with an unknown product is exactly "Product not found"', async () => {
    expect(
      await rpc({ jsonrpc: '2.0', method: 'CartService.addToCart', params: [{ productId: 'zzz', quantity: 1 }], id: 9 }),
    ).toStrictEqual(error(9, -32602, 'Product not found'));
  });
});

describe('handler errors', () => {
  it('a declared error keeps its code and "<Name>: <message>"', async () => {
    const address = { street: 's', city: 'c', state: 's', zipCode: 'z', country: 'c' };
    expect(
      await rpc({
        jsonrpc: '2.0',
        method: 'OrderService.createOrder',
        params: [{ cartId: 'missing', shippingAddress: address, paymentMethod: 'paypal' }],
        id: 1,
      }),
    ).toStrictEqual(error(1, 1001, 'CartNotFound: cart does not exist'));
    await rpc({ jsonrpc: '2.0', method: 'CartService.clearCart', params: ['note-1'], id: 2 });
    expect(
      await rpc({
        jsonrpc: '2.0',
        method: 'OrderService.createOrder',
        params: [{ cartId: 'note-1', shippingAddress: address, paymentMethod: 'paypal' }],
        id: 3,
      }),
    ).toStrictEqual(error(3, 1002, 'CartEmpty: cart note-1 is empty'));
  });

  it('anything else is -32603 "Internal error" without text or stack, logged on the server', async () => {
    const logged: unknown[][] = [];
    const rpcServer = createRpcServer({
      idl: calcIdl,
      handlers: {
        Calc: {
          ...calcHandlers.Calc,
          add: () => {
            throw new Error('secret database password');
          },
        },
      },
      logger: { error: (...args) => void logged.push(args) },
    });
    const server = serverHandle(await listen(rpcServer, { port: 0, host: '127.0.0.1' }));
    try {
      const answer = await post(server.url, { jsonrpc: '2.0', method: 'Calc.add', params: [1, 2], id: 1 });
      expect(answer.status).toBe(200);
      expect(answer.text).toBe('{"jsonrpc":"2.0","error":{"code":-32603,"message":"Internal error"},"id":1}');
      expect(String(logged[0][1])).toContain('secret database password');
    } finally {
      await server.close();
    }
  });

  it('with exposeErrors the text and stack are sent in data', async () => {
    const rpcServer = createRpcServer({
      idl: calcIdl,
      handlers: {
        Calc: {
          ...calcHandlers.Calc,
          add: () => {
            throw new TypeError('boom');
          },
        },
      },
      exposeErrors: true,
      logger: { error() {} },
    });
    const server = serverHandle(await listen(rpcServer, { port: 0, host: '127.0.0.1' }));
    try {
      const body = await rpc({ jsonrpc: '2.0', method: 'Calc.add', params: [1, 2], id: 1 }, server);
      expect(body.error.code).toBe(-32603);
      expect(body.error.message).toBe('Internal error');
      expect(body.error.data.message).toBe('boom');
      expect(body.error.data.stack).toContain('TypeError: boom');
    } finally {
      await server.close();
    }
  });

  it('a thrown RpcError is sent as is, data included', async () => {
    const rpcServer = createRpcServer({
      idl: calcIdl,
      handlers: {
        Calc: {
          ...calcHandlers.Calc,
          ping: () => {
            throw new RpcError(4242, 'Custom', { hint: 'x' });
          },
        },
      },
    });
    expect(await rpcServer.handleJson({ jsonrpc: '2.0', method: 'Calc.ping', id: 1 })).toStrictEqual(
      error(1, 4242, 'Custom', { hint: 'x' }),
    );
  });
});

describe('validateResponses', () => {
  const badResults = {
    Calc: { ...calcHandlers.Calc, add: () => 1.5, ping: () => 'yes', describe: () => 42, echoTree: () => ({ label: 'x', children: [{}] }) },
  };

  it('an invalid result is -32603 "Internal error: invalid result of <Interface>.<method>", details only logged', async () => {
    const logged: unknown[][] = [];
    const rpcServer = createRpcServer({ idl: calcIdl, handlers: badResults, logger: { error: (...args) => void logged.push(args) } });
    const server = serverHandle(await listen(rpcServer, { port: 0, host: '127.0.0.1' }));
    try {
      expect(await rpc({ jsonrpc: '2.0', method: 'Calc.add', params: [1, 2], id: 1 }, server)).toStrictEqual(
        error(1, -32603, 'Internal error: invalid result of Calc.add'),
      );
      expect(await rpc({ jsonrpc: '2.0', method: 'Calc.echoTree', params: [{ label: 'a' }], id: 2 }, server)).toStrictEqual(
        error(2, -32603, 'Internal error: invalid result of Calc.echoTree'),
      );
      expect(logged.map((entry) => entry[0])).toStrictEqual([
        'Calc.add returned an invalid result: result: expected integer',
        "Calc.echoTree returned an invalid result: result.children[0]: missing required field 'label'",
      ]);
    } finally {
      await server.close();
    }
  });

  it('with exposeErrors the problems are sent in data', async () => {
    const rpcServer = createRpcServer({ idl: calcIdl, handlers: badResults, exposeErrors: true, logger: { error() {} } });
    expect(
      await rpcServer.handleJson({ jsonrpc: '2.0', method: 'Calc.describe', params: [{ name: 'a', legs: 1, good: true }], id: 3 }),
    ).toStrictEqual(
      error(3, -32603, 'Internal error: invalid result of Calc.describe', {
        errors: [{ path: 'result', message: 'expected string or null' }],
      }),
    );
  });

  it('off: results are sent unchecked; validateRequests off: params reach the handler unchecked', async () => {
    const rpcServer = createRpcServer({ idl: calcIdl, handlers: badResults, validateResponses: false, validateRequests: false });
    expect(await rpcServer.handleJson({ jsonrpc: '2.0', method: 'Calc.ping', id: 4 })).toStrictEqual({
      jsonrpc: '2.0',
      result: 'yes',
      id: 4,
    });
    expect(await rpcServer.handleJson({ jsonrpc: '2.0', method: 'Calc.add', params: ['x', 'y'], id: 5 })).toStrictEqual({
      jsonrpc: '2.0',
      result: 1.5,
      id: 5,
    });
  });
});

describe('content type: only JSON runs a call (a foreign page can send the others without a CORS preflight)', () => {
  const unsupported = '{"error":"Unsupported Media Type","message":"Content-Type must be application/json"}';
  const ping = '{"jsonrpc":"2.0","method":"Calc.ping","id":1}';

  it.each([
    'application/json',
    'application/json; charset=utf-8',
    'Application/JSON ; charset="UTF-8"',
    'application/json-rpc',
    'application/jsonrequest',
    'application/vnd.api+json',
  ])('%s is accepted', async (contentType) => {
    const answer = await post(calc.url, ping, { headers: { 'content-type': contentType } });
    expect([answer.status, answer.json]).toStrictEqual([200, { jsonrpc: '2.0', result: true, id: 1 }]);
  });

  it.each([
    ['text/plain (a cross-site fetch or a form with enctype=text/plain)', 'text/plain;charset=UTF-8'],
    ['a form', 'application/x-www-form-urlencoded'],
    ['a multipart form', 'multipart/form-data; boundary=x'],
    ['JSON named only in a parameter', 'text/plain; x=application/json'],
    ['a list of types', 'application/json, text/plain'],
    ['no type at all (a Blob or ArrayBuffer body)', undefined],
  ])('%s gets 415 and runs nothing', async (_, contentType) => {
    const before = handlerState.carts.size;
    const addToCart = JSON.stringify({
      jsonrpc: '2.0',
      method: 'CartService.addToCart',
      params: [{ productId: 'p1', quantity: 1 }],
      id: 1,
    });
    const headers: Record<string, string> = contentType === undefined ? {} : { 'content-type': contentType };
    // A Uint8Array body: fetch adds no Content-Type of its own for one.
    for (const path of ['/', '/CartService/addToCart']) {
      const body = new TextEncoder().encode(path === '/' ? addToCart : '{"request":{"productId":"p1","quantity":1}}');
      const answer = await post(checkout.url + path, body, { headers });
      expect(answer.status).toBe(415);
      expect(answer.headers.get('content-type')).toBe('application/json');
      expect(answer.text).toBe(unsupported);
    }
    expect(handlerState.carts.size).toBe(before);
  });

  it('the core applies the same rule to handleHttp', async () => {
    const rpcServer = createRpcServer({ idl: calcIdl, handlers: calcHandlers });
    const answer = await rpcServer.handleHttp({ method: 'POST', path: '/', body: ping, headers: { 'content-type': 'text/plain' } });
    expect([answer.status, answer.body]).toStrictEqual([415, unsupported]);
    expect((await rpcServer.handleHttp({ method: 'POST', path: '/', body: ping })).status).toBe(415);
    expect((await rpcServer.handleHttp({ method: 'POST', path: '/', body: ping, contentType: 'application/json' })).status).toBe(200);
  });
});

describe('body too large', () => {
  it('413 {"error":"Payload Too Large"} past maxBodyBytes', async () => {
    const rpcServer = createRpcServer({ idl: calcIdl, handlers: calcHandlers, maxBodyBytes: 64 });
    const server = serverHandle(await listen(rpcServer, { port: 0, host: '127.0.0.1' }));
    try {
      const small = await post(server.url, { jsonrpc: '2.0', method: 'Calc.ping', id: 1 });
      expect(small.status).toBe(200);
      const big = await post(server.url, { jsonrpc: '2.0', method: 'Calc.join', params: ['x'.repeat(100), 'y', 'z'], id: 2 });
      expect(big.status).toBe(413);
      expect(big.headers.get('content-type')).toBe('application/json');
      expect(big.text).toBe('{"error":"Payload Too Large"}');
    } finally {
      await server.close();
    }
  });
});

describe('createRpcServer checks handlers against the IDL', () => {
  it('rejects an unknown interface and a missing method at start-up', () => {
    expect(() => createRpcServer({ idl: calcIdl, handlers: { Calculator: {} } })).toThrow(
      'createRpcServer: handler registered for "Calculator", which is not an interface of the IDL (interfaces: Calc)',
    );
    expect(() => createRpcServer({ idl: calcIdl, handlers: { Calc: { add: () => 1 } } })).toThrow(
      'createRpcServer: the handler of Calc has no method join',
    );
  });

  const objectIdl = (...names: string[]) => ({
    rootNamespace: 'o',
    checksum: 'o',
    interfaces: [{ name: 'Thing', namespace: 'o', methods: names.map((name) => ({ name, returnType: { builtIn: 'string' as const } })) }],
    structs: [],
    enums: [],
  });

  it.each(['toString', 'valueOf', 'hasOwnProperty', 'constructor', 'isPrototypeOf'])(
    'a method named %s needs the handler to have one: Object.prototype does not count',
    (name) => {
      expect(() => createRpcServer({ idl: objectIdl(name), handlers: { Thing: {} } })).toThrow(
        `createRpcServer: the handler of Thing has no method ${name}`,
      );
      expect(() => createRpcServer({ idl: objectIdl(name), handlers: { Thing: Object.create(null) } })).toThrow(
        `the handler of Thing has no method ${name}`,
      );
      // A class instance inherits `constructor` (the class itself) from its prototype: not a method either.
      expect(() => createRpcServer({ idl: objectIdl(name), handlers: { Thing: new (class Service {})() } })).toThrow(
        `the handler of Thing has no method ${name}`,
      );
    },
  );

  it("the handler's own methods and its classes' count", async () => {
    class Base {
      valueOf() {
        return 'base value';
      }
    }
    class Thing extends Base {
      override toString() {
        return 'thing';
      }
    }
    const handler = Object.assign(new Thing(), { hasOwnProperty: () => 'own' });
    const rpcServer = createRpcServer({ idl: objectIdl('toString', 'valueOf', 'hasOwnProperty'), handlers: { Thing: handler } });
    for (const [method, result] of [
      ['toString', 'thing'],
      ['valueOf', 'base value'],
      ['hasOwnProperty', 'own'],
    ]) {
      expect(await rpcServer.handleJson({ jsonrpc: '2.0', method: `Thing.${method}`, id: 1 })).toStrictEqual({
        jsonrpc: '2.0',
        result,
        id: 1,
      });
    }
  });
});

describe('maxBodyBytesInFlight', () => {
  it('defaults to 64 MiB, or maxBodyBytes when that is larger', () => {
    expect(createRpcServer({ idl: calcIdl, handlers: calcHandlers }).bodyBudget.limit).toBe(64 * 1024 * 1024);
    expect(createRpcServer({ idl: calcIdl, handlers: calcHandlers, maxBodyBytes: 100 * 1024 * 1024 }).bodyBudget.limit).toBe(
      100 * 1024 * 1024,
    );
    expect(createRpcServer({ idl: calcIdl, handlers: calcHandlers, maxBodyBytesInFlight: Infinity }).bodyBudget.limit).toBe(Infinity);
  });

  it('must hold at least one body of maxBodyBytes', () => {
    expect(() => createRpcServer({ idl: calcIdl, handlers: calcHandlers, maxBodyBytes: 1000, maxBodyBytesInFlight: 999 })).toThrow(
      'createRpcServer: maxBodyBytesInFlight (999) must be a number of bytes of at least maxBodyBytes (1000)',
    );
    expect(() => createRpcServer({ idl: calcIdl, handlers: calcHandlers, maxBodyBytesInFlight: Number.NaN })).toThrow(
      'maxBodyBytesInFlight (NaN)',
    );
  });
});
