/**
 * The client side: HttpTransport against our server and against hand-made HTTP servers that
 * misbehave, callMethod's declared-error mapping, abort and timeout.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  callMethod,
  callMethodWithoutRaises,
  CONTRACT_HEADER,
  DeclaredError,
  HttpTransport,
  RPCError,
  RpcError,
  settle,
} from '../../runtime/client.js';
import { CartEmptyError, CartNotFoundError, failure, orderServiceErrors, serverHandle, startServer, type TestServer } from './helpers.js';

let checkout: TestServer;
const raw: TestServer[] = [];
const requests: { url?: string; headers: http.IncomingHttpHeaders; body: string }[] = [];

/** A plain HTTP server answering every request with `answer`; requests are recorded. */
async function rawServer(answer: (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void): Promise<string> {
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      requests.push({ url: req.url, headers: req.headers, body });
      answer(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const handle = serverHandle(server);
  raw.push(handle);
  return handle.url;
}

beforeAll(async () => {
  checkout = await startServer();
});
afterAll(async () => {
  await checkout?.close();
  await Promise.all(raw.map((server) => server.close()));
});

const address = { street: 's', city: 'c', state: 's', zipCode: 'z', country: 'c' };

describe('HttpTransport', () => {
  it('calls our server and returns the result', async () => {
    const transport = new HttpTransport(checkout.url);
    expect(await transport.call('CatalogService.getProduct', ['p1'])).toStrictEqual({
      productId: 'p1',
      name: 'Mug',
      description: 'A mug',
      price: 9.5,
      stock: 10,
    });
    expect(await transport.call('CatalogService.getProduct', ['none'])).toBeNull();
  });

  it('posts to the base address exactly as given, with an id and positional params', async () => {
    const url = await rawServer((_req, res, body) => {
      const { id } = JSON.parse(body);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', result: 'ok', id }));
    });
    const transport = new HttpTransport(`${url}/api/v1/rpc?tenant=a`, { headers: () => ({ authorization: 'Bearer t' }) });
    expect(await transport.call('A.b', [1, { x: 2 }], { headers: { 'x-one': '1' } })).toBe('ok');
    expect(await transport.call('A.c', [])).toBe('ok');
    const [first, second] = requests.slice(-2);
    expect(first.url).toBe('/api/v1/rpc?tenant=a');
    expect(JSON.parse(first.body)).toStrictEqual({ jsonrpc: '2.0', method: 'A.b', params: [1, { x: 2 }], id: 1 });
    expect(JSON.parse(second.body)).toStrictEqual({ jsonrpc: '2.0', method: 'A.c', params: [], id: 2 });
    expect(first.headers['content-type']).toBe('application/json');
    expect(first.headers.authorization).toBe('Bearer t');
    expect(first.headers['x-one']).toBe('1');
    expect(second.headers['x-one']).toBeUndefined();
  });

  it('uses the given fetch', async () => {
    const seen: string[] = [];
    const transport = new HttpTransport('http://example.invalid/rpc', {
      fetch: async (input, init) => {
        seen.push(String(input));
        const { id } = JSON.parse(String(init?.body));
        return new Response(JSON.stringify({ jsonrpc: '2.0', result: 5, id }), { status: 200 });
      },
    });
    expect(await transport.call('X.y', [])).toBe(5);
    expect(seen).toStrictEqual(['http://example.invalid/rpc']);
  });

  it('throws RpcError with code, message and data for an error response', async () => {
    const transport = new HttpTransport(checkout.url);
    const error = await failure(transport.call('CartService.addToCart', [{ productId: 1, quantity: 1 }]));
    expect(error.code).toBe(-32602);
    expect(error.message).toBe('Invalid params: params[0].productId: expected string');
    expect(error.data).toStrictEqual({ errors: [{ path: 'params[0].productId', message: 'expected string' }] });
    expect((await failure(transport.call('CartService.addToCart', [{ productId: 'zz', quantity: 1 }]))).message).toBe('Product not found');
  });

  describe('transport failures are -32000 "Transport error: <detail>"', () => {
    it.each([
      ['a non-2xx status', 503, 'text/plain', 'busy', 'Transport error: HTTP 503 Service Unavailable'],
      ['an empty body', 200, 'application/json', '', 'Transport error: empty response'],
      ['a 204', 204, 'application/json', '', 'Transport error: empty response'],
      ['a non-JSON body', 200, 'text/html', '<html>', 'Transport error: response is not JSON'],
      ['JSON that is no response', 200, 'application/json', '[1,2]', 'Transport error: response is not a JSON-RPC response object'],
      [
        'a response without result',
        200,
        'application/json',
        '{"jsonrpc":"2.0","id":1}',
        'Transport error: response has neither result nor error',
      ],
    ])('%s', async (_, status, type, body, message) => {
      const url = await rawServer((_req, res) => {
        res.writeHead(status, { 'content-type': type }).end(body);
      });
      const error = await failure(new HttpTransport(url).call('A.b', []));
      expect(error.code).toBe(-32000);
      expect(error.message).toBe(message);
      expect(error.data).toStrictEqual({ status });
    });

    it('a response for another id', async () => {
      const url = await rawServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","result":1,"id":99}');
      });
      const error = await failure(new HttpTransport(url).call('A.b', []));
      expect(error.message).toBe('Transport error: response id 99 does not match request id 1');
    });

    it('an error response for another id is no error of this call; one with id null is', async () => {
      let id: unknown = 99;
      const url = await rawServer((_req, res) => {
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', error: { code: 1001, message: 'CartNotFound: cart does not exist' }, id }));
      });
      const error = await failure(new HttpTransport(url).call('A.b', []));
      expect(error.code).toBe(-32000);
      expect(error.message).toBe('Transport error: response id 99 does not match request id 1');
      expect(error.data).toStrictEqual({ status: 200 });
      id = null; // the server could not read the request's id: the error is the answer to it
      const own = await failure(new HttpTransport(url).call('A.b', []));
      expect(own.code).toBe(1001);
      expect(own.message).toBe('CartNotFound: cart does not exist');
    });

    it('an error status with a huge body: the client reads at most 64 KiB of it and drops the rest unread', async () => {
      const total = 256 * 1024 * 1024;
      let written = 0;
      let closed!: () => void;
      const responseClosed = new Promise<void>((resolve) => (closed = resolve));
      const url = await rawServer((_req, res) => {
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        res.on('close', closed);
        res.writeHead(500, { 'content-type': 'text/plain' });
        // Writes as fast as the client reads (backpressure), until it has all or the connection is gone.
        const pump = () => {
          while (written < total && !res.destroyed) {
            written += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          if (!res.destroyed) res.end();
        };
        pump();
      });
      const error = await failure(new HttpTransport(url).call('A.b', []));
      expect(error.message).toBe('Transport error: HTTP 500 Internal Server Error');
      expect(error.data).toStrictEqual({ status: 500 });
      await responseClosed;
      // What the socket buffers hold on both sides at most, far below the body.
      expect(written).toBeLessThan(32 * 1024 * 1024);
    });

    it('a network failure (nothing listens): the error names its cause', async () => {
      const url = await rawServer(() => undefined);
      await raw.pop()!.close();
      const error = await failure(new HttpTransport(url).call('A.b', []));
      expect(error.code).toBe(-32000);
      expect(error.message).toMatch(/^Transport error: \S.*\(ECONNREFUSED\)$/);
      expect(error.data).toStrictEqual({ cause: 'ECONNREFUSED' });
    });

    it('a timeout', async () => {
      const url = await rawServer(() => undefined); // never answers
      const error = await failure(new HttpTransport(url, { timeoutMs: 50 }).call('A.b', []));
      expect(error.code).toBe(-32000);
      expect(error.message).toBe('Transport error: timed out after 50 ms');
      const perCall = await failure(new HttpTransport(url).call('A.b', [], { timeoutMs: 20 }));
      expect(perCall.message).toBe('Transport error: timed out after 20 ms');
    });

    it('an abort, also before the call starts', async () => {
      const url = await rawServer(() => undefined);
      const controller = new AbortController();
      const pending = new HttpTransport(url).call('A.b', [], { signal: controller.signal });
      setTimeout(() => controller.abort(), 20);
      const error = await failure(pending);
      expect(error.code).toBe(-32000);
      expect(error.message).toBe('Transport error: request aborted');
      const early = await failure(new HttpTransport(url).call('A.b', [], { signal: AbortSignal.abort() }));
      expect(early.message).toBe('Transport error: request aborted');
    });
  });
});

describe('RpcError', () => {
  it('is also exported under its old name RPCError (deprecated), the same class', () => {
    expect(RPCError).toBe(RpcError);
    const error = new RPCError(-32000, 'Transport error: x');
    expect(error).toBeInstanceOf(RpcError);
    expect(error.name).toBe('RpcError');
  });
});

describe('DeclaredError', () => {
  it('takes its code, name and default message from the subclass statics', () => {
    const plain = new CartNotFoundError();
    expect(plain.code).toBe(1001);
    expect(plain.message).toBe('CartNotFound: cart does not exist');
    expect(plain.detail).toBe('cart does not exist');
    expect(plain.name).toBe('CartNotFoundError');
    expect(plain.data).toBeUndefined();
    const detailed = new CartEmptyError('cart c1 is empty', { cartId: 'c1' });
    expect(detailed.message).toBe('CartEmpty: cart c1 is empty');
    expect(detailed.data).toStrictEqual({ cartId: 'c1' });
    for (const cls of [CartEmptyError, DeclaredError, RpcError, Error]) expect(detailed).toBeInstanceOf(cls);
    expect(detailed).not.toBeInstanceOf(CartNotFoundError);
  });
});

describe('callMethod', () => {
  it('rethrows a declared code as its class, with the detail and data', async () => {
    const transport = new HttpTransport(checkout.url);
    const notFound = await failure(
      callMethod(
        transport,
        'OrderService.createOrder',
        [{ cartId: 'x', shippingAddress: address, paymentMethod: 'paypal' }],
        orderServiceErrors,
      ),
    );
    expect(notFound).toBeInstanceOf(CartNotFoundError);
    expect(notFound.message).toBe('CartNotFound: cart does not exist');
    expect((notFound as CartNotFoundError).detail).toBe('cart does not exist');

    const cart = (await callMethod(transport, 'CartService.addToCart', [{ productId: 'p1', quantity: 1 }], [])) as { cartId: string };
    await callMethod(transport, 'CartService.clearCart', [cart.cartId], []);
    const empty = await failure(
      callMethod(
        transport,
        'OrderService.createOrder',
        [{ cartId: cart.cartId, shippingAddress: address, paymentMethod: 'paypal' }],
        orderServiceErrors,
      ),
    );
    expect(empty).toBeInstanceOf(CartEmptyError);
    expect(empty.message).toBe(`CartEmpty: cart ${cart.cartId} is empty`);
  });

  it('leaves other errors alone and returns results', async () => {
    const transport = new HttpTransport(checkout.url);
    expect(await callMethod(transport, 'CartService.clearCart', ['none'], orderServiceErrors)).toBe(false);
    const other = await failure(callMethod(transport, 'Nope.nothing', [], orderServiceErrors));
    expect(other).not.toBeInstanceOf(DeclaredError);
    expect(other.code).toBe(-32601);
    const fake = { call: async () => Promise.reject(new RpcError(1001, 'no prefix here')) };
    const unprefixed = await failure(callMethod(fake, 'A.b', [], orderServiceErrors));
    expect(unprefixed).toBeInstanceOf(CartNotFoundError);
    expect(unprefixed.message).toBe('CartNotFound: no prefix here');
  });
});

describe('callMethodWithoutRaises', () => {
  it('returns results, sends the contract and the read names, and passes every error on as it came', async () => {
    const seen: unknown[] = [];
    const transport = {
      call: async (method: string, params: unknown[], options?: unknown) => {
        seen.push(options);
        if (method === 'A.fail') throw new RpcError(1001, 'CartNotFound: cart does not exist');
        return params.length;
      },
    };
    expect(await callMethodWithoutRaises(transport, 'A.b', [1, 2], { headers: { 'x-other': '1' } }, 'contract-1', ['x', 'y'])).toBe(2);
    expect(seen[0]).toStrictEqual({ headers: { [CONTRACT_HEADER]: 'contract-1', 'x-other': '1' }, read: ['x', 'y'] });
    // A code some declared error has stays an RpcError: the method declares none.
    const error = await failure(callMethodWithoutRaises(transport, 'A.fail', [], undefined, 'contract-1'));
    expect(error).toBeInstanceOf(RpcError);
    expect(error).not.toBeInstanceOf(DeclaredError);
    expect(error.code).toBe(1001);
  });
});

describe('settle', () => {
  it('gives the result, a declared error by its IDL name, or any other RpcError as rpc-error; rethrows the rest', async () => {
    const transport = new HttpTransport(checkout.url);
    const createOrder = (cartId: string) =>
      callMethod(
        transport,
        'OrderService.createOrder',
        [{ cartId, shippingAddress: address, paymentMethod: 'paypal' }],
        orderServiceErrors,
      );
    expect(await settle(transport.call('CatalogService.getProduct', ['none']))).toStrictEqual({ ok: true, value: null });
    const notFound = await settle(createOrder('x'));
    expect(notFound).toMatchObject({ ok: false, kind: 'CartNotFound' });
    expect(notFound.error).toBeInstanceOf(CartNotFoundError);
    const invalid = await settle(transport.call('CatalogService.getProduct', [5]));
    expect(invalid).toMatchObject({ ok: false, kind: 'rpc-error', error: { code: -32602 } });
    const bug = new TypeError('bug in an interceptor');
    await expect(settle(Promise.reject(bug))).rejects.toBe(bug);
  });
});
