/**
 * The playground's checkout service over MCP (docs/mcp.md, "The playground"), tested with the
 * protocol's own tools against the built standalone server (`npm run playground:build`, started as
 * `node main.js`): the official TypeScript SDK's client, the MCP conformance suite and the MCP
 * Inspector's CLI (these two on Node 22: test/node22.ts). One build, one server for the file.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { catalog } from '../../playground/service/catalog.js';
import { BIN, ensureBuilt } from '../cli/run-cli.js';
import { playgroundDevServer, playgroundEnv, playgroundRoot, repositoryRoot } from './harness.js';
import { runConformance, runInspector } from '../node22.js';
import { buildServer, rpc, type ServerProcess, startServer } from './server-process.js';

// A build, a server and Node 22 processes on a busy 2-core machine: generous limits (no timing is asserted).
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

/** A page origin the server's CORS_ORIGINS lists, so its MCP binding allows it too. */
const listedOrigin = 'https://shop.test';
const address = { street: '1 Market Street', city: 'San Francisco', state: 'CA', zipCode: '94105', country: 'US' };
/** Every method of checkout.idl but the stream method watchOrder, in IDL order. */
const toolNames = [
  'CatalogService_listProducts',
  'CatalogService_getProduct',
  'CartService_addToCart',
  'CartService_getCart',
  'CartService_clearCart',
  'OrderService_createOrder',
  'OrderService_getOrder',
];

let built: Awaited<ReturnType<typeof buildServer>>;
let server: ServerProcess;
let mcpUrl: string;
let client: Client;

beforeAll(async () => {
  built = await buildServer();
  server = await startServer(built.mainJs, { ...playgroundEnv(), CORS_ORIGINS: listedOrigin });
  mcpUrl = new URL('mcp', server.url).href;
  client = new Client({ name: 'playground-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl)));
});

afterAll(async () => {
  await client?.close();
  await server?.stop();
  await built?.remove();
});

/** The JSON of a tool result's text block. */
function textOf(result: Awaited<ReturnType<Client['callTool']>>): unknown {
  return JSON.parse((result.content as { type: string; text: string }[])[0].text);
}

describe("the SDK's client over Streamable HTTP", () => {
  it('connects to the checkout server and lists its methods as tools, the stream method left out', async () => {
    expect(client.getServerVersion()).toStrictEqual({ name: 'checkout-playground', version: '1.0.0' });
    expect(client.getInstructions()).toContain('CatalogService_listProducts');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toStrictEqual(toolNames);
    for (const tool of tools) expect(tool.outputSchema?.type).toBe('object');
    const createOrder = tools.find((tool) => tool.name === 'OrderService_createOrder');
    expect(createOrder?.description).toContain('Turns a cart into a pending order.');
    expect(createOrder?.description).toContain('- CartEmpty (code 1002): cart has no items');
  });

  it('lists the products, adds to a cart and orders it; the SDK checks each result against its outputSchema', async () => {
    // client.callTool checks structuredContent against the outputSchema tools/list gave (it throws on a mismatch).
    await client.listTools();
    const products = await client.callTool({ name: 'CatalogService_listProducts', arguments: {} });
    expect(products.isError).toBeUndefined();
    expect(products.structuredContent).toStrictEqual({ result: catalog });
    expect(textOf(products)).toStrictEqual({ result: catalog });

    const { productId, price } = catalog[0];
    const added = await client.callTool({ name: 'CartService_addToCart', arguments: { request: { productId, quantity: 2 } } });
    const cart = added.structuredContent as { cartId: string; items: unknown[]; subtotal: number };
    expect(cart.items).toStrictEqual([{ productId, quantity: 2, price }]);

    const ordered = await client.callTool({
      name: 'OrderService_createOrder',
      arguments: { request: { cartId: cart.cartId, shippingAddress: address, paymentMethod: 'paypal' } },
    });
    const { orderId } = ordered.structuredContent as { orderId: string };
    const order = await client.callTool({ name: 'OrderService_getOrder', arguments: { orderId } });
    expect(order.structuredContent).toMatchObject({ result: { orderId, status: 'pending', cart: { cartId: cart.cartId } } });
  });

  it('gets CartEmpty, a declared error, as an isError result with its code, name and message', async () => {
    const added = await client.callTool({
      name: 'CartService_addToCart',
      arguments: { request: { productId: catalog[1].productId, quantity: 1 } },
    });
    const { cartId } = added.structuredContent as { cartId: string };
    expect((await client.callTool({ name: 'CartService_clearCart', arguments: { cartId } })).structuredContent).toStrictEqual({
      result: true,
    });

    const refused = await client.callTool({
      name: 'OrderService_createOrder',
      arguments: { request: { cartId, shippingAddress: address, paymentMethod: 'paypal' } },
    });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatchObject({
      code: 1002,
      name: 'CartEmpty',
      message: expect.stringContaining(`cart "${cartId}" has no items`),
    });
  });

  it('gives invalid arguments as an isError result with the JSON path of the problem', async () => {
    const invalid = await client.callTool({
      name: 'CartService_addToCart',
      arguments: { request: { productId: 'kettle', quantity: 'two' } },
    });
    expect(invalid.isError).toBe(true);
    expect(textOf(invalid)).toMatchObject({ code: -32602, name: 'InvalidParams', message: expect.stringContaining('quantity') });
  });

  it('reads the IDL source, the OpenAPI document and the OpenRPC document as resources', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toStrictEqual([
      'idlrpc://checkout/source.idl',
      'idlrpc://checkout/openapi.json',
      'idlrpc://checkout/openrpc.json',
    ]);
    const read = async (uri: string) => ((await client.readResource({ uri })).contents[0] as { text: string }).text;
    expect(await read('idlrpc://checkout/source.idl')).toBe(readFileSync(path.join(playgroundRoot, 'checkout.idl'), 'utf8'));
    // The documents the build wrote beside the bundle, the ones GET /openapi.json and /openrpc.json serve.
    const besideBundle = (file: string) => JSON.parse(readFileSync(path.join(path.dirname(built.mainJs), file), 'utf8'));
    expect(JSON.parse(await read('idlrpc://checkout/openapi.json'))).toStrictEqual(besideBundle('openapi.json'));
    expect(JSON.parse(await read('idlrpc://checkout/openrpc.json'))).toStrictEqual(besideBundle('openrpc.json'));
  });

  it('cannot call the stream method watchOrder, which is no tool', async () => {
    await expect(client.callTool({ name: 'OrderService_watchOrder', arguments: { orderId: 'o-1' } })).rejects.toThrow(
      /Unknown tool: OrderService_watchOrder/,
    );
  });
});

describe('the Origin check', () => {
  const ping = (origin: string) =>
    fetch(mcpUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', origin },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });

  it('refuses a foreign Origin with 403, allows a loopback one and one CORS_ORIGINS lists', async () => {
    expect((await ping('https://attacker.example')).status).toBe(403);
    expect((await ping('http://localhost:5173')).status).toBe(200);
    const listed = await ping(listedOrigin);
    expect(listed.status).toBe(200);
    expect(listed.headers.get('access-control-allow-origin')).toBe(listedOrigin);
  });

  it("answers a listed page's preflight with the MCP-Protocol-Version header allowed, which MCP clients send", async () => {
    const preflight = await fetch(mcpUrl, {
      method: 'OPTIONS',
      headers: {
        origin: listedOrigin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, mcp-protocol-version',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')?.split(/,\s*/)).toContain('mcp-protocol-version');
  });
});

describe('the MCP conformance suite', () => {
  /** The scenarios that do not apply, with the suite's own baseline format; docs/mcp.md says why for each. */
  const expectedFailuresFile = path.join(repositoryRoot, 'test', 'playground', 'mcp-conformance-expected-failures.yml');
  /** The scenarios that fit a server whose tools are the IDL's methods, not the suite's own. */
  const applicable = ['server-initialize', 'ping', 'tools-list', 'resources-list', 'dns-rebinding-protection'];

  it('passes every scenario but those the baseline lists, and each of those fails (no stale entry)', async () => {
    const run = await runConformance(mcpUrl, ['--suite', 'all', '--expected-failures', expectedFailuresFile]);
    expect(run.stdout).toContain('Baseline check passed: all failures are expected.');
    expect(run.status, run.stdout.slice(run.stdout.indexOf('=== SUMMARY ==='))).toBe(0);
    const passed = [...run.stdout.matchAll(/^✓ ([\w-]+): [1-9]\d* passed, 0 failed$/gm)].map((match) => match[1]);
    expect(passed).toStrictEqual(applicable);
  });

  it('has docs/mcp.md say why each scenario of the baseline does not apply', () => {
    const { server: notApplying } = parseYaml(readFileSync(expectedFailuresFile, 'utf8')) as { server: string[] };
    const docs = readFileSync(path.join(repositoryRoot, 'docs', 'mcp.md'), 'utf8');
    const section = docs.slice(docs.indexOf('\n## The playground\n'), docs.indexOf('\n## ', docs.indexOf('\n## The playground\n') + 1));
    for (const scenario of [...notApplying, ...applicable]) expect(section, scenario).toContain(`\`${scenario}\``);
  });
});

describe("the MCP Inspector's CLI", () => {
  it('lists the tools', async () => {
    const run = await runInspector([mcpUrl, '--method', 'tools/list']);
    expect(run.status, run.stderr).toBe(0);
    const { tools } = JSON.parse(run.stdout) as { tools: { name: string }[] };
    expect(tools.map((tool) => tool.name)).toStrictEqual(toolNames);
  });

  it('calls one', async () => {
    const { productId } = catalog[2];
    const run = await runInspector([
      mcpUrl,
      '--method',
      'tools/call',
      '--tool-name',
      'CatalogService_getProduct',
      '--tool-arg',
      `productId=${productId}`,
    ]);
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ structuredContent: { result: catalog[2] } });
  });
});

describe('PLAYGROUND_MCP', () => {
  it('off: /mcp is no MCP binding but one of the JSON-RPC paths', async () => {
    const off = await startServer(built.mainJs, { ...playgroundEnv(), PLAYGROUND_MCP: 'off' });
    try {
      expect((await rpc(new URL('mcp', off.url).href, 'tools/list')).error).toMatchObject({
        code: -32601,
        message: expect.stringContaining('tools/list'),
      });
    } finally {
      await off.stop();
    }
  });

  it('anything but on or off: the server does not start and says why', async () => {
    await expect(startServer(built.mainJs, { ...playgroundEnv(), PLAYGROUND_MCP: 'yes' })).rejects.toThrow(
      /PLAYGROUND_MCP must be on or off, got "yes"/,
    );
  });
});

describe("the SDK's client over stdio (idlrpc -mcp-stdio dist/server/mcp-stdio.js)", () => {
  it('starts the playground as a desktop AI client would, lists its tools, calls one and reads a resource', async () => {
    ensureBuilt();
    const stdioClient = new Client({ name: 'playground-stdio-test', version: '1.0.0' });
    const mcpStdioJs = path.join(path.dirname(built.mainJs), 'mcp-stdio.js');
    await stdioClient.connect(
      new StdioClientTransport({ command: process.execPath, args: [BIN, '-mcp-stdio', mcpStdioJs], stderr: 'pipe' }),
    );
    try {
      expect((await stdioClient.listTools()).tools.map((tool) => tool.name)).toStrictEqual(toolNames);
      const product = await stdioClient.callTool({ name: 'CatalogService_getProduct', arguments: { productId: catalog[0].productId } });
      expect(product.structuredContent).toStrictEqual({ result: catalog[0] });
      const { resources } = await stdioClient.listResources();
      const idl = resources.find((resource) => resource.uri.endsWith('/source.idl'));
      const read = await stdioClient.readResource({ uri: idl?.uri ?? 'missing' });
      expect((read.contents[0] as { text: string }).text).toBe(readFileSync(path.join(playgroundRoot, 'checkout.idl'), 'utf8'));
    } finally {
      await stdioClient.close();
    }
  });
});

describe('the Vite dev server (npm run playground)', () => {
  it('serves the same tools on /mcp through the plugin option server.mcp', async () => {
    const { vite, url } = await playgroundDevServer();
    const devClient = new Client({ name: 'playground-dev-test', version: '1.0.0' });
    try {
      await devClient.connect(new StreamableHTTPClientTransport(new URL('mcp', url)));
      expect((await devClient.listTools()).tools.map((tool) => tool.name)).toStrictEqual(toolNames);
      const products = await devClient.callTool({ name: 'CatalogService_listProducts', arguments: {} });
      expect(products.structuredContent).toStrictEqual({ result: catalog });
    } finally {
      await devClient.close();
      await vite.close();
    }
  });
});
