/**
 * The Vite dev server with the plugin: the RPC endpoint at /rpc with the fixture's handler module,
 * the OpenAPI binding below it, /openapi.json, and edits to the .idl and to the handler module
 * served without a restart. A broken .idl gives the error overlay its file:line:column and frame.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { callRpc, eventually, postMcpInitialize } from './harness/http.js';
import { validateOpenRPCDocument } from '@open-rpc/schema-utils-js';
import { openApiProblems } from './harness/openapi-validation.js';
import { startViteDevServer } from './harness/vite-dev.js';
import { copyFixtureApp } from './harness/workspace.js';

// Builds and tools run in this file: generous limits for a busy 2-core CI machine (no timing is asserted).
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

let app: string;
let idlFile: string;
let handlersFile: string;
let originalIdl: string;
let server: ViteDevServer;
let base: string;
let rpcUrl: string;

beforeAll(async () => {
  app = await copyFixtureApp('vite-dev/app');
  idlFile = path.join(app, 'checkout.idl');
  handlersFile = path.join(app, 'server/handlers.js');
  originalIdl = await readFile(idlFile, 'utf8');
  ({ server, base } = await startViteDevServer(app, { server: { idl: 'checkout.idl', handlers: 'server/handlers.js' } }));
  rpcUrl = `${base}/rpc`;
});

afterAll(async () => {
  await server?.close();
});

describe('vite dev server', () => {
  test('hosts the RPC endpoint with the handler module: typed result and declared error', async () => {
    const order = await callRpc(rpcUrl, 'OrderService.getOrder', ['order-1']);
    expect(order.result).toMatchObject({ orderId: 'order-1', status: 'paid', total: 42.5 });
    const failure = await callRpc(rpcUrl, 'OrderService.createOrder', [
      { cartId: 'c-9', shippingAddress: { street: 's', city: 'c', state: 'st', zipCode: 'z', country: 'US' }, paymentMethod: 'paypal' },
    ]);
    expect(failure.error).toMatchObject({ code: 1001, message: 'CartNotFound: no cart c-9' });
  });

  test('hosts the OpenAPI binding and serves /openapi.json', async () => {
    const response = await fetch(`${rpcUrl}/OrderService/getOrder`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ orderId: 'order-1' }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ orderId: 'order-1', status: 'paid' });

    const openapi = await fetch(`${base}/openapi.json`);
    expect(openapi.status).toBe(200);
    const source = await openapi.text();
    expect(JSON.parse(source)).toMatchObject({ servers: [{ url: '/rpc' }], paths: { '/OrderService/getOrder': { post: {} } } });
    expect(await openApiProblems(source)).toEqual([]);
  });

  test('serves /openrpc.json (GET and HEAD), a valid OpenRPC document of the served .idl', async () => {
    const openrpc = await fetch(`${base}/openrpc.json`);
    expect(openrpc.status).toBe(200);
    expect(openrpc.headers.get('content-type')).toBe('application/json');
    const document = await openrpc.json();
    expect(document.methods.map((m: { name: string }) => m.name)).toContain('OrderService.getOrder');
    expect(validateOpenRPCDocument(document)).toBe(true);
    expect((await fetch(`${base}/openrpc.json`, { method: 'HEAD' })).status).toBe(200);
    // The endpoint answers rpc.discover with the document of the served .idl.
    const discovered = await callRpc(rpcUrl, 'rpc.discover', []);
    expect(discovered.result).toMatchObject({ openrpc: '1.3.2', info: { title: 'Checkout' } });
  });

  test('without server.mcp, POST /mcp is no MCP endpoint and the entry loads no MCP code', async () => {
    const answer = await postMcpInitialize(`${base}/mcp`);
    expect(answer.status).toBe(404);
    expect(answer.text).not.toContain('protocolVersion');
    // A call first, so that the entry and the runtime it imports are loaded.
    expect((await callRpc(rpcUrl, 'OrderService.getOrder', ['order-1'])).result).toMatchObject({ orderId: 'order-1' });
    const loaded = [...server.environments.ssr.moduleGraph.idToModuleMap.keys()];
    expect(loaded.some((id) => id.endsWith('/runtime/server.js'))).toBe(true);
    expect(loaded.filter((id) => id.includes('/runtime/mcp/'))).toStrictEqual([]);
  });

  test("answers CORS preflights as Vite's server.cors says (its default: pages on localhost), though the endpoint runs before Vite's own CORS middleware", async () => {
    const preflight = (origin: string) =>
      fetch(rpcUrl, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST' } });
    const local = await preflight('http://localhost:3000');
    expect(local.status).toBe(204);
    expect(local.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
    // Vite 7+ answers this preflight itself (204, no Allow-Origin), Vite 6 leaves it to the endpoint (405): either way the browser refuses.
    const foreign = await preflight('https://evil.test');
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
  });

  test('an edit to the .idl is served without a restart', async () => {
    await writeFile(idlFile, originalIdl.replace('getOrder(orderId string)', 'getOrder(orderId int)'));
    const answer = await eventually(
      () => callRpc(rpcUrl, 'OrderService.getOrder', ['order-1']),
      (a) => a.error !== undefined,
    );
    expect(answer.error).toMatchObject({ code: -32602 });
    const document = (await (await fetch(`${base}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(JSON.stringify(document.paths['/OrderService/getOrder'])).toContain('"int64"');

    await writeFile(idlFile, originalIdl);
    const restored = await eventually(
      () => callRpc(rpcUrl, 'OrderService.getOrder', ['order-1']),
      (a) => a.result !== undefined,
    );
    expect(restored.result).toMatchObject({ status: 'paid' });
  });

  test('an edit to the handler module is served without a restart', async () => {
    const original = await readFile(handlersFile, 'utf8');
    await writeFile(handlersFile, original.replace("status: 'paid'", "status: 'shipped'"));
    const answer = await eventually(
      () => callRpc(rpcUrl, 'OrderService.getOrder', ['order-1']),
      (a) => (a.result as { status?: string } | undefined)?.status === 'shipped',
    );
    expect(answer.result).toMatchObject({ status: 'shipped' });
    await writeFile(handlersFile, original);
  });

  test('a syntax error reaches the overlay with file:line:column and a code frame; fixing it clears it', async () => {
    const lines = originalIdl.split('\n');
    const line = lines.findIndex((text) => text.startsWith('interface OrderService')) + 1;
    lines[line - 1] = lines[line - 1].replace('interface OrderService {', 'interface OrderService {{');
    const column = lines[line - 1].indexOf('{{') + 2;
    await writeFile(idlFile, lines.join('\n'));

    // What Vite's overlay shows is the error of the module's transform.
    const client = server.environments.client;
    const error = await eventually(
      () =>
        client.transformRequest('/checkout.idl').then(
          () => undefined,
          (e: unknown) => e as { message: string; loc?: { line: number; column: number }; frame?: string },
        ),
      (e) => e !== undefined,
    );
    expect(error?.message).toContain(`checkout.idl:${line}:${column}`);
    expect(error?.loc).toMatchObject({ line });
    expect(error?.frame).toContain('interface OrderService {{');

    // The RPC endpoint reports it too, with the location (exposeErrors is on in dev).
    const rpcFailure = await eventually(
      () => callRpc(rpcUrl, 'OrderService.getOrder', ['order-1']),
      (a) => a.error !== undefined,
    );
    expect(rpcFailure.error?.message).toContain(`checkout.idl:${line}:${column}`);

    await writeFile(idlFile, originalIdl);
    const fixed = await eventually(
      () =>
        client.transformRequest('/checkout.idl').then(
          (r) => r?.code,
          () => undefined,
        ),
      (code) => code !== undefined,
    );
    expect(fixed).toContain('class OrderServiceClient');
    const served = await eventually(
      () => callRpc(rpcUrl, 'OrderService.getOrder', ['order-1']),
      (a) => a.result !== undefined,
    );
    expect(served.error).toBeUndefined();
    expect(served.result).toMatchObject({ orderId: 'order-1' });
  });
});

describe('vite dev server: the API reference page', () => {
  test('is on by default at /__idl/docs, pointed at rpcPath and the served openapi.json, with the .idl as it is now', async () => {
    const page = await fetch(`${base}/__idl/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await page.text()).toContain('data-rpc-path="/rpc" data-openapi-url="/openapi.json" data-idl-url="/__idl/docs/idl"');
    const idl = await fetch(`${base}/__idl/docs/idl`);
    expect(await idl.text()).toBe(await readFile(idlFile, 'utf8'));
    const viewer = await fetch(`${base}/__idl/docs/viewer/swagger-ui-bundle.js`);
    expect(viewer.status).toBe(200);
    expect(viewer.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    await viewer.body?.cancel();
  });
});
