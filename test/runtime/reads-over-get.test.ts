/**
 * Reads over GET (docs/protocol.md, "Reads over GET"): `@readonly` methods answered as
 * `GET <base>/<Interface>/<method>?<param>=<JSON>`, with Cache-Control by the `cache` option, an
 * ETag and 304; everything else as before. The hosts (listen, Express, Fastify, Hono, fetch) are
 * covered by frameworks.test.ts, the generated client with `reads: readOverGet` there too.
 */
import { describe, expect, it } from 'vitest';
import { HttpTransport, readOverGet } from '../../runtime/client.js';
import { createFetchHandler, createRpcServer, type RpcServerOptions } from '../../runtime/index.js';
import { readAddress } from '../../runtime/read-exchange.js';
import { checkoutIdlWithoutReads, checkoutIdlWithReads } from './fixtures/checkout-idl.js';
import { checkoutHandlers, products } from './helpers.js';

function readServer(options: Partial<RpcServerOptions> = {}) {
  const logged: unknown[] = [];
  const server = createRpcServer({
    idl: checkoutIdlWithReads,
    handlers: checkoutHandlers().handlers,
    logger: { error: (message) => void logged.push(message) },
    ...options,
  });
  const handle = createFetchHandler(server, { basePath: '/rpc' });
  const get = async (path: string, headers: Record<string, string> = {}) => {
    const response = await handle(new Request(`http://api.test/rpc${path}`, { headers }));
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, json: text === '' ? undefined : JSON.parse(text) };
  };
  return { server, handle, get, logged };
}

const q = (value: unknown) => encodeURIComponent(JSON.stringify(value));

describe('a @readonly method over GET', () => {
  it('answers as the REST binding does, with an ETag; POST is unchanged', async () => {
    const { get, handle } = readServer();
    const answer = await get(`/CatalogService/getProduct?productId=${q('p1')}`);
    expect(answer.status).toBe(200);
    expect(answer.json).toStrictEqual(products[0]);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(answer.headers.get('etag')).toMatch(/^"[0-9a-f]{16}"$/);
    expect(answer.headers.get('cache-control')).toBeNull();
    expect((await get('/CatalogService/listProducts')).json).toStrictEqual(products);
    // `+` and unencoded quotes are read as forms and browsers write them.
    expect((await get('/CatalogService/getProduct?productId="p2"')).json).toMatchObject({ productId: 'p2' });
    expect((await get('/CatalogService/getProduct?productId=%22nope%22')).text).toBe('null');

    const post = await handle(
      new Request('http://api.test/rpc', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'CatalogService.getProduct', params: ['p1'] }),
      }),
    );
    expect(await post.json()).toStrictEqual({ jsonrpc: '2.0', result: products[0], id: 1 });
    expect(post.headers.get('etag')).toBeNull();
  });

  it('answers 304 to a matching If-None-Match, by the weak comparison, and in full otherwise', async () => {
    const { get } = readServer();
    const path = `/CatalogService/getProduct?productId=${q('p1')}`;
    const tag = (await get(path)).headers.get('etag')!;
    for (const header of [tag, `W/${tag}`, `"other", ${tag}`, '*']) {
      const answer = await get(path, { 'if-none-match': header });
      expect(answer.status, header).toBe(304);
      expect(answer.text).toBe('');
      expect(answer.headers.get('etag')).toBe(tag);
      expect(answer.headers.get('content-type')).toBeNull();
    }
    const changed = await get(`/CatalogService/getProduct?productId=${q('p2')}`, { 'if-none-match': tag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(tag);
  });

  it('gives each method the Cache-Control of its `cache` rule, and no ETag with etag: false', async () => {
    const { get } = readServer({
      cache: {
        'CatalogService.listProducts': { maxAgeSeconds: 60, sharedMaxAgeSeconds: 600, staleWhileRevalidateSeconds: 30 },
        'CatalogService.getProduct': { private: true, noCache: true, maxAgeSeconds: 0 },
        'CartService.getCart': { etag: false },
      },
    });
    const list = await get('/CatalogService/listProducts');
    expect(list.headers.get('cache-control')).toBe('max-age=60, s-maxage=600, stale-while-revalidate=30');
    const notModified = await get('/CatalogService/listProducts', { 'if-none-match': list.headers.get('etag')! });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get('cache-control')).toBe('max-age=60, s-maxage=600, stale-while-revalidate=30');
    expect((await get(`/CatalogService/getProduct?productId=${q('p1')}`)).headers.get('cache-control')).toBe(
      'private, no-cache, max-age=0',
    );
    const cart = await get(`/CartService/getCart?cartId=${q('none')}`, { 'if-none-match': '*' });
    expect(cart.status).toBe(200);
    expect(cart.headers.get('etag')).toBeNull();
    // Errors are never cacheable answers: no Cache-Control, no ETag.
    const refused = await get('/CatalogService/listProducts?extra=1');
    expect(refused.status).toBe(400);
    expect(refused.headers.get('cache-control')).toBeNull();
    expect(refused.headers.get('etag')).toBeNull();
  });

  it('refuses cache rules for methods that are no reads, or that cannot be written', () => {
    const make = (cache: RpcServerOptions['cache']) => () =>
      createRpcServer({ idl: checkoutIdlWithReads, handlers: checkoutHandlers().handlers, cache });
    expect(make({ 'CatalogService.nope': {} })).toThrow('createRpcServer: cache["CatalogService.nope"]: no such method');
    expect(make({ 'CartService.addToCart': { maxAgeSeconds: 1 } })).toThrow('only @readonly methods');
    expect(make({ 'OrderService.watchOrder': { maxAgeSeconds: 1 } })).toThrow('only @readonly methods');
    expect(make({ 'CatalogService.listProducts': { maxAgeSeconds: -1 } })).toThrow(
      'maxAgeSeconds must be a whole number of seconds, got -1',
    );
    expect(make({ 'CatalogService.listProducts': { maxAgeSeconds: 1.5 } })).toThrow('got 1.5');
    expect(make({ 'CatalogService.listProducts': { private: true, sharedMaxAgeSeconds: 1 } })).toThrow('private excludes');
  });

  it('answers 405 to a GET of any other method, a stream method, or a server without reads', async () => {
    const { get } = readServer();
    for (const path of [
      `/CartService/addToCart?request=${q({ productId: 'p1', quantity: 1 })}`,
      `/OrderService/watchOrder?orderId=${q('o')}`,
      '/',
      '/CatalogService/nope',
    ]) {
      const answer = await get(path);
      expect(answer.status, path).toBe(405);
      expect(answer.text).toBe('{"error":"Method Not Allowed"}');
    }
    const plain = createFetchHandler(createRpcServer({ idl: checkoutIdlWithoutReads, handlers: checkoutHandlers().handlers }));
    expect((await plain(new Request(`http://api.test/CatalogService/getProduct?productId=${q('p1')}`))).status).toBe(405);
    // Outside the base: not a read.
    const { handle } = readServer();
    expect((await handle(new Request(`http://api.test/elsewhere/CatalogService/listProducts`))).status).toBe(405);
  });

  it('refuses bad queries with the binding error body and the JSON path of the parameter', async () => {
    const { get } = readServer();
    const cases: [string, number, string][] = [
      [`/CatalogService/getProduct?productId=5`, -32602, 'Invalid params: params.productId: expected string'],
      [`/CatalogService/getProduct`, -32602, "Invalid params: params: missing parameter 'productId'"],
      [`/CatalogService/getProduct?productId=${q('p1')}&color=1`, -32602, "Invalid params: params.color: unknown parameter 'color'"],
      [`/CatalogService/getProduct?productId=p1`, -32700, 'Parse error: params.productId: '],
      [`/CatalogService/getProduct?productId=`, -32700, 'Parse error: params.productId: '],
      [`/CatalogService/getProduct?productId`, -32700, 'Parse error: params.productId: no value'],
      [
        `/CatalogService/getProduct?productId=%E0%A4%A`,
        -32700,
        'Parse error: params.productId: the value is not valid percent-encoded UTF-8',
      ],
      [
        `/CatalogService/getProduct?productId=%C0%80`,
        -32700,
        'Parse error: params.productId: the value is not valid percent-encoded UTF-8',
      ],
      [`/CatalogService/getProduct?%FF=1`, -32700, 'Parse error: a query parameter name is not valid percent-encoded UTF-8'],
      [
        `/CatalogService/getProduct?productId=${q('a')}&productId=${q('b')}`,
        -32600,
        'Invalid Request: params.productId is given twice in the query',
      ],
    ];
    for (const [path, code, message] of cases) {
      const answer = await get(path);
      expect(answer.status, path).toBe(400);
      expect(answer.json.code, path).toBe(code);
      expect(answer.json.message.startsWith(message), `${path}: ${answer.json.message}`).toBe(true);
    }
  });

  it('bounds the query by maxBodyBytes and its JSON by maxDepth', async () => {
    const { get } = readServer({ maxBodyBytes: 1000, maxDepth: 8 });
    const long = await get(`/CatalogService/getProduct?productId=${q('x'.repeat(1000))}`);
    expect(long.status).toBe(414);
    expect(long.json).toStrictEqual({ error: 'URI Too Long', message: 'the query is longer than 1000 characters' });
    const deep = await get(`/CatalogService/getProduct?productId=${encodeURIComponent('['.repeat(8) + ']'.repeat(8))}`);
    expect(deep.status).toBe(400);
    expect(deep.json.message).toBe('Parse error: params.productId: JSON nested deeper than 7 levels');
    expect((await get(`/CatalogService/getProduct?productId=${encodeURIComponent('['.repeat(7) + ']'.repeat(7))}`)).json.code).toBe(-32602);
  });

  it('runs middleware, onCall and instrumentation as for a POST, and drops __proto__', async () => {
    const seen: string[] = [];
    const { get } = readServer({
      middleware: [
        (call, next) => {
          seen.push(`middleware ${call.method} ${JSON.stringify(call.params)} ${call.ctx.headers['x-user']}`);
          return next();
        },
      ],
      onCall: (event) => void seen.push(`onCall ${event.method}`),
      instrumentation: {
        startCall: (call) => {
          seen.push(`span ${call.method}`);
          return { run: (work) => work(), end: () => undefined };
        },
      },
    });
    const answer = await get(`/CatalogService/getProduct?productId=${q('p1')}&__proto__=${q({ polluted: true })}`, { 'x-user': 'ada' });
    expect(answer.status).toBe(200);
    expect(seen).toEqual([
      'span CatalogService.getProduct',
      'middleware CatalogService.getProduct ["p1"] ada',
      'onCall CatalogService.getProduct',
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('carries CORS headers to allowed origins, and preflights allow GET', async () => {
    const { get, handle } = readServer({ cors: { origins: ['https://app.test'] } });
    const path = `/CatalogService/getProduct?productId=${q('p1')}`;
    const allowed = await get(path, { origin: 'https://app.test' });
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.test');
    expect(allowed.headers.get('vary')).toBe('Origin');
    const other = await get(path, { origin: 'https://evil.test' });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    expect(other.headers.get('vary')).toBe('Origin');
    const notModified = await get(path, { origin: 'https://app.test', 'if-none-match': allowed.headers.get('etag')! });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get('access-control-allow-origin')).toBe('https://app.test');
    const preflight = await handle(
      new Request('http://api.test/rpc/CatalogService/getProduct', {
        method: 'OPTIONS',
        headers: { origin: 'https://app.test', 'access-control-request-method': 'GET' },
      }),
    );
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, POST');
    const withoutReads = createRpcServer({
      idl: checkoutIdlWithoutReads,
      handlers: checkoutHandlers().handlers,
      cors: { origins: ['https://app.test'] },
    });
    expect(
      withoutReads.answerWithoutCall('OPTIONS', '/', { origin: 'https://app.test', 'access-control-request-method': 'POST' }).headers,
    ).toMatchObject({
      'access-control-allow-methods': 'POST',
    });
  });
});

describe('the client', () => {
  it('writes a read as the REST path with one JSON query parameter per parameter, leaving out undefined ones', () => {
    expect(readAddress('http://h/rpc/', 'CatalogService.getProduct', ['productId'], ['p 1&'])).toBe(
      'http://h/rpc/CatalogService/getProduct?productId=%22p%201%26%22',
    );
    expect(readAddress('/rpc', 'inventory.Stock.list', ['cursor', 'perPage'], [undefined, 30])).toBe(
      '/rpc/inventory.Stock/list?perPage=30',
    );
    expect(readAddress('http://h', 'A.b', [], [])).toBe('http://h/A/b');
  });

  it('sends calls marked read as GETs only with reads: readOverGet, and reads REST errors as RpcErrors', async () => {
    const { handle } = readServer({
      middleware: [(call, next) => (call.params[0] === 'bad' ? Promise.reject(new Error('boom')) : next())],
    });
    const methods: string[] = [];
    const doFetch: typeof fetch = (input, init) => {
      methods.push(init?.method ?? 'GET');
      return handle(new Request(input, init));
    };
    const read = { read: ['productId'] };
    expect(
      await new HttpTransport('http://api.test/rpc', { fetch: doFetch }).call('CatalogService.getProduct', ['p1'], read),
    ).toStrictEqual(products[0]);
    const overGet = new HttpTransport('http://api.test/rpc', { fetch: doFetch, reads: readOverGet });
    expect(await overGet.call('CatalogService.getProduct', ['p1'], read)).toStrictEqual(products[0]);
    expect(await overGet.call('CatalogService.listProducts', [])).toStrictEqual(products);
    await expect(overGet.call('CatalogService.getProduct', [5], read)).rejects.toMatchObject({ code: -32602 });
    await expect(overGet.call('CatalogService.getProduct', ['bad'], read)).rejects.toMatchObject({
      code: -32603,
      message: 'Internal error',
    });
    expect(methods).toEqual(['POST', 'GET', 'POST', 'GET', 'GET']);
  });
});
