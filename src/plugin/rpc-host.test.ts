import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, test } from 'vitest';
import { mcpBinding } from '../../runtime/mcp/index.js';
import { createMiddleware, createNodeListener } from '../../runtime/node.js';
import { createRpcServer } from '../../runtime/server.js';
import { compileIdl } from '../idl/index.js';
import { toIdlJson } from '../idl/json.js';
import { type RpcHostOptions, rpcHostFor } from './rpc-host.js';
import type { ServerEntryModule } from './server-entry.js';

const libraryIdl = toIdlJson(compileIdl('namespace library\n\ninterface LibraryService {\n    countBooks() int\n}\n', 'library.idl'));

/** A loaded entry of the library IDL, made of the runtime's own parts; `mcp: false` is a build without `server.mcp`. */
function libraryEntry(mcp: boolean): ServerEntryModule {
  const entry: ServerEntryModule = {
    handlers: { LibraryService: { countBooks: () => 3 } },
    idlJson: libraryIdl,
    createServer: (handlers, options) => createRpcServer({ idl: libraryIdl, handlers, ...options }),
    createMiddleware,
  };
  return mcp ? { ...entry, mcpBinding, createNodeListener, mcpResources: { idl: 'namespace library' } } : entry;
}

/** POSTs a JSON-RPC message to a hosted entry's middleware at `path`; the status and the parsed body. */
async function post(middleware: ReturnType<ReturnType<typeof rpcHostFor>>['middleware'], path: string, method: string) {
  const http = createServer((req, res) => middleware(req, res, () => res.writeHead(404).end()));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  try {
    const response = await fetch(`http://127.0.0.1:${(http.address() as AddressInfo).port}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: {} }),
    });
    return { status: response.status, body: (await response.json()) as { result?: unknown; error?: { message: string } } };
  } finally {
    http.close();
  }
}

const withMcp = (expose: string[]): RpcHostOptions => ({
  rpcPath: '/rpc',
  exposeErrors: true,
  cors: undefined,
  httpStatus: undefined,
  mcp: { path: '/mcp', expose },
});

/** An entry module as a module namespace is while its evaluation is under way: no exports set yet. */
function loadingEntry(): ServerEntryModule {
  return { handlers: {} } as unknown as ServerEntryModule;
}

describe('rpcHostFor', () => {
  test('a module met while it still loads fails that request, and is hosted again once its exports are set', () => {
    const host = rpcHostFor({ rpcPath: '/rpc', exposeErrors: true, cors: undefined, httpStatus: undefined, mcp: undefined });
    const entry = loadingEntry();
    const first = host(entry);
    expect(String(first.failure)).toContain('the server module is still loading after an edit');

    // Live bindings: the same namespace object gets its exports when the evaluation ends.
    const middleware = () => {};
    Object.assign(entry, {
      handlers: { LibraryService: { listBooks: () => [] } },
      idlJson: { interfaces: [{ name: 'LibraryService' }] },
      createServer: () => ({}),
      createMiddleware: () => middleware,
    });
    const second = host(entry);
    expect(second.failure).toBeUndefined();
    expect(second.middleware).toBe(middleware);
    expect(host(entry)).toMatchObject({ fresh: false, middleware });
  });

  test('handlers that do not fit the IDL stay a failure of that entry until an edit', () => {
    const host = rpcHostFor({ rpcPath: '/rpc', exposeErrors: true, cors: undefined, httpStatus: undefined, mcp: undefined });
    const entry = {
      handlers: {},
      idlJson: { interfaces: [] },
      createServer: () => {
        throw new Error('createRpcServer: the handler of LibraryService has no method countBooks');
      },
      createMiddleware: () => () => {},
    } as unknown as ServerEntryModule;
    expect(String(host(entry).failure)).toContain('has no method countBooks');
    expect(host(entry)).toMatchObject({ fresh: false });
  });

  test('an expose name the IDL does not have fails the MCP path alone, saying why; JSON-RPC goes on', async () => {
    const hosted = rpcHostFor(withMcp(['LibrarySvc']))(libraryEntry(true));
    expect(hosted.failure).toBeUndefined();
    expect(String(hosted.mcpFailure)).toContain('expose names "LibrarySvc"');
    const mcp = await post(hosted.middleware, '/mcp', 'tools/list');
    expect(mcp.status).toBe(500);
    expect(mcp.body.error?.message).toContain('expose names "LibrarySvc"');
    expect((await post(hosted.middleware, '/rpc', 'LibraryService.countBooks')).body.result).toBe(3);
  });

  test('the MCP path gets the tools; a server build made without server.mcp says to build again', async () => {
    const hosted = rpcHostFor(withMcp(['LibraryService']))(libraryEntry(true));
    expect(hosted.mcpFailure).toBeUndefined();
    const tools = await post(hosted.middleware, '/mcp', 'tools/list');
    expect(tools.body.result).toMatchObject({ tools: [{ name: 'LibraryService_countBooks' }] });

    const old = rpcHostFor(withMcp(['LibraryService']))(libraryEntry(false));
    expect(String(old.mcpFailure)).toContain('built without `server.mcp`); run `vite build` again');
    expect((await post(old.middleware, '/rpc', 'LibraryService.countBooks')).body.result).toBe(3);
  });
});
