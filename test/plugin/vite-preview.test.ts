/**
 * `vite build` then `vite preview` with the plugin: the build also bundles the handler module for
 * the server (outside the public output folder), and the preview server hosts the RPC endpoint
 * from that built code, next to the built page and its openapi.json.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { PreviewServer } from 'vite';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import idlRpc from '../../src/plugin/vite.js';
import type { IdlRpcPluginOptions } from '../../src/plugin/options.js';
import { callRpc, postMcpInitialize } from './harness/http.js';
import { copyFixtureApp } from './harness/workspace.js';

// Builds and tools run in this file: generous limits for a busy 2-core CI machine (no timing is asserted).
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const options: IdlRpcPluginOptions = {
  server: { idl: 'checkout.idl', handlers: 'server/handlers.js', cache: { 'OrderService.getOrder': { private: true, maxAgeSeconds: 5 } } },
};
let app: string;
let preview: PreviewServer;
let base: string;

beforeAll(async () => {
  app = await copyFixtureApp('vite-preview/app');
  // The playground's checkout.idl tags getOrder @readonly, so that the preview server answers it over GET too.
  expect(await readFile(path.join(app, 'checkout.idl'), 'utf8')).toContain('    // @readonly\n    getOrder(orderId string)');
  const vite = await import('vite');
  await vite.build({ configFile: false, root: app, logLevel: 'silent', plugins: [idlRpc(options)] });
  preview = await vite.preview({
    configFile: false,
    root: app,
    logLevel: 'silent',
    preview: { host: '127.0.0.1', port: 0, cors: { origin: ['https://app.test'] } },
    plugins: [idlRpc(options)],
  });
  const { port } = preview.httpServer.address() as AddressInfo;
  base = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  await preview?.close();
});

test('vite build writes the server build outside the public folder', async () => {
  expect(existsSync(path.join(app, 'node_modules/.idl-rpc/server/idl-rpc-server.js'))).toBe(true);
  const published = await readdir(path.join(app, 'dist'), { recursive: true });
  const scripts = published.filter((file) => file.endsWith('.js'));
  expect(scripts.length).toBeGreaterThan(0);
  for (const script of scripts) {
    expect(await readFile(path.join(app, 'dist', script), 'utf8')).not.toContain('no cart');
  }
});

test('vite preview hosts the built RPC server, the built openapi.json and openrpc.json', async () => {
  const order = await callRpc(`${base}/rpc`, 'OrderService.getOrder', ['order-1']);
  expect(order.result).toMatchObject({ orderId: 'order-1', status: 'paid' });
  const failure = await callRpc(`${base}/rpc`, 'OrderService.createOrder', [
    { cartId: 'c-1', shippingAddress: { street: 's', city: 'c', state: 'st', zipCode: 'z', country: 'US' }, paymentMethod: 'paypal' },
  ]);
  expect(failure.error).toMatchObject({ code: 1001, message: 'CartNotFound: no cart c-1' });

  const binding = await fetch(`${base}/rpc/OrderService/getOrder`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ orderId: 'nope' }),
  });
  expect(binding.status).toBe(200);
  expect(await binding.json()).toBeNull();

  const openapi = await fetch(`${base}/openapi.json`);
  expect(openapi.status).toBe(200);
  expect(await openapi.json()).toMatchObject({ info: { title: 'Checkout' } });
  const openrpc = await fetch(`${base}/openrpc.json`);
  expect(openrpc.status).toBe(200);
  expect(await openrpc.json()).toMatchObject({ openrpc: '1.3.2', info: { title: 'Checkout' } });
  const discovered = await callRpc(`${base}/rpc`, 'rpc.discover', []);
  expect(discovered.result).toMatchObject({ openrpc: '1.3.2', info: { title: 'Checkout' } });
});

test('vite preview answers a GET of a @readonly method with its ETag and the server.cache rule, and 304 to it', async () => {
  const url = `${base}/rpc/OrderService/getOrder?orderId=${encodeURIComponent('"order-1"')}`;
  const read = await fetch(url);
  expect(read.status).toBe(200);
  expect(read.headers.get('cache-control')).toBe('private, max-age=5');
  expect(await read.json()).toMatchObject({ orderId: 'order-1', status: 'paid' });
  const again = await fetch(url, { headers: { 'if-none-match': read.headers.get('etag')! } });
  expect(again.status).toBe(304);
  expect((await fetch(`${base}/rpc/OrderService/createOrder?request=%7B%7D`)).status).toBe(405);
});

test('without server.mcp, the server build holds no MCP code and POST /mcp is no MCP endpoint', async () => {
  const built = await readFile(path.join(app, 'node_modules/.idl-rpc/server/idl-rpc-server.js'), 'utf8');
  expect(built).toContain('createMiddleware');
  expect(built).not.toContain('tools/list');
  expect(built).not.toContain('mcpBinding');
  const answer = await postMcpInitialize(`${base}/mcp`);
  expect(answer.status).toBe(404);
  expect(answer.text).not.toContain('protocolVersion');
});

test('vite preview serves the API reference page only when docsPage.preview asks for it', async () => {
  const off = await fetch(`${base}/__idl/docs`);
  expect(off.headers.get('content-security-policy')).toBeNull();
  expect(await off.text()).not.toContain('data-rpc-path');

  const vite = await import('vite');
  const withPage: IdlRpcPluginOptions = { ...options, docsPage: { preview: true, title: 'Preview API' } };
  const opted = await vite.preview({
    configFile: false,
    root: app,
    logLevel: 'silent',
    preview: { host: '127.0.0.1', port: 0 },
    plugins: [idlRpc(withPage)],
  });
  try {
    const { port } = opted.httpServer.address() as AddressInfo;
    const page = await fetch(`http://127.0.0.1:${port}/__idl/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await page.text();
    expect(html).toContain('<title>Preview API</title>');
    expect(html).toContain('data-rpc-path="/rpc" data-openapi-url="/openapi.json" data-idl-url="/__idl/docs/idl"');
    // The IDL view gets server.idl as written.
    const idl = await fetch(`http://127.0.0.1:${port}/__idl/docs/idl`);
    expect(await idl.text()).toBe(await readFile(path.join(app, 'checkout.idl'), 'utf8'));
    // The calls still reach the built server.
    expect((await callRpc(`http://127.0.0.1:${port}/rpc`, 'OrderService.getOrder', ['order-1'])).result).toMatchObject({
      orderId: 'order-1',
    });
  } finally {
    await opted.close();
  }
});

test("vite preview answers CORS as preview.cors says, though the endpoint runs before Vite's own CORS middleware", async () => {
  const call = (origin: string) =>
    fetch(`${base}/rpc`, {
      method: 'POST',
      headers: { origin, 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'OrderService.getOrder', params: ['order-1'] }),
    });
  expect((await call('https://app.test')).headers.get('access-control-allow-origin')).toBe('https://app.test');
  expect((await call('http://localhost:3000')).headers.get('access-control-allow-origin')).toBeNull();
  const preflight = await fetch(`${base}/rpc`, {
    method: 'OPTIONS',
    headers: { origin: 'https://app.test', 'access-control-request-method': 'POST' },
  });
  expect(preflight.status).toBe(204);
});

test('vite preview of handlers that do not fit the IDL answers -32603 on each call, without ending the process', async () => {
  const mismatched = await copyFixtureApp('vite-preview/mismatched');
  const handlersFile = path.join(mismatched, 'server/handlers.js');
  await writeFile(handlersFile, (await readFile(handlersFile, 'utf8')).replace('  getOrder(orderId) {', '  fetchOrder(orderId) {'));
  const vite = await import('vite');
  await vite.build({ configFile: false, root: mismatched, logLevel: 'silent', plugins: [idlRpc(options)] });
  const server = await vite.preview({
    configFile: false,
    root: mismatched,
    logLevel: 'silent',
    preview: { host: '127.0.0.1', port: 0 },
    plugins: [idlRpc(options)],
  });
  try {
    const { port } = server.httpServer.address() as AddressInfo;
    for (let call = 0; call < 2; call++) {
      const answer = await callRpc(`http://127.0.0.1:${port}/rpc`, 'OrderService.getOrder', ['order-1']);
      // Exception texts are never exposed in preview.
      expect(answer.error).toEqual({ code: -32603, message: 'Internal error: The RPC server could not be loaded' });
    }
  } finally {
    await server.close();
  }
});
