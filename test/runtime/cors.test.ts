/**
 * The `cors` option over real HTTP (docs/protocol.md, "CORS"): preflights from allowed origins, none
 * for others, the headers of answers to calls, and start-up checks. Without the option nothing
 * changes: every OPTIONS is 405 and no answer has a CORS header.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createMiddleware, createRpcServer, DEFAULT_CORS_ALLOWED_HEADERS, type RpcServerOptions } from '../../runtime/index.js';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkoutIdl } from './fixtures/checkout-idl.js';
import { checkoutHandlers, startServer, type TestServer } from './helpers.js';

const APP = 'http://app.test:5173';
const OTHER = 'https://evil.test';
const getProduct = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'CatalogService.getProduct', params: ['p1'] });

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(options: Partial<RpcServerOptions>): Promise<TestServer> {
  server = await startServer(options);
  return server;
}

const preflight = (url: string, origin: string, extra: Record<string, string> = {}) =>
  fetch(url, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type', ...extra },
  });
const callFrom = (url: string, origin: string, contentType = 'application/json') =>
  fetch(url, { method: 'POST', headers: { origin, 'content-type': contentType }, body: getProduct });
const corsHeaders = (response: Response) =>
  Object.fromEntries([...response.headers].filter(([name]) => name.startsWith('access-control-') || name === 'vary'));

describe('preflight', () => {
  it('from an allowed origin: 204 with the CORS headers, on the JSON-RPC endpoint and the REST binding', async () => {
    const { url } = await start({ cors: { origins: [APP] } });
    for (const path of ['/', '/CatalogService/getProduct']) {
      const response = await preflight(url + path, APP);
      expect(response.status).toBe(204);
      expect(await response.text()).toBe('');
      expect(corsHeaders(response)).toStrictEqual({
        'access-control-allow-origin': APP,
        // The checkout IDL's reads are @readonly, so they are answered over GET too.
        'access-control-allow-methods': 'GET, POST',
        'access-control-allow-headers': 'content-type, authorization, x-idlrpc-contract',
        'access-control-max-age': '600',
        vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
      });
    }
  });

  it('from another origin, or an OPTIONS that is no preflight: the 405 of today, without a CORS header', async () => {
    const { url } = await start({ cors: { origins: [APP] } });
    for (const response of [
      await preflight(url, OTHER),
      await fetch(url, { method: 'OPTIONS', headers: { origin: APP } }),
      await fetch(url, { method: 'OPTIONS' }),
    ]) {
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
      expect(await response.json()).toStrictEqual({ error: 'Method Not Allowed' });
      expect(corsHeaders(response)).toStrictEqual({});
    }
    const get = await fetch(url, { headers: { origin: APP } });
    expect(get.status).toBe(405);
    expect(corsHeaders(get)).toStrictEqual({});
  });

  it('without the option every OPTIONS is 405 and no answer has a CORS header', async () => {
    const { url } = await start({});
    const response = await preflight(url, APP);
    expect(response.status).toBe(405);
    expect(corsHeaders(response)).toStrictEqual({});
    expect(corsHeaders(await callFrom(url, APP))).toStrictEqual({});
  });

  it('lists the allowed headers, max age and credentials asked for; the default list is one exported constant to extend', async () => {
    const { url } = await start({
      cors: { origins: [APP], allowedHeaders: [...DEFAULT_CORS_ALLOWED_HEADERS, 'X-Request-Id'], maxAgeSeconds: 60, credentials: true },
    });
    const response = await preflight(url, APP);
    expect(response.headers.get('access-control-allow-headers')).toBe('content-type, authorization, x-idlrpc-contract, x-request-id');
    expect(response.headers.get('access-control-max-age')).toBe('60');
    expect(response.headers.get('access-control-allow-credentials')).toBe('true');
  });
});

describe('answers to calls', () => {
  it('from an allowed origin carry its Access-Control-Allow-Origin (also 415 and 404, so the page can read them); others none', async () => {
    const { url } = await start({ cors: { origins: [APP], exposedHeaders: ['X-Trace'] } });
    const allowed = await callFrom(url, APP);
    expect(await allowed.json()).toMatchObject({ result: { productId: 'p1' } });
    expect(corsHeaders(allowed)).toStrictEqual({
      'access-control-allow-origin': APP,
      'access-control-expose-headers': 'x-trace',
      vary: 'Origin',
    });
    const refused = await callFrom(url, OTHER);
    expect(await refused.json()).toMatchObject({ result: { productId: 'p1' } });
    expect(corsHeaders(refused)).toStrictEqual({ vary: 'Origin' });
    const unsupported = await callFrom(url, APP, 'text/plain');
    expect(unsupported.status).toBe(415);
    expect(unsupported.headers.get('access-control-allow-origin')).toBe(APP);
    expect((await callFrom(`${url}/a/b/c`, APP)).headers.get('access-control-allow-origin')).toBe(APP);
  });

  it("'*' answers any origin with *, or echoes it with credentials (browsers refuse * then)", async () => {
    let { url } = await start({ cors: { origins: '*' } });
    expect(corsHeaders(await callFrom(url, OTHER))).toStrictEqual({ 'access-control-allow-origin': '*' });
    expect(
      corsHeaders(await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: getProduct })),
    ).toStrictEqual({});
    await server?.close();
    ({ url } = await start({ cors: { origins: '*', credentials: true } }));
    expect(corsHeaders(await callFrom(url, OTHER))).toStrictEqual({
      'access-control-allow-origin': OTHER,
      'access-control-allow-credentials': 'true',
      vary: 'Origin',
    });
  });

  it('a function decides per origin', async () => {
    const { url } = await start({ cors: { origins: (origin) => origin.endsWith('.app.test') } });
    expect((await preflight(url, 'https://a.app.test')).status).toBe(204);
    expect((await preflight(url, 'https://app.test.evil')).status).toBe(405);
  });

  it('the OpenAPI document is readable from an allowed origin', async () => {
    const { url } = await start({ cors: { origins: [APP] }, openApiDocument: { openapi: '3.1.0' } });
    const response = await fetch(`${url}/openapi.json`, { headers: { origin: APP } });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(APP);
  });

  it('through createMiddleware: the preflight at the path is answered, other paths go on to the app', async () => {
    const rpc = createRpcServer({ idl: checkoutIdl, handlers: checkoutHandlers().handlers, cors: { origins: [APP] } });
    const middleware = createMiddleware(rpc, { path: '/rpc' });
    const httpServer = http.createServer((req, res) => middleware(req, res, () => res.writeHead(299).end()));
    await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
    try {
      expect((await preflight(`${base}/rpc`, APP)).status).toBe(204);
      expect((await preflight(`${base}/page`, APP)).status).toBe(299);
    } finally {
      httpServer.closeAllConnections();
      await new Promise((resolve) => httpServer.close(resolve));
    }
  });
});

describe('start-up checks', () => {
  const attempt = (cors: unknown) => () => createRpcServer({ idl: checkoutIdl, handlers: {}, cors: cors as RpcServerOptions['cors'] });
  it('names what is wrong', () => {
    expect(attempt({ origins: ['https://app.example/'] })).toThrow(
      'createRpcServer: cors.origins: "https://app.example/" is not an origin; write it as browsers send it, like "https://app.example.com" or "http://localhost:5173" (no path, no trailing slash)',
    );
    expect(attempt({ origins: 'https://app.example' })).toThrow(
      `createRpcServer: cors.origins must be '*', a list of origins or a function, got "https://app.example"`,
    );
    expect(attempt({ origins: '*', maxAgeSeconds: -1 })).toThrow('cors.maxAgeSeconds must be a whole number of seconds, got -1');
    expect(attempt({ origins: '*', allowedHeaders: ['content type'] })).toThrow('cors.allowedHeaders must be a list of header names');
  });
});
