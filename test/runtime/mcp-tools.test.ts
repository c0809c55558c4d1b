/**
 * The MCP binding's tools of an IDL that imports another (docs/mcp.md, "Tools from the IDL"): a
 * tool is named as openapi.json names the method's operation, also for an imported namespace's
 * interface and for a name two methods would share; an imported namespace's declared errors and
 * named types reach the description and the schemas.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRpcServer } from '../../runtime/index.js';
import { mcpBinding } from '../../runtime/mcp/index.js';
import { compileIdl } from '../../src/idl/compile.js';
import { toIdlJson } from '../../src/idl/json.js';
import { idlToOpenApi } from '../../src/openapi/index.js';
import { memoryHost } from '../idl/memory-host.js';

const fixtures = join(import.meta.dirname, '..', 'idl', 'fixtures', 'multi-file');
const shopFile = join(fixtures, 'shop.idl');
const model = compileIdl(readFileSync(shopFile, 'utf8'), shopFile);
const idl = toIdlJson(model);

/** A handler object of every interface of the IDL, each method answering `null`. */
function nullHandlers(of: typeof idl): Record<string, object> {
  return Object.fromEntries(
    (of.interfaces ?? []).map((iface) => [iface.name, Object.fromEntries((iface.methods ?? []).map((m) => [m.name, () => null]))]),
  );
}

/** tools/list of a server exposing every interface. */
async function listedTools(of = idl): Promise<{ name: string; description?: string; inputSchema: Record<string, any> }[]> {
  const server = createRpcServer({
    idl: of,
    handlers: nullHandlers(of),
    mcp: mcpBinding({ expose: (of.interfaces ?? []).map((iface) => iface.name) }),
  });
  const answer = await server.handleHttp({
    method: 'POST',
    path: '/mcp',
    headers: { 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  return JSON.parse(answer.body).result.tools;
}

describe('tools of shop.idl, which imports inventory.idl and common.idl', () => {
  it('are named as openapi.json names the operations (the one rule, runtime/operation-id.ts)', async () => {
    const paths = (idlToOpenApi([model]).document as { paths: Record<string, { post: { operationId: string } }> }).paths;
    const operationIds = Object.values(paths).map((path) => path.post.operationId);
    const names = (await listedTools()).map((tool) => tool.name);
    expect(names).toStrictEqual(operationIds);
    expect(names).toContain('inventory_InventoryService_getStock');
  });

  it("carry an imported namespace's declared errors and named types", async () => {
    const getStock = (await listedTools()).find((tool) => tool.name === 'inventory_InventoryService_getStock')!;
    expect(getStock.description).toMatch(/^The stock of one article\.\n\nErrors .*\n- common\.NotFound \(code \d+\): /);
    const list = (await listedTools()).find((tool) => tool.name === 'inventory_InventoryService_list')!;
    expect(list.inputSchema.properties.page).toStrictEqual({ $ref: '#/$defs/common.Page' });
    expect(Object.keys(list.inputSchema.$defs)).toContain('common.Page');
  });
});

describe('two methods whose names would make the same tool name', () => {
  const files = {
    'main.idl': 'namespace shop\nimport "inv.idl"\ninterface inventory_InventoryService {\n  getStock() int\n}\n',
    'inv.idl': 'namespace inventory\ninterface InventoryService {\n  getStock() int\n}\n',
  };
  const collidingModel = compileIdl(files['main.idl'], 'main.idl', { host: memoryHost(files) });

  it('get the numbered names openapi.json gives their operations', async () => {
    const paths = (idlToOpenApi([collidingModel]).document as { paths: Record<string, { post: { operationId: string } }> }).paths;
    const names = (await listedTools(toIdlJson(collidingModel))).map((tool) => tool.name);
    expect(names).toStrictEqual(Object.values(paths).map((path) => path.post.operationId));
    expect(names).toStrictEqual(['inventory_InventoryService_getStock', 'inventory_InventoryService_getStock_2']);
  });
});

describe('mcpBinding options checked at start-up', () => {
  const serverWith = (expose: string[]) => () => createRpcServer({ idl, handlers: nullHandlers(idl), mcp: mcpBinding({ expose }) });

  it('refuses an expose name that is no interface or method of the IDL', () => {
    expect(serverWith(['InventoryService'])).toThrow(
      'mcpBinding: expose names "InventoryService", which is no interface or "<Interface>.<method>" of the IDL',
    );
    expect(serverWith(['inventory.InventoryService.nope'])).toThrow(/expose names "inventory\.InventoryService\.nope"/);
    expect(serverWith(['inventory.InventoryService.getStock'])).not.toThrow();
  });

  it('refuses a path without its leading slash and a page size that is no positive integer', () => {
    expect(() => mcpBinding({ path: 'mcp' })).toThrow(`mcpBinding: path must start with '/', got "mcp"`);
    expect(() => mcpBinding({ pageSize: 0 })).toThrow('mcpBinding: pageSize must be a positive integer, got 0');
    expect(() => mcpBinding({ allowedOrigins: ['not an origin'] })).toThrow(/allowedOrigins holds "not an origin"/);
  });
});

describe('CORS of a server with the MCP binding', () => {
  const preflight = (server: ReturnType<typeof createRpcServer>) =>
    server.handleHttp({
      method: 'OPTIONS',
      path: '/mcp',
      body: '',
      headers: {
        origin: 'https://shop.test',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'mcp-protocol-version',
      },
    });

  it("allows MCP's MCP-Protocol-Version header in preflights by default, since MCP clients send it after initialize", async () => {
    const server = createRpcServer({ idl, handlers: nullHandlers(idl), cors: { origins: ['https://shop.test'] }, mcp: mcpBinding() });
    const answer = await preflight(server);
    expect(answer.status).toBe(204);
    expect(answer.headers['access-control-allow-headers']?.split(', ')).toContain('mcp-protocol-version');
  });

  it('keeps allowedHeaders as given when the server lists them', async () => {
    const server = createRpcServer({
      idl,
      handlers: nullHandlers(idl),
      cors: { origins: ['https://shop.test'], allowedHeaders: ['content-type'] },
      mcp: mcpBinding(),
    });
    expect((await preflight(server)).headers['access-control-allow-headers']).toBe('content-type');
  });
});
