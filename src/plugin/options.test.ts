import { describe, expect, test } from 'vitest';
import { resolveOptions } from './options.js';
import { isRpcRequest } from './rpc-host.js';
import { missingHandlersProblem, pickHandlers } from './server-entry.js';

describe('resolveOptions: docsPage', () => {
  test('on in the dev server only by default; false turns it off; preview is opt-in; a wrong value says so', () => {
    expect(resolveOptions({ docsPage: true }).docsPage).toEqual({ path: '/__idl/docs', title: 'API reference', dev: true, preview: false });
    expect(resolveOptions({ docsPage: false }).docsPage).toBe(false);
    expect(resolveOptions({ docsPage: { path: '/api-docs', preview: true, dev: false } }).docsPage).toEqual({
      path: '/api-docs',
      title: 'API reference',
      dev: false,
      preview: true,
    });
    expect(() => resolveOptions({ docsPage: 'yes' as unknown as boolean })).toThrow(
      /docsPage must be true, false or \{ path\?, title\?, dev\?, preview\? \}, got "yes"/,
    );
  });
});

describe('resolveOptions', () => {
  test('fills in the defaults', () => {
    expect(resolveOptions()).toEqual({
      dts: true,
      declarationMap: true,
      openapi: { fileName: 'openapi.json', version: '3.1', serverUrl: undefined, info: {} },
      openrpc: { fileName: 'openrpc.json', info: {} },
      server: undefined,
      rpcPath: '/rpc',
      exposeErrors: true,
      maxIdlBytes: 1024 * 1024,
      cache: true,
      cacheDir: undefined,
      docsPage: { path: '/__idl/docs', title: 'API reference', dev: true, preview: false },
    });
  });

  test('keeps openapi: false, trims a trailing slash of rpcPath and defaults server.outDir', () => {
    const options = resolveOptions({ openapi: false, rpcPath: '/api/rpc/', server: { idl: 'a.idl', handlers: 'h.ts' } });
    expect(options.openapi).toBe(false);
    expect(options.rpcPath).toBe('/api/rpc');
    expect(options.server).toEqual({ idl: 'a.idl', handlers: 'h.ts', outDir: 'node_modules/.idl-rpc/server' });
  });

  test('openrpc: off with false, its info defaults to openapi.info, its serverUrl must be absolute', () => {
    expect(resolveOptions({ openrpc: false }).openrpc).toBe(false);
    const license = { name: 'MIT' };
    expect(resolveOptions({ openapi: { info: { license } } }).openrpc).toEqual({ fileName: 'openrpc.json', info: { license } });
    expect(resolveOptions({ openrpc: { fileName: 'api.openrpc.json', serverUrl: 'https://x.test/rpc' } }).openrpc).toEqual({
      fileName: 'api.openrpc.json',
      serverUrl: 'https://x.test/rpc',
      info: {},
    });
    expect(() => resolveOptions({ openrpc: { serverUrl: '/rpc' } })).toThrow(
      /openrpc\.serverUrl must be an absolute URI \(OpenRPC requires one\), got "\/rpc"/,
    );
  });

  test('server.mcp: path defaults to /mcp (trailing slash trimmed), its other options pass to the binding; wrong values say which', () => {
    const server = (mcp: unknown, rpcPath?: string) =>
      resolveOptions({ rpcPath, server: { idl: 'a.idl', handlers: 'h.ts', mcp: mcp as never } }).server;
    expect(server(undefined)?.mcp).toBeUndefined();
    expect(server({ expose: ['CatalogService'] })?.mcp).toEqual({ expose: ['CatalogService'], path: '/mcp' });
    expect(server({ path: '/agents/mcp/', allowedOrigins: ['https://app.test'], pageSize: 5 })?.mcp).toEqual({
      path: '/agents/mcp',
      allowedOrigins: ['https://app.test'],
      pageSize: 5,
    });
    expect(() => server(['CatalogService'])).toThrow(/server\.mcp must be an object of mcpBinding's options/);
    expect(() => server({ path: 'mcp' })).toThrow(/server\.mcp\.path must start with '\/', got "mcp"/);
    expect(() => server({ path: '/api/' }, '/api')).toThrow(/server\.mcp\.path and rpcPath are both "\/api"/);
    expect(() => server({ expose: 'CatalogService' })).toThrow(/server\.mcp\.expose must be an array of interface or method names/);
    expect(() => server({ expose: [''] })).toThrow(/server\.mcp\.expose must be an array/);
    expect(() => server({ allowedOrigins: ['app.test'] })).toThrow(/server\.mcp\.allowedOrigins holds "app\.test", which is no origin/);
    expect(() => server({ serverInfo: { name: 'shop' } })).toThrow(/server\.mcp\.serverInfo must be \{ name: string, version: string \}/);
    expect(() => server({ instructions: 7 })).toThrow(/server\.mcp\.instructions must be a string, got 7/);
    expect(() => server({ pageSize: 0 })).toThrow(/server\.mcp\.pageSize must be a positive whole number, got 0/);
  });

  test('rejects values a user can get wrong, saying which', () => {
    expect(() => resolveOptions({ openapi: { version: '2.0' as '3.0' } })).toThrow(/openapi\.version must be '3\.1' or '3\.0', got "2\.0"/);
    expect(() => resolveOptions({ rpcPath: 'rpc' })).toThrow(/rpcPath must start with '\/'/);
    expect(() => resolveOptions({ server: { idl: 'a.idl' } as never })).toThrow(/server needs both `idl` and `handlers`/);
    expect(() => resolveOptions({ maxIdlBytes: 0 })).toThrow(/maxIdlBytes must be a positive whole number of bytes, got 0/);
    expect(() => resolveOptions({ maxIdlBytes: '1MB' as never })).toThrow(
      /maxIdlBytes must be a positive whole number of bytes, got "1MB"/,
    );
    expect(() => resolveOptions({ cacheDir: '' })).toThrow(/cacheDir must be a non-empty path, got ""/);
  });
});

describe('pickHandlers', () => {
  const CartService = { getCart: () => null };
  const OrderService = { getOrder: () => null };

  test('takes named exports called like the interfaces, ignoring other exports', () => {
    expect(pickHandlers({ CartService, OrderService, helper: () => 1, VERSION: 3 }, ['CartService', 'OrderService'])).toEqual({
      CartService,
      OrderService,
    });
  });

  test('takes a default export holding the handlers', () => {
    expect(pickHandlers({ default: { CartService } }, ['CartService', 'OrderService'])).toEqual({ CartService });
  });
});

describe('missingHandlersProblem', () => {
  const interfaces = ['CartService', 'OrderService'];

  test('none while one interface has a handler object', () => {
    expect(missingHandlersProblem({ CartService: {}, helper: 1 }, interfaces)).toBeUndefined();
    expect(missingHandlersProblem({ default: { OrderService: {} } }, interfaces)).toBeUndefined();
    expect(missingHandlersProblem({}, [])).toBeUndefined();
  });

  test('names what the module exports instead, and an export named like an interface that is no object', () => {
    const lead =
      'exports no object named after an interface of the IDL (CartService, OrderService), so every call answers "method not found"; ';
    expect(missingHandlersProblem({ CartSvc: {}, helper: 1 }, interfaces)).toBe(`${lead}it exports CartSvc, helper`);
    expect(missingHandlersProblem({}, interfaces)).toBe(`${lead}it exports nothing`);
    expect(missingHandlersProblem({ CartService: class {} }, interfaces)).toBe(`${lead}it exports CartService (a function, not an object)`);
    expect(missingHandlersProblem({ default: { Cart: {} }, VERSION: 3 }, interfaces)).toBe(
      `${lead}it exports VERSION, default export holding { Cart }`,
    );
  });
});

test('isRpcRequest matches the endpoint and paths below it only', () => {
  expect(isRpcRequest('/rpc', '/rpc')).toBe(true);
  expect(isRpcRequest('/rpc?x=1', '/rpc')).toBe(true);
  expect(isRpcRequest('/rpc/CartService/getCart', '/rpc')).toBe(true);
  expect(isRpcRequest('/rpcx', '/rpc')).toBe(false);
  expect(isRpcRequest('/', '/rpc')).toBe(false);
});

describe('breaking option', () => {
  test('is off by default; on, its level defaults to wire and fail to false', () => {
    expect(resolveOptions({}).breaking).toBeUndefined();
    expect(resolveOptions({ breaking: false }).breaking).toBeUndefined();
    expect(resolveOptions({ breaking: { against: 'git:origin/main' } }).breaking).toEqual({
      against: 'git:origin/main',
      level: 'wire',
      fail: false,
    });
  });

  test('a missing baseline or an unknown level is an error naming the option', () => {
    expect(() => resolveOptions({ breaking: { against: '' } })).toThrow('breaking.against must name a baseline');
    expect(() => resolveOptions({ breaking: { against: 'git:HEAD', level: 'strict' as 'wire' } })).toThrow(
      'breaking.level must be one of wire, openapi, source, got "strict"',
    );
  });
});
