/**
 * The OpenAPI binding (docs/protocol.md §3) and the three adapters: the standalone Node server,
 * connect-style middleware, and the web-standard fetch handler.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetchHandler, createMiddleware, createRpcServer, HttpTransport, listen } from '../../runtime/index.js';
import { listenAddress } from '../../runtime/node.js';
import { calcHandlers, calcIdl } from './fixtures/calc-idl.js';
import { checkoutIdl } from './fixtures/checkout-idl.js';
import { checkoutHandlers, post, serverHandle, startServer, type TestServer } from './helpers.js';

const address = { street: 's', city: 'c', state: 's', zipCode: 'z', country: 'c' };

describe('OpenAPI binding: POST <base>/<Interface>/<method> with named params', () => {
  let server: TestServer;
  beforeAll(async () => {
    const { handlers } = checkoutHandlers();
    server = await startServer({
      handlers: {
        ...handlers,
        CatalogService: {
          ...handlers.CatalogService,
          listProducts: () => {
            throw new Error('db down');
          },
        },
      },
    });
  });
  afterAll(() => server?.close());

  const call = async (path: string, body?: unknown) => {
    const answer = await fetch(server.url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    expect(answer.headers.get('content-type')).toBe('application/json');
    return { status: answer.status, json: await answer.json() };
  };

  it('answers 200 with the bare result', async () => {
    const added = await call('/CartService/addToCart', { request: { productId: 'p2', quantity: 2 } });
    expect(added).toStrictEqual({
      status: 200,
      json: { cartId: 'cart-1', items: [{ productId: 'p2', quantity: 2, price: 20 }], subtotal: 40 },
    });
    expect(await call('/CartService/clearCart', { cartId: 'cart-1' })).toStrictEqual({ status: 200, json: true });
  });

  it('answers JSON null for an absent optional result', async () => {
    expect(await call('/CatalogService/getProduct', { productId: 'unknown' })).toStrictEqual({ status: 200, json: null });
  });

  it('works under a base path', async () => {
    expect(await call('/api/v2/CatalogService/getProduct', { productId: 'p1' })).toMatchObject({ status: 200, json: { productId: 'p1' } });
  });

  it('invalid params: 400 with {code, message, data}', async () => {
    expect(await call('/CartService/addToCart', { request: { productId: 'p2', quantity: 'two' } })).toStrictEqual({
      status: 400,
      json: {
        code: -32602,
        message: 'Invalid params: params.request.quantity: expected integer',
        data: { errors: [{ path: 'params.request.quantity', message: 'expected integer' }] },
      },
    });
    expect(await call('/CartService/getCart', {})).toStrictEqual({
      status: 400,
      json: {
        code: -32602,
        message: "Invalid params: params: missing parameter 'cartId'",
        data: { errors: [{ path: 'params', message: "missing parameter 'cartId'" }] },
      },
    });
    expect(await call('/CartService/addToCart', { request: { productId: 'nope', quantity: 1 } })).toStrictEqual({
      status: 400,
      json: { code: -32602, message: 'Product not found' },
    });
  });

  it('a body that is not an object of named params: 400', async () => {
    expect(await call('/CartService/getCart', ['c1'])).toStrictEqual({
      status: 400,
      json: { code: -32600, message: 'Invalid Request: body must be a JSON object of named parameters' },
    });
    const broken = await call('/CartService/getCart', '{"cartId":');
    expect(broken.status).toBe(400);
    expect(broken.json.code).toBe(-32700);
    expect(broken.json.message).toMatch(/^Parse error: /);
  });

  it('a declared error: 422; an internal error: 500 without details', async () => {
    expect(
      await call('/OrderService/createOrder', { request: { cartId: 'none', shippingAddress: address, paymentMethod: 'paypal' } }),
    ).toStrictEqual({
      status: 422,
      json: { code: 1001, message: 'CartNotFound: cart does not exist' },
    });
    // A zero-parameter method takes no body at all.
    expect(await call('/CatalogService/listProducts')).toStrictEqual({ status: 500, json: { code: -32603, message: 'Internal error' } });
  });

  it('other verbs: 405', async () => {
    // A method that is not @readonly: a GET of one that is would be its read over GET.
    const answer = await fetch(`${server.url}/CartService/clearCart`);
    expect(answer.status).toBe(405);
    expect(await answer.text()).toBe('{"error":"Method Not Allowed"}');
  });

  it('a path of two segments or more that names no registered method is 404 with the error body', async () => {
    const message = { jsonrpc: '2.0', method: 'CartService.clearCart', params: ['x'], id: 1 };
    for (const path of [
      '/Nope/nothing',
      '/CatalogService/getProdcut',
      '/catalogservice/getproduct',
      '/CatalogService/getProduct/',
      '/some/deep/path',
      '/api/CatalogService/getProdcut?x=1',
    ]) {
      const answer = await post(server.url + path, message);
      expect(answer.status, path).toBe(404);
      expect(answer.headers.get('content-type')).toBe('application/json');
      expect(answer.json, path).toStrictEqual({ code: -32601, message: `Method not found: ${path.split('?')[0]}` });
    }
  });

  it('the base and one segment below it stay JSON-RPC', async () => {
    for (const path of ['', '/', '/rpc', '/rpc/', '/CatalogService', '/CatalogService/', '/?x=1']) {
      const answer = await post(server.url + path, { jsonrpc: '2.0', method: 'CartService.clearCart', params: ['x'], id: 1 });
      expect(answer.json, path).toStrictEqual({ jsonrpc: '2.0', result: false, id: 1 });
    }
  });
});

describe('listen({ basePath })', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ openApiDocument: { openapi: '3.1.0' }, listen: { basePath: '/api/v1/' } });
  });
  afterAll(() => server?.close());
  const clearCart = { jsonrpc: '2.0', method: 'CartService.clearCart', params: ['x'], id: 1 };

  it('answers JSON-RPC on the base and one segment below it, the OpenAPI binding under it', async () => {
    for (const path of ['/api/v1', '/api/v1/', '/api/v1/rpc?x=1']) {
      expect((await post(server.url + path, clearCart)).json, path).toStrictEqual({ jsonrpc: '2.0', result: false, id: 1 });
    }
    const product = await post(`${server.url}/api/v1/CatalogService/getProduct`, { productId: 'p1' });
    expect(product.json).toMatchObject({ productId: 'p1' });
    const typo = await post(`${server.url}/api/v1/CatalogService/getProdcut`, { productId: 'p1' });
    expect(typo.status).toBe(404);
    expect(typo.json).toStrictEqual({ code: -32601, message: 'Method not found: /CatalogService/getProdcut' });
  });

  it('answers a POST outside the base with 404, and still serves the OpenAPI document', async () => {
    for (const path of ['/', '/api', '/api/v10', '/CatalogService/getProduct']) {
      const answer = await post(server.url + path, clearCart);
      expect(answer.status, path).toBe(404);
      expect(answer.text).toBe('{"error":"Not Found"}');
    }
    const document = await fetch(`${server.url}/openapi.json`);
    expect(await document.json()).toStrictEqual({ openapi: '3.1.0' });
  });

  it('refuses a basePath that does not start with a slash', () => {
    const rpc = createRpcServer({ idl: calcIdl, handlers: calcHandlers });
    expect(() => listen(rpc, { port: 0, basePath: 'api' })).toThrow('basePath must start with \'/\', got "api"');
    expect(() => createMiddleware(rpc, { path: 'rpc' })).toThrow('createMiddleware: path must start with \'/\', got "rpc"');
  });
});

describe('createMiddleware (connect / Vite / Express)', () => {
  let server: TestServer;
  beforeAll(async () => {
    const rpc = createRpcServer({ idl: checkoutIdl, handlers: checkoutHandlers().handlers });
    const middleware = createMiddleware(rpc, { path: '/api/rpc' });
    // A minimal connect-style chain: an optional body parser, our middleware, then a fallback.
    const httpServer = http.createServer((req, res) => {
      const fallback = () => res.writeHead(404, { 'content-type': 'text/plain' }).end(`next() for ${req.url}`);
      if (req.headers['x-pre-parse'] === 'yes') {
        let text = '';
        req.on('data', (chunk) => (text += chunk));
        req.on('end', () => {
          (req as http.IncomingMessage & { body?: unknown }).body = JSON.parse(text);
          middleware(req, res, fallback);
        });
        return;
      }
      middleware(req, res, fallback);
    });
    await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
    server = serverHandle(httpServer);
  });
  afterAll(() => server?.close());

  it('answers JSON-RPC at its path, with or without a query or trailing slash', async () => {
    for (const path of ['/api/rpc', '/api/rpc/', '/api/rpc?x=1']) {
      const answer = await post(server.url + path, { jsonrpc: '2.0', method: 'CartService.clearCart', params: ['x'], id: 1 });
      expect(answer.status).toBe(200);
      expect(answer.json).toStrictEqual({ jsonrpc: '2.0', result: false, id: 1 });
    }
    expect(await new HttpTransport(`${server.url}/api/rpc`).call('CatalogService.getProduct', ['p1'])).toMatchObject({ productId: 'p1' });
  });

  it('answers the OpenAPI binding under <path>/<Interface>/<method>', async () => {
    const answer = await post(`${server.url}/api/rpc/CartService/getCart`, { cartId: 'x' });
    expect(answer.status).toBe(200);
    expect(answer.text).toBe('null');
  });

  it('passes requests outside its path, and other verbs on paths it does not answer, to next()', async () => {
    for (const path of ['/', '/api', '/api/rpcx', '/other', '/other/CartService/getCart']) {
      const answer = await post(server.url + path, {});
      expect(answer.status).toBe(404);
      expect(answer.text).toBe(`next() for ${path}`);
    }
    for (const path of ['/api/rpc/index.html', '/api/rpc/Nope/x', '/api/rpc/assets/app.js']) {
      const answer = await fetch(server.url + path);
      expect(await answer.text()).toBe(`next() for ${path}`);
    }
  });

  it('answers a POST under its path that names no method with 404 and the error body', async () => {
    for (const [path, message] of [
      ['/api/rpc/Nope/x', 'Method not found: /Nope/x'],
      ['/api/rpc/CartService/getCart/', 'Method not found: /CartService/getCart/'],
      ['/api/rpc/CartService/getCart/extra', 'Method not found: /CartService/getCart/extra'],
    ]) {
      const answer = await post(server.url + path, {});
      expect(answer.status, path).toBe(404);
      expect(answer.json, path).toStrictEqual({ code: -32601, message });
    }
  });

  it('answers JSON-RPC on its path and one segment below it', async () => {
    for (const path of ['/api/rpc', '/api/rpc/', '/api/rpc/batch']) {
      const answer = await post(server.url + path, { jsonrpc: '2.0', method: 'CartService.clearCart', params: ['x'], id: 1 });
      expect(answer.json, path).toStrictEqual({ jsonrpc: '2.0', result: false, id: 1 });
    }
  });

  it('answers 405 to other verbs at its path', async () => {
    const answer = await fetch(`${server.url}/api/rpc`);
    expect(answer.status).toBe(405);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(await answer.text()).toBe('{"error":"Method Not Allowed"}');
  });

  it('uses a body an earlier body parser already read (req.body)', async () => {
    const answer = await post(
      `${server.url}/api/rpc`,
      { jsonrpc: '2.0', method: 'CatalogService.getProduct', params: ['p2'], id: 9 },
      {
        headers: { 'content-type': 'application/json', 'x-pre-parse': 'yes' },
      },
    );
    expect(answer.json).toMatchObject({ jsonrpc: '2.0', result: { productId: 'p2' }, id: 9 });
  });
});

describe('createFetchHandler (web-standard Request/Response)', () => {
  const rpc = createRpcServer({ idl: calcIdl, handlers: calcHandlers, maxBodyBytes: 100 });
  const handle = createFetchHandler(rpc);
  const request = (body: BodyInit | null, init: RequestInit = {}, path = '/') =>
    new Request(`http://localhost${path}`, { method: 'POST', body, headers: { 'content-type': 'application/json' }, ...init });

  it('200 with the JSON-RPC response', async () => {
    const response = await handle(request(JSON.stringify({ jsonrpc: '2.0', method: 'Calc.add', params: { b: 2, a: 1 }, id: 1 })));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toStrictEqual({ jsonrpc: '2.0', result: 3, id: 1 });
  });

  it('204 with no body for a notification', async () => {
    const response = await handle(request(JSON.stringify({ jsonrpc: '2.0', method: 'Calc.ping' })));
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
  });

  it('405 for other verbs', async () => {
    const response = await handle(new Request('http://localhost/', { method: 'GET' }));
    expect(response.status).toBe(405);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.text()).toBe('{"error":"Method Not Allowed"}');
  });

  it('413 past maxBodyBytes, by Content-Length or while streaming', async () => {
    const big = JSON.stringify({ jsonrpc: '2.0', method: 'Calc.join', params: ['x'.repeat(200), 'y', 'z'], id: 1 });
    const declared = await handle(request(big));
    expect(declared.status).toBe(413);
    expect(await declared.text()).toBe('{"error":"Payload Too Large"}');
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new TextEncoder().encode('['.repeat(40)));
      },
    });
    const streamed = await handle(request(endless, { duplex: 'half' } as RequestInit));
    expect(streamed.status).toBe(413);
    expect(pulled).toBeLessThan(10);
  });

  it('the OpenAPI binding by path', async () => {
    const response = await handle(request(JSON.stringify({ a: 2, b: 3 }), {}, '/Calc/add'));
    expect(response.status).toBe(200);
    expect(await response.json()).toBe(5);
  });

  it('404 with the error body for a path that names no method', async () => {
    const response = await handle(request(JSON.stringify({ a: 2, b: 3 }), {}, '/Calc/Add'));
    expect(response.status).toBe(404);
    expect(await response.json()).toStrictEqual({ code: -32601, message: 'Method not found: /Calc/Add' });
  });

  it('basePath: the binding under it, 404 outside it before the body is read', async () => {
    const based = createFetchHandler(rpc, { basePath: '/api/' });
    const add = JSON.stringify({ jsonrpc: '2.0', method: 'Calc.add', params: [1, 2], id: 1 });
    for (const path of ['/api', '/api/', '/api/v1']) {
      expect(await (await based(request(add, {}, path))).json(), path).toStrictEqual({ jsonrpc: '2.0', result: 3, id: 1 });
    }
    expect(await (await based(request(JSON.stringify({ a: 2, b: 3 }), {}, '/api/Calc/add'))).json()).toBe(5);
    const typo = await based(request('{}', {}, '/api/Calc/Add'));
    expect(typo.status).toBe(404);
    expect(await typo.json()).toStrictEqual({ code: -32601, message: 'Method not found: /Calc/Add' });
    for (const path of ['/', '/apix', '/other/Calc/add']) {
      let pulled = 0;
      const body = new ReadableStream<Uint8Array>({ pull: () => void pulled++ }, { highWaterMark: 0 });
      const outside = await based(request(body, { duplex: 'half' } as RequestInit, path));
      expect(outside.status, path).toBe(404);
      expect(await outside.text()).toBe('{"error":"Not Found"}');
      expect(pulled).toBe(0);
    }
    expect(() => createFetchHandler(rpc, { basePath: 'api' })).toThrow('basePath must start with \'/\', got "api"');
  });

  it('415 for a body that is not JSON, before reading it', async () => {
    const ping = JSON.stringify({ jsonrpc: '2.0', method: 'Calc.ping', id: 1 });
    for (const headers of [{ 'content-type': 'text/plain;charset=UTF-8' }, {}]) {
      let pulled = 0;
      // highWaterMark 0: the stream is pulled only when someone reads it.
      const body = new ReadableStream<Uint8Array>(
        {
          pull(controller) {
            pulled++;
            controller.enqueue(new TextEncoder().encode(ping));
            controller.close();
          },
        },
        { highWaterMark: 0 },
      );
      const response = await handle(request(body, { headers, duplex: 'half' } as RequestInit));
      expect(response.status).toBe(415);
      expect(await response.text()).toBe('{"error":"Unsupported Media Type","message":"Content-Type must be application/json"}');
      expect(pulled).toBe(0);
    }
  });

  it('400 (not a rejected promise) when the body stream fails', async () => {
    const failing = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"jsonrpc":'));
      },
      pull(controller) {
        controller.error(new Error('connection reset'));
      },
    });
    const response = await handle(request(failing, { duplex: 'half' } as RequestInit));
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.text()).toBe('{"error":"Bad Request","message":"the request body could not be read"}');
    expect(rpc.bodyBudget.inUse).toBe(0);
  });

  it('503 with connection: close once bodies in flight pass maxBodyBytesInFlight; the bytes come back after', async () => {
    const budgeted = createRpcServer({ idl: calcIdl, handlers: calcHandlers, maxBodyBytes: 100, maxBodyBytesInFlight: 150 });
    const handleBudgeted = createFetchHandler(budgeted);
    const encoder = new TextEncoder();
    const head = `{"jsonrpc":"2.0","method":"Calc.join","params":["${'x'.repeat(29)}",`;
    expect(head.length).toBe(80);
    // A slow upload: 80 bytes, then nothing until `finish` is called.
    const slowUpload = () => {
      let finish!: () => void;
      const released = new Promise<void>((resolve) => (finish = resolve));
      let sent = false;
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (!sent) {
            sent = true;
            controller.enqueue(encoder.encode(head));
            return;
          }
          await released;
          controller.enqueue(encoder.encode('"b","c"],"id":1}'));
          controller.close();
        },
      });
      return { response: handleBudgeted(request(body, { duplex: 'half' } as RequestInit)), finish };
    };
    const first = slowUpload();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(budgeted.bodyBudget.inUse).toBe(80);

    const second = slowUpload();
    const refused = await second.response;
    expect(refused.status).toBe(503);
    expect(refused.headers.get('connection')).toBe('close');
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toStrictEqual({ error: 'Service Unavailable', message: 'too many request bodies in flight, retry later' });

    // A body that does not fit is refused by its first chunk, whatever it announced.
    const declared = await handleBudgeted(
      request(encoder.encode('x'.repeat(90)), { headers: { 'content-type': 'application/json', 'content-length': '90' } }),
    );
    expect(declared.status).toBe(503);

    first.finish();
    expect(await (await first.response).json()).toStrictEqual({ jsonrpc: '2.0', result: `${'x'.repeat(29)}-b-c`, id: 1 });
    expect(budgeted.bodyBudget.inUse).toBe(0);
    const after = await handleBudgeted(request(JSON.stringify({ jsonrpc: '2.0', method: 'Calc.ping', id: 2 })));
    expect(after.status).toBe(200);
  });

  it('408 with connection: close for a body that stops arriving; an announced length takes nothing from the budget', async () => {
    const paced = createRpcServer({ idl: calcIdl, handlers: calcHandlers, maxBodyBytes: 100, bodyGraceMs: 100 });
    const handlePaced = createFetchHandler(paced);
    let cancelled = false;
    const stalled = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"jsonrpc":'));
      },
      pull: () => new Promise<void>(() => undefined),
      cancel() {
        cancelled = true;
      },
    });
    const answer = handlePaced(
      request(stalled, { duplex: 'half', headers: { 'content-type': 'application/json', 'content-length': '100' } } as RequestInit),
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(paced.bodyBudget.inUse).toBe(11);
    const refused = await answer;
    expect(refused.status).toBe(408);
    expect(refused.headers.get('connection')).toBe('close');
    expect(await refused.json()).toStrictEqual({ error: 'Request Timeout', message: 'the request body arrived too slowly' });
    expect(cancelled).toBe(true);
    expect(paced.bodyBudget.inUse).toBe(0);
    expect(paced.bodyPace.watching).toBe(0);
  });
});

describe('listen', () => {
  it('binds options.port, else SERVER_PORT, else 8080; host 0.0.0.0 unless given', () => {
    expect(listenAddress({}, {})).toStrictEqual({ port: 8080, host: '0.0.0.0' });
    expect(listenAddress({}, { SERVER_PORT: '9123' })).toStrictEqual({ port: 9123, host: '0.0.0.0' });
    expect(listenAddress({ port: 7000, host: '127.0.0.1' }, { SERVER_PORT: '9123' })).toStrictEqual({ port: 7000, host: '127.0.0.1' });
    expect(() => listenAddress({}, { SERVER_PORT: 'eighty' })).toThrow('SERVER_PORT must be an integer from 0 to 65535, got "eighty"');
  });

  it('listens on SERVER_PORT when no port is given', async () => {
    const probe = await listen(createRpcServer({ idl: calcIdl, handlers: calcHandlers }), { port: 0, host: '127.0.0.1' });
    const { port } = probe.address() as { port: number };
    await serverHandle(probe).close();
    const saved = process.env.SERVER_PORT;
    process.env.SERVER_PORT = String(port);
    try {
      const server = serverHandle(await listen(createRpcServer({ idl: calcIdl, handlers: calcHandlers }), { host: '127.0.0.1' }));
      try {
        expect(server.port).toBe(port);
        expect((await post(server.url, { jsonrpc: '2.0', method: 'Calc.ping', id: 1 })).json).toStrictEqual({
          jsonrpc: '2.0',
          result: true,
          id: 1,
        });
      } finally {
        await server.close();
      }
    } finally {
      if (saved === undefined) delete process.env.SERVER_PORT;
      else process.env.SERVER_PORT = saved;
    }
  });

  it('rejects when the port is taken', async () => {
    const first = serverHandle(await listen(createRpcServer({ idl: calcIdl, handlers: calcHandlers }), { port: 0, host: '127.0.0.1' }));
    try {
      await expect(
        listen(createRpcServer({ idl: calcIdl, handlers: calcHandlers }), { port: first.port, host: '127.0.0.1' }),
      ).rejects.toThrow(/EADDRINUSE/);
    } finally {
      await first.close();
    }
  });
});

describe('openApiDocument: the document served on GET openApiPath', () => {
  const document = { openapi: '3.1.0', info: { title: 'Calc', version: '1.0.0' }, paths: {} };

  it('listen serves it on GET and HEAD /openapi.json (query ignored); other GETs stay 405, calls still work', async () => {
    const server = serverHandle(
      await listen(createRpcServer({ idl: calcIdl, handlers: calcHandlers, openApiDocument: document }), { port: 0, host: '127.0.0.1' }),
    );
    try {
      const got = await fetch(`${server.url}/openapi.json?v=1`);
      expect(got.status).toBe(200);
      expect(got.headers.get('content-type')).toBe('application/json');
      expect(await got.json()).toStrictEqual(document);
      const head = await fetch(`${server.url}/openapi.json`, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(await head.text()).toBe('');
      expect((await fetch(`${server.url}/other.json`)).status).toBe(405);
      expect((await post(server.url, { jsonrpc: '2.0', method: 'Calc.ping', id: 1 })).json).toStrictEqual({
        jsonrpc: '2.0',
        result: true,
        id: 1,
      });
    } finally {
      await server.close();
    }
  });

  it('the fetch handler and handleHttp serve it at openApiPath; without a document GET is 405', async () => {
    const rpc = createRpcServer({ idl: calcIdl, handlers: calcHandlers, openApiDocument: document, openApiPath: '/api/doc.json' });
    const handler = createFetchHandler(rpc);
    const answer = await handler(new Request('http://x/api/doc.json'));
    expect(answer.status).toBe(200);
    expect(await answer.json()).toStrictEqual(document);
    expect((await handler(new Request('http://x/openapi.json'))).status).toBe(405);
    expect((await rpc.handleHttp({ method: 'GET', path: '/api/doc.json', body: '' })).status).toBe(200);
    const plain = createRpcServer({ idl: calcIdl, handlers: calcHandlers });
    expect((await createFetchHandler(plain)(new Request('http://x/openapi.json'))).status).toBe(405);
    expect(() => createRpcServer({ idl: calcIdl, handlers: calcHandlers, openApiDocument: document, openApiPath: 'doc.json' })).toThrow(
      "openApiPath must start with '/'",
    );
  });
});
