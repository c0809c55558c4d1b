/**
 * The MCP binding (docs/mcp.md) against the protocol's reference client: the official TypeScript
 * SDK's `Client` over `StreamableHTTPClientTransport`, connected to a `listen` server that mounts
 * `mcpBinding`. It negotiates, lists the tools (schemas and annotations from the IDL), calls them
 * (the SDK checks `structuredContent` against each `outputSchema`), and gets a declared error as an
 * `isError` result; a foreign Origin gets 403, and methods not exposed are no tools.
 */
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createFetchHandler, createRpcServer, DeclaredError, listen, type RpcServerOptions } from '../../runtime/index.js';
import { mcpBinding, type McpOptions } from '../../runtime/mcp/index.js';
import { compileIdl } from '../../src/idl/index.js';
import { toIdlJson } from '../../src/idl/json.js';

const idl = toIdlJson(compileIdl(readFileSync(new URL('fixtures/mcp-shop.idl', import.meta.url), 'utf8'), 'mcp-shop.idl'));

class CartEmptyError extends DeclaredError {
  static readonly code = 1001;
  static readonly errorName = 'CartEmpty';
  static readonly defaultMessage = 'The cart is empty';
}

const products = [
  { id: 'kettle', name: 'Kettle', price: 30 },
  { id: 'mug', name: 'Mug', price: 8 },
];

const handlers = {
  CatalogService: {
    listProducts: () => products,
    getProduct: (id: string) => products.find((product) => product.id === id),
    sizeOf: () => 'large',
    countUpTo: (maxPrice: number | undefined) => products.filter((product) => maxPrice === undefined || product.price <= maxPrice).length,
  },
  OrderService: {
    createOrder: (cartId: string) => {
      if (cartId === 'empty') throw new CartEmptyError('cart empty has no item');
      return `order-of-${cartId}`;
    },
    async *watchOrder() {
      yield 'placed';
    },
  },
  AdminService: { resetCatalog: () => true },
};

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A `listen` server with the MCP binding; its MCP address. */
async function mcpServer(mcp: McpOptions, options: Partial<RpcServerOptions> = {}): Promise<URL> {
  const server = createRpcServer({ idl, handlers, logger: { error: () => undefined }, ...options, mcp: mcpBinding(mcp) });
  const http = await listen(server, { port: 0, host: '127.0.0.1' });
  closers.push(() => http.shutdown({ timeoutMs: 1_000 }));
  return new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}${mcp.path ?? '/mcp'}`);
}

/** The SDK's client, connected. */
async function connected(address: URL): Promise<Client> {
  const client = new Client({ name: 'sdk-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(address));
  closers.push(() => client.close());
  return client;
}

const exposeShop = { expose: ['CatalogService', 'OrderService.createOrder'] };

describe('the MCP binding with the SDK client', () => {
  it('negotiates the newest revision and names the server after the IDL', async () => {
    const client = await connected(await mcpServer(exposeShop));
    expect(client.getServerVersion()).toStrictEqual({ name: 'shop', version: '1.0.0' });
    expect(client.getServerCapabilities()).toStrictEqual({ tools: { listChanged: false } });
    await expect(client.ping()).resolves.toStrictEqual({});
  });

  it('lists the exposed methods as tools named like their operationIds, described and annotated from the IDL', async () => {
    const client = await connected(await mcpServer(exposeShop));
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toStrictEqual([
      'CatalogService_listProducts',
      'CatalogService_getProduct',
      'CatalogService_sizeOf',
      'CatalogService_countUpTo',
      'OrderService_createOrder',
    ]);
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect(byName.get('CatalogService_listProducts')?.annotations).toStrictEqual({ readOnlyHint: true });
    expect(byName.get('CatalogService_sizeOf')?.annotations).toBeUndefined();
    expect(byName.get('CatalogService_getProduct')?.inputSchema).toStrictEqual({
      type: 'object',
      properties: { id: { type: 'string' } },
      required: ['id'],
    });
    expect(byName.get('CatalogService_countUpTo')?.inputSchema.required).toStrictEqual([]);
    const createOrder = byName.get('OrderService_createOrder')!;
    expect(createOrder.description).toContain('Places an order for the cart.');
    expect(createOrder.description).toContain('- CartEmpty (code 1001): The cart is empty. The cart has no item yet.');
    expect(createOrder.outputSchema).toStrictEqual({ type: 'object', properties: { result: { type: 'string' } }, required: ['result'] });
  });

  it('calls tools: an object result as it is, others as { result }, each checked by the SDK against its outputSchema', async () => {
    const client = await connected(await mcpServer(exposeShop));
    // The SDK checks a tool's results against the outputSchema tools/list gave it.
    await client.listTools();
    const product = await client.callTool({ name: 'CatalogService_getProduct', arguments: { id: 'mug' } });
    expect(product.structuredContent).toStrictEqual(products[1]);
    expect(JSON.parse((product.content as { text: string }[])[0].text)).toStrictEqual(products[1]);
    const list = await client.callTool({ name: 'CatalogService_listProducts', arguments: {} });
    expect(list.structuredContent).toStrictEqual({ result: products });
    const size = await client.callTool({ name: 'CatalogService_sizeOf', arguments: { id: 'mug' } });
    expect(size.structuredContent).toStrictEqual({ result: 'large' });
    const count = await client.callTool({ name: 'CatalogService_countUpTo', arguments: { maxPrice: 10 } });
    expect(count.structuredContent).toStrictEqual({ result: 1 });
  });

  it('gives a declared error and invalid arguments as isError results with code, name and message', async () => {
    const client = await connected(await mcpServer(exposeShop));
    const empty = await client.callTool({ name: 'OrderService_createOrder', arguments: { cartId: 'empty' } });
    expect(empty.isError).toBe(true);
    expect(JSON.parse((empty.content as { text: string }[])[0].text)).toStrictEqual({
      code: 1001,
      name: 'CartEmpty',
      message: 'CartEmpty: cart empty has no item',
    });
    const invalid = await client.callTool({ name: 'CatalogService_getProduct', arguments: { id: 7 } });
    expect(invalid.isError).toBe(true);
    expect(JSON.parse((invalid.content as { text: string }[])[0].text)).toMatchObject({ code: -32602, name: 'InvalidParams' });
  });

  it('neither lists nor calls a method that is not exposed, nor a stream method; none is exposed by default', async () => {
    const client = await connected(await mcpServer(exposeShop));
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).not.toContain('AdminService_resetCatalog');
    expect(names).not.toContain('OrderService_watchOrder');
    await expect(client.callTool({ name: 'AdminService_resetCatalog', arguments: {} })).rejects.toThrow(
      /Unknown tool: AdminService_resetCatalog/,
    );
    const bare = await connected(await mcpServer({}));
    expect((await bare.listTools()).tools).toStrictEqual([]);
  });

  it('pages tools/list', async () => {
    const client = await connected(await mcpServer({ ...exposeShop, pageSize: 2 }));
    const first = await client.listTools();
    expect(first.tools).toHaveLength(2);
    const second = await client.listTools({ cursor: first.nextCursor });
    const third = await client.listTools({ cursor: second.nextCursor });
    expect(third.nextCursor).toBeUndefined();
    expect([...first.tools, ...second.tools, ...third.tools]).toHaveLength(5);
  });

  it('runs tool calls through the pipeline: onCall sees them, a result the IDL does not allow is an InternalError result', async () => {
    const events: { method: string; outcome: string; error?: { code: number } }[] = [];
    const client = await connected(await mcpServer(exposeShop, { onCall: (event) => events.push(event) }));
    const unknown = await client.callTool({ name: 'CatalogService_getProduct', arguments: { id: 'no-such-product' } });
    expect(unknown.isError).toBe(true);
    expect(JSON.parse((unknown.content as { text: string }[])[0].text)).toMatchObject({ code: -32603, name: 'InternalError' });
    await client.callTool({ name: 'CatalogService_sizeOf', arguments: { id: 'mug' } });
    expect(events.map(({ method, outcome, error }) => [method, outcome, error?.code])).toStrictEqual([
      ['CatalogService.getProduct', 'error', -32603],
      ['CatalogService.sizeOf', 'result', undefined],
    ]);
  });

  it('runs tool calls through the server middleware (header-based auth)', async () => {
    const address = await mcpServer(exposeShop, {
      middleware: [
        (call, next) => {
          if (call.ctx.headers.authorization !== 'Bearer agent') throw new CartEmptyError('refused by middleware');
          return next();
        },
      ],
    });
    const client = new Client({ name: 'sdk-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(address, { requestInit: { headers: { authorization: 'Bearer agent' } } }));
    closers.push(() => client.close());
    expect((await client.callTool({ name: 'CatalogService_sizeOf', arguments: { id: 'mug' } })).isError).toBeUndefined();
    const anonymous = await connected(address);
    expect((await anonymous.callTool({ name: 'CatalogService_sizeOf', arguments: { id: 'mug' } })).isError).toBe(true);
  });
});

describe('the MCP binding over HTTP', () => {
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  };
  const post = (address: URL, body: unknown, headers: Record<string, string> = {}) =>
    fetch(address, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify(body),
    });

  it('refuses a foreign Origin with 403, even one its Host header names (DNS rebinding), and allows loopback and listed origins', async () => {
    const address = await mcpServer({ ...exposeShop, allowedOrigins: ['https://agent.example.com'] });
    expect((await post(address, initialize, { origin: 'https://evil.example.net' })).status).toBe(403);
    expect((await post(address, initialize, { origin: 'null' })).status).toBe(403);
    // DNS rebinding: the page's own host name resolves to this server, so Host and Origin agree.
    // (fetch may not set Host: node:http does.)
    const rebound = await new Promise<number | undefined>((resolve, reject) => {
      const headers = { 'content-type': 'application/json', host: 'evil.example.net', origin: 'http://evil.example.net' };
      const sent = request(address, { method: 'POST', headers }, (answer) => resolve(answer.resume().statusCode));
      sent.on('error', reject).end(JSON.stringify(initialize));
    });
    expect(rebound).toBe(403);
    expect((await post(address, initialize, { origin: 'http://localhost:5173' })).status).toBe(200);
    expect((await post(address, initialize, { origin: `http://${address.host}` })).status).toBe(200);
    expect((await post(address, initialize, { origin: 'https://agent.example.com' })).status).toBe(200);
  });

  it('answers the negotiated revision, 202 for notifications, 405 for GET, and refuses batches from 2025-06-18', async () => {
    const address = await mcpServer(exposeShop);
    const answer = await post(address, initialize);
    expect((await answer.json()).result.protocolVersion).toBe('2025-06-18');
    const old = await post(address, { ...initialize, params: { ...initialize.params, protocolVersion: '2024-01-01' } });
    expect((await old.json()).result.protocolVersion).toBe('2025-11-25');
    const notification = await post(
      address,
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { 'mcp-protocol-version': '2025-06-18' },
    );
    expect(notification.status).toBe(202);
    expect((await fetch(address)).status).toBe(405);
    const ping = { jsonrpc: '2.0', id: 2, method: 'ping' };
    expect((await post(address, [ping], { 'mcp-protocol-version': '2025-06-18' })).status).toBe(400);
    const batch = await post(address, [ping, { jsonrpc: '2.0', method: 'notifications/initialized' }], {
      'mcp-protocol-version': '2025-03-26',
    });
    expect(await batch.json()).toStrictEqual([{ jsonrpc: '2.0', id: 2, result: {} }]);
    expect((await post(address, ping, { 'mcp-protocol-version': '1999-01-01' })).status).toBe(400);
  });

  it("refuses a 2025-03-26 batch past the server's maxBatchSize, as the JSON-RPC binding does", async () => {
    const address = await mcpServer(exposeShop, { maxBatchSize: 3 });
    const pings = (count: number) => Array.from({ length: count }, (_, id) => ({ jsonrpc: '2.0', id, method: 'ping' }));
    const headers = { 'mcp-protocol-version': '2025-03-26' };
    expect((await post(address, pings(3), headers)).status).toBe(200);
    const tooLarge = await post(address, pings(4), headers);
    expect(tooLarge.status).toBe(400);
    expect((await tooLarge.json()).error.message).toBe('Invalid Request: batch of 4 messages exceeds the limit of 3');
  });

  it('leaves the JSON-RPC binding as it was on other paths', async () => {
    const address = await mcpServer(exposeShop);
    const rpc = await post(new URL('/', address), { jsonrpc: '2.0', id: 1, method: 'AdminService.resetCatalog' });
    expect(await rpc.json()).toStrictEqual({ jsonrpc: '2.0', id: 1, result: true });
  });

  it('answers through the fetch handler too, under its base path', async () => {
    const server = createRpcServer({ idl, handlers, mcp: mcpBinding(exposeShop) });
    const handle = createFetchHandler(server, { basePath: '/api' });
    const answer = await handle(
      new Request('http://agent.test/api/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'CatalogService_sizeOf', arguments: { id: 'mug' } },
        }),
      }),
    );
    expect((await answer.json()).result.structuredContent).toStrictEqual({ result: 'large' });
  });
});

describe('the MCP binding and stream methods', () => {
  it('refuses to expose a stream method by name at start-up', () => {
    expect(() => createRpcServer({ idl, handlers, mcp: mcpBinding({ expose: ['OrderService.watchOrder'] }) })).toThrow(
      'mcpBinding: expose names "OrderService.watchOrder", a stream method; stream methods are not MCP tools (docs/mcp.md)',
    );
  });
});

describe('the MCP binding with resources', () => {
  const idlSource = readFileSync(new URL('fixtures/mcp-shop.idl', import.meta.url), 'utf8');
  const openApi = { openapi: '3.1.0', info: { title: 'shop', version: '1' }, paths: {} };

  it('lists and reads the IDL source and the documents it is given, and says it has resources', async () => {
    const client = await connected(await mcpServer({ ...exposeShop, resources: { idl: idlSource, openApi } }));
    expect(client.getServerCapabilities()?.resources).toStrictEqual({ listChanged: false });
    const { resources } = await client.listResources();
    expect(resources.map((resource) => [resource.uri, resource.mimeType])).toStrictEqual([
      ['idlrpc://shop/source.idl', 'text/plain'],
      ['idlrpc://shop/openapi.json', 'application/json'],
    ]);
    const source = await client.readResource({ uri: 'idlrpc://shop/source.idl' });
    expect(source.contents).toStrictEqual([{ uri: 'idlrpc://shop/source.idl', mimeType: 'text/plain', text: idlSource }]);
    const document = await client.readResource({ uri: 'idlrpc://shop/openapi.json' });
    expect(JSON.parse((document.contents[0] as { text: string }).text)).toStrictEqual(openApi);
    await expect(client.readResource({ uri: 'idlrpc://shop/openrpc.json' })).rejects.toThrow(/-32002.*Resource not found/);
    expect((await client.listResourceTemplates()).resourceTemplates).toStrictEqual([]);
  });

  it('has no resources capability and no resources methods without resources', async () => {
    const client = await connected(await mcpServer(exposeShop));
    expect(client.getServerCapabilities()?.resources).toBeUndefined();
    const answer = await fetch(await mcpServer(exposeShop), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'resources/list' }),
    });
    expect((await answer.json()).error.code).toBe(-32601);
  });
});
