/**
 * The plugin's mock mode (docs/mock.md): `mock` and `mockSeed` make the Vite dev and preview servers
 * answer the interfaces of `server.idl` with mock values, with or without handlers; the
 * `x-idlrpc-mock-error` header; and nothing of it in the production bundle.
 */
import { readdir, readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { PreviewServer, ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { compileIdl, toIdlJson } from '../../src/idl/index.js';
import { resolveOptions, type IdlRpcPluginOptions } from '../../src/plugin/options.js';
import { rpcHostFor } from '../../src/plugin/rpc-host.js';
import type { ServerEntryModule } from '../../src/plugin/server-entry.js';
import { createMockHandlers } from '../../runtime/mock/index.js';
import { createMiddleware } from '../../runtime/node.js';
import type { RpcServerOptions } from '../../runtime/server.js';
import { createRpcServer } from '../../runtime/server.js';
import idlRpc from '../../src/plugin/vite.js';
import { compileValidators } from '../../runtime/validation.js';
import { callRpc } from './harness/http.js';
import { startViteDevServer } from './harness/vite-dev.js';
import { checkoutIdlFile, copyFixtureApp } from './harness/workspace.js';

// Builds run in this file: generous limits for a busy 2-core machine (no timing is asserted).
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const validators = compileValidators(toIdlJson(compileIdl(await readFile(checkoutIdlFile, 'utf8'), 'checkout.idl')));
const address = { street: '1 Main St', city: 'Springfield', state: 'IL', zipCode: '62701', country: 'US' };
/** One call of every method of the checkout IDL but the stream. */
const calls: [string, unknown[]][] = [
  ['CatalogService.listProducts', []],
  ['CatalogService.getProduct', ['kettle']],
  ['CartService.addToCart', [{ productId: 'kettle', quantity: 1 }]],
  ['CartService.getCart', ['cart-1']],
  ['CartService.clearCart', ['cart-1']],
  ['OrderService.createOrder', [{ cartId: 'cart-1', shippingAddress: address, paymentMethod: 'paypal' }]],
  ['OrderService.getOrder', ['order-9']],
];

const callWithHeader = async (url: string, method: string, params: unknown[], headers: Record<string, string>) =>
  (await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  }).then((response) => response.json())) as { result?: unknown; error?: { code: number; message: string } };

describe('mock mode in the Vite dev server, without handlers', () => {
  let server: ViteDevServer;
  let base: string;
  beforeAll(async () => {
    const app = await copyFixtureApp('vite-mock/dev');
    ({ server, base } = await startViteDevServer(app, { server: { idl: 'checkout.idl' }, mock: true, mockSeed: 'dev' }));
  });
  afterAll(() => server?.close());

  it('answers every method with values that pass the result validation, the same for the same call', async () => {
    for (const [method, params] of calls) {
      const answer = await callRpc(`${base}/rpc`, method, params);
      expect(answer.error, method).toBeUndefined();
      expect(validators[method].result.errors(answer.result), method).toEqual([]);
      expect(await callRpc(`${base}/rpc`, method, params)).toEqual(answer);
    }
    expect((await callRpc(`${base}/rpc`, 'CartService.getCart', ['cart-1'])).result).toMatchObject({ cartId: 'cart-1' });
  });

  it('answers a request carrying x-idlrpc-mock-error with that declared error, and a clear error for an undeclared one', async () => {
    const [method, params] = calls[5];
    expect(await callWithHeader(`${base}/rpc`, method, params, { 'x-idlrpc-mock-error': 'OutOfStock' })).toMatchObject({
      error: { code: 1004, message: 'OutOfStock: insufficient inventory' },
    });
    expect(await callWithHeader(`${base}/rpc`, 'CatalogService.listProducts', [], { 'x-idlrpc-mock-error': 'OutOfStock' })).toMatchObject({
      error: {
        code: -32600,
        message:
          'Invalid Request: x-idlrpc-mock-error names "OutOfStock", but CatalogService.listProducts does not raise it (it raises no declared error)',
      },
    });
  });

  it('allows the x-idlrpc-mock-error header in cross-origin calls', async () => {
    const preflight = await fetch(`${base}/rpc`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:3000',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'x-idlrpc-mock-error',
      },
    });
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-idlrpc-mock-error');
  });
});

describe('mock mode for some interfaces, with handlers', () => {
  let server: ViteDevServer;
  let base: string;
  beforeAll(async () => {
    const app = await copyFixtureApp('vite-mock/some');
    ({ server, base } = await startViteDevServer(app, {
      server: { idl: 'checkout.idl', handlers: 'server/handlers.js' },
      mock: ['CatalogService'],
    }));
  });
  afterAll(() => server?.close());

  it('answers the mocked interfaces with mock values, the others with the handlers', async () => {
    const order = await callRpc(`${base}/rpc`, 'OrderService.getOrder', ['order-1']);
    expect(order.result).toMatchObject({ orderId: 'order-1', createdAt: 1_700_000_000 });
    const products = await callRpc(`${base}/rpc`, 'CatalogService.listProducts', []);
    expect((products.result as unknown[]).length).toBeGreaterThan(0);
    expect(validators['CatalogService.listProducts'].result.errors(products.result)).toEqual([]);
  });
});

describe('mock mode naming an interface the IDL does not have', () => {
  let server: ViteDevServer;
  let base: string;
  beforeAll(async () => {
    const app = await copyFixtureApp('vite-mock/unknown');
    ({ server, base } = await startViteDevServer(app, { server: { idl: 'checkout.idl' }, mock: ['CatalogServices'] }));
  });
  afterAll(() => server?.close());

  it('answers every call with an error naming it and the interfaces the IDL has', async () => {
    const answer = await callRpc(`${base}/rpc`, 'CatalogService.listProducts', []);
    expect(answer.error).toMatchObject({
      code: -32603,
      message: expect.stringContaining('mock: the IDL has no interface CatalogServices (it has CatalogService, CartService, OrderService)'),
    });
  });
});

describe('mock mode in vite preview, and the production bundle', () => {
  let preview: PreviewServer;
  let base: string;
  let mockedApp: string;
  let plainApp: string;
  const mocked: IdlRpcPluginOptions = { server: { idl: 'checkout.idl', handlers: 'server/handlers.js' }, mock: true };
  beforeAll(async () => {
    const vite = await import('vite');
    mockedApp = await copyFixtureApp('vite-mock/preview');
    plainApp = await copyFixtureApp('vite-mock/plain');
    await vite.build({ configFile: false, root: mockedApp, logLevel: 'silent', plugins: [idlRpc(mocked)] });
    await vite.build({ configFile: false, root: plainApp, logLevel: 'silent', plugins: [idlRpc({ server: mocked.server })] });
    preview = await vite.preview({
      configFile: false,
      root: mockedApp,
      logLevel: 'silent',
      preview: { host: '127.0.0.1', port: 0 },
      plugins: [idlRpc(mocked)],
    });
    base = `http://127.0.0.1:${(preview.httpServer.address() as AddressInfo).port}`;
  });
  afterAll(() => preview?.close());

  it('vite preview answers with mock values (mocked interfaces win over the handlers) and the mock-error header', async () => {
    const order = await callRpc(`${base}/rpc`, 'OrderService.getOrder', ['order-1']);
    expect(order.result).not.toMatchObject({ createdAt: 1_700_000_000 });
    expect(validators['OrderService.getOrder'].result.errors(order.result)).toEqual([]);
    const [method, params] = calls[5];
    expect(await callWithHeader(`${base}/rpc`, method, params, { 'x-idlrpc-mock-error': 'CartEmpty' })).toMatchObject({
      error: { code: 1002 },
    });
  });

  it('adds nothing to the production bundle: the published files are those of a build without mock mode', async () => {
    const files = async (app: string) => (await readdir(path.join(app, 'dist'), { recursive: true })).sort();
    const published = await files(mockedApp);
    expect(published).toEqual(await files(plainApp));
    for (const file of published.filter((name) => name.endsWith('.js'))) {
      const text = await readFile(path.join(mockedApp, 'dist', file), 'utf8');
      expect(text).toBe(await readFile(path.join(plainApp, 'dist', file), 'utf8'));
      expect(text).not.toContain('x-idlrpc-mock-error');
    }
  });
});

describe('the mock options', () => {
  it('refuses mock without server, a mock that is no list of names, a seed that is no string or number', () => {
    expect(() => resolveOptions({ mock: true })).toThrow('unplugin-idl-rpc: mock needs `server.idl`, the .idl whose interfaces are mocked');
    expect(() => resolveOptions({ server: { idl: 'a.idl' }, mock: 'yes' as never })).toThrow(
      'unplugin-idl-rpc: mock must be true, false or a list of interface names, got "yes"',
    );
    expect(() => resolveOptions({ server: { idl: 'a.idl' }, mock: true, mockSeed: {} as never })).toThrow(
      'unplugin-idl-rpc: mockSeed must be a string or a number, got {}',
    );
    expect(() => resolveOptions({ server: { idl: 'a.idl' } })).toThrow('`handlers` may be left out with `mock`');
    expect(resolveOptions({ server: { idl: 'a.idl' }, mock: ['A'], mockSeed: 3 }).mock).toEqual({ interfaces: ['A'], seed: 3 });
  });
});

describe('the hosted entry in mock mode', () => {
  /** The `cors` option the hosted RPC server of an entry gets, with or without mock handlers. */
  function corsOf(mocked: boolean): RpcServerOptions['cors'] {
    let cors: RpcServerOptions['cors'];
    const idlJson = toIdlJson(compileIdl('namespace n\n\ninterface Clock {\n    now() timestamp\n}\n', 'n.idl'));
    const entry: ServerEntryModule = {
      handlers: {},
      idlJson,
      createServer: (handlers, options) => {
        cors = options?.cors;
        return createRpcServer({ idl: idlJson, handlers, ...options });
      },
      createMiddleware,
      ...(mocked ? { mockHandlers: createMockHandlers(idlJson) } : {}),
    };
    const hosted = rpcHostFor({ rpcPath: '/rpc', exposeErrors: true, cors: { origins: '*' }, httpStatus: undefined, mcp: undefined })(
      entry,
    );
    expect(hosted.failure).toBeUndefined();
    return cors;
  }

  it('allows the x-idlrpc-mock-error header in its CORS rules, only in mock mode', () => {
    expect(corsOf(true)?.allowedHeaders).toContain('x-idlrpc-mock-error');
    expect(corsOf(false)?.allowedHeaders ?? []).not.toContain('x-idlrpc-mock-error');
  });
});
