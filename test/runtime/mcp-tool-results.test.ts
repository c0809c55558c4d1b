/**
 * A tools/call's result has the JSON-RPC wire form (docs/mcp.md, "Cost of a call"): it is written by
 * the server's result serializer of the method, as a JSON-RPC call's result is (generated servers
 * pass one per method that writes the IDL's fields only), both as `structuredContent` and as the
 * text block.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createRpcServer } from '../../runtime/index.js';
import { mcpBinding } from '../../runtime/mcp/index.js';
import { compileIdl } from '../../src/idl/compile.js';
import { toIdlJson } from '../../src/idl/json.js';

const idl = toIdlJson(compileIdl(readFileSync(new URL('fixtures/mcp-shop.idl', import.meta.url), 'utf8'), 'mcp-shop.idl'));

// The handler's product has a field the IDL does not know; the serializer, like a generated one, drops it.
const product = { id: 'mug', name: 'Mug', price: 3, internalNote: 'not for clients' };
const server = createRpcServer({
  idl,
  handlers: {
    CatalogService: { listProducts: () => [product], getProduct: () => product, sizeOf: () => 'small', countUpTo: () => 0 },
    OrderService: { createOrder: () => 'o1', async *watchOrder() {} },
    AdminService: { resetCatalog: () => true },
  },
  serializers: {
    'CatalogService.getProduct': (value) => {
      const { id, name, price } = value as typeof product;
      return JSON.stringify({ id, name, price });
    },
  },
  mcp: mcpBinding({ expose: ['CatalogService'] }),
});

async function post(path: string, message: object): Promise<any> {
  const answer = await server.handleHttp({
    method: 'POST',
    path,
    headers: { 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify(message),
  });
  return JSON.parse(answer.body);
}

describe('a tools/call result', () => {
  it("is written by the method's result serializer, as the JSON-RPC call's result is", async () => {
    const jsonRpc = await post('/', { jsonrpc: '2.0', id: 1, method: 'CatalogService.getProduct', params: ['mug'] });
    const tool = await post('/mcp', {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'CatalogService_getProduct', arguments: { id: 'mug' } },
    });
    expect(jsonRpc.result).toStrictEqual({ id: 'mug', name: 'Mug', price: 3 });
    expect(tool.result.structuredContent).toStrictEqual(jsonRpc.result);
    expect(JSON.parse(tool.result.content[0].text)).toStrictEqual(jsonRpc.result);
  });

  it('of a method without a serializer is JSON.stringify of the result, wrapped as { result } when it is no object', async () => {
    const tool = await post('/mcp', {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'CatalogService_listProducts', arguments: {} },
    });
    expect(tool.result.structuredContent).toStrictEqual({ result: [product] });
    expect(tool.result.content[0].text).toBe(JSON.stringify({ result: [product] }));
  });
});
