/**
 * The plugin's `server.mcp` option: the MCP binding on the Vite dev server and on `vite preview`,
 * against the protocol's reference client (the official SDK's `StreamableHTTPClientTransport`). The
 * tools come from the served `.idl`, the calls run the fixture's handlers, the resources are the
 * `.idl` source and the documents the plugin makes, and an edit of the `.idl` changes them on the
 * next request. The MCP path wins over a JSON-RPC path it equals, and an app without the option
 * loads no MCP code.
 */
import { readFile, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { PreviewServer, ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import idlRpc from '../../src/plugin/vite.js';
import type { IdlRpcPluginOptions } from '../../src/plugin/options.js';
import { callRpc, eventually } from './harness/http.js';
import { startViteDevServer } from './harness/vite-dev.js';
import { copyFixtureApp } from './harness/workspace.js';

// Builds and tools run in this file: generous limits for a busy 2-core CI machine (no timing is asserted).
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const shippingAddress = { street: 's', city: 'c', state: 'st', zipCode: 'z', country: 'US' };
const closers: (() => Promise<unknown>)[] = [];

afterAll(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** The SDK's client, connected to an MCP address. */
async function connected(address: string): Promise<Client> {
  const client = new Client({ name: 'plugin-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(address)));
  closers.push(() => client.close());
  return client;
}

/** The text of a tool result's one text block, parsed. */
function textOf(result: Record<string, unknown>): unknown {
  return JSON.parse((result.content as { text: string }[])[0].text);
}

/**
 * The probe's value, or `instead` while the dev server is still importing the edited module (it
 * answers "still loading after an edit; call again" until the import is done).
 */
async function whileReloading<T>(probe: () => Promise<T>, instead: T): Promise<T> {
  try {
    return await probe();
  } catch (error) {
    if (String(error).includes('still loading after an edit')) return instead;
    throw error;
  }
}

/** A resource's text, by its file name (`source.idl`, `openapi.json`, `openrpc.json`). */
async function resourceText(client: Client, file: string): Promise<string> {
  const { contents } = await client.readResource({ uri: `idlrpc://checkout/${file}` });
  return (contents[0] as { text: string }).text;
}

/** The tools, the call of a declared error and the resources: what both servers must give. */
async function expectToolsAndResources(client: Client, idlText: string): Promise<void> {
  const { tools } = await client.listTools();
  // An interface exposes its methods but the stream method.
  expect(tools.map((tool) => tool.name)).toStrictEqual(['OrderService_createOrder', 'OrderService_getOrder']);

  const order = await client.callTool({ name: 'OrderService_getOrder', arguments: { orderId: 'order-1' } });
  expect(order.isError).toBeFalsy();
  expect(order.structuredContent).toMatchObject({ result: { orderId: 'order-1', status: 'paid' } });

  const failure = await client.callTool({
    name: 'OrderService_createOrder',
    arguments: { request: { cartId: 'c-1', shippingAddress, paymentMethod: 'paypal' } },
  });
  expect(failure.isError).toBe(true);
  expect(textOf(failure)).toStrictEqual({ code: 1001, name: 'CartNotFound', message: 'CartNotFound: no cart c-1' });

  const { resources } = await client.listResources();
  expect(resources.map((resource) => resource.uri)).toStrictEqual([
    'idlrpc://checkout/source.idl',
    'idlrpc://checkout/openapi.json',
    'idlrpc://checkout/openrpc.json',
  ]);
  expect(await resourceText(client, 'source.idl')).toBe(idlText);
  expect(JSON.parse(await resourceText(client, 'openapi.json'))).toMatchObject({
    info: { title: 'Checkout' },
    paths: { '/OrderService/getOrder': { post: {} } },
  });
  expect(JSON.parse(await resourceText(client, 'openrpc.json'))).toMatchObject({ openrpc: '1.3.2', info: { title: 'Checkout' } });
}

describe('vite dev server with server.mcp', () => {
  let app: string;
  let idlFile: string;
  let originalIdl: string;
  let server: ViteDevServer;
  let base: string;

  beforeAll(async () => {
    app = await copyFixtureApp('vite-mcp/dev');
    idlFile = path.join(app, 'checkout.idl');
    originalIdl = await readFile(idlFile, 'utf8');
    ({ server, base } = await startViteDevServer(app, {
      server: { idl: 'checkout.idl', handlers: 'server/handlers.js', mcp: { expose: ['OrderService'] } },
    }));
    closers.push(() => server.close());
  });

  test('serves the tools of the .idl at /mcp: a call answered, a declared error as isError, the resources read', async () => {
    await expectToolsAndResources(await connected(`${base}/mcp`), originalIdl);
  });

  test('an edit of the .idl changes the tools and the resources on the next request, without a restart', async () => {
    const client = await connected(`${base}/mcp`);
    const edited = originalIdl.replace('getOrder(orderId string)', 'getOrder(orderId int)');
    await writeFile(idlFile, edited);
    try {
      const orderIdType = async () => {
        const { tools } = await whileReloading(() => client.listTools(), { tools: [] });
        const getOrder = tools.find((tool) => tool.name === 'OrderService_getOrder');
        return (getOrder?.inputSchema.properties as Record<string, { type?: string }> | undefined)?.orderId?.type;
      };
      expect(await eventually(orderIdType, (type) => type === 'integer')).toBe('integer');
      expect(await resourceText(client, 'source.idl')).toBe(edited);
      expect(await resourceText(client, 'openapi.json')).toContain('"int64"');
    } finally {
      await writeFile(idlFile, originalIdl);
    }
    const restored = await eventually(
      () => whileReloading(() => resourceText(client, 'source.idl'), ''),
      (text) => text === originalIdl,
    );
    expect(restored).toBe(originalIdl);
  });

  test('answers GET /mcp with 405, not the page; a foreign Origin gets 403; JSON-RPC under rpcPath is unchanged', async () => {
    const get = await fetch(`${base}/mcp`, { headers: { accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
    const foreign = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', origin: 'https://evil.example' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(foreign.status).toBe(403);
    // The binding is at its own path only: /rpc/mcp stays one of the JSON-RPC endpoint's paths.
    const rpc = await callRpc(`${base}/rpc/mcp`, 'OrderService.getOrder', ['order-1']);
    expect(rpc.result).toMatchObject({ orderId: 'order-1' });
  });
});

describe('vite preview with server.mcp under rpcPath', () => {
  // At /rpc/mcp, one of the JSON-RPC endpoint's one-segment paths: the MCP binding wins it, as on `listen`.
  const options: IdlRpcPluginOptions = {
    server: { idl: 'checkout.idl', handlers: 'server/handlers.js', mcp: { expose: ['OrderService'], path: '/rpc/mcp' } },
  };
  let app: string;
  let base: string;

  beforeAll(async () => {
    app = await copyFixtureApp('vite-mcp/preview');
    const vite = await import('vite');
    await vite.build({ configFile: false, root: app, logLevel: 'silent', plugins: [idlRpc(options)] });
    const preview: PreviewServer = await vite.preview({
      configFile: false,
      root: app,
      logLevel: 'silent',
      preview: { host: '127.0.0.1', port: 0 },
      plugins: [idlRpc(options)],
    });
    closers.push(() => preview.close());
    base = `http://127.0.0.1:${(preview.httpServer.address() as AddressInfo).port}`;
  });

  test('serves the tools and resources of the built server at /rpc/mcp; /rpc and the other paths stay JSON-RPC', async () => {
    await expectToolsAndResources(await connected(`${base}/rpc/mcp`), await readFile(path.join(app, 'checkout.idl'), 'utf8'));
    const rpc = await callRpc(`${base}/rpc`, 'OrderService.getOrder', ['order-1']);
    expect(rpc.result).toMatchObject({ orderId: 'order-1' });
    const otherSegment = await callRpc(`${base}/rpc/orders`, 'OrderService.getOrder', ['order-1']);
    expect(otherSegment.result).toMatchObject({ orderId: 'order-1' });
  });
});
