/**
 * createMiddleware inside a real Vite dev server (connect stack, raw Node req/res, no body parser),
 * mounted the way the plugin mounts it: `configureServer` + `server.middlewares.use`.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createServer, type ViteDevServer } from 'vite';
import { createMiddleware, createRpcServer, HttpTransport } from '../../runtime/index.js';
import { checkoutIdlWithReads } from './fixtures/checkout-idl.js';
import { checkoutHandlers, post } from './helpers.js';

let vite: ViteDevServer;
let base: string;

beforeAll(async () => {
  const rpc = createRpcServer({ idl: checkoutIdlWithReads, handlers: checkoutHandlers().handlers, exposeErrors: true });
  vite = await createServer({
    configFile: false,
    root: new URL('./fixtures/', import.meta.url).pathname,
    logLevel: 'silent',
    server: { port: 0, host: '127.0.0.1', strictPort: false, ws: false, watch: null },
    optimizeDeps: { noDiscovery: true, include: [] },
    plugins: [{ name: 'rpc', configureServer: (server) => void server.middlewares.use(createMiddleware(rpc)) }],
  });
  await vite.listen();
  const address = vite.httpServer!.address() as { port: number };
  base = `http://127.0.0.1:${address.port}`;
});
afterAll(async () => {
  await vite?.close();
});

it('answers JSON-RPC at /rpc and the OpenAPI binding below it', async () => {
  const transport = new HttpTransport(`${base}/rpc`);
  expect(await transport.call('CatalogService.getProduct', ['p1'])).toMatchObject({ productId: 'p1' });
  const binding = await post(`${base}/rpc/CartService/clearCart`, { cartId: 'none' });
  expect(binding.status).toBe(200);
  expect(binding.text).toBe('false');
});

it('answers a GET of a @readonly method below it, with its params in the query', async () => {
  const read = await fetch(`${base}/rpc/CatalogService/getProduct?productId=%22p1%22`);
  expect(read.status).toBe(200);
  expect(await read.json()).toMatchObject({ productId: 'p1' });
  const again = await fetch(`${base}/rpc/CatalogService/getProduct?productId=%22p1%22`, {
    headers: { 'if-none-match': read.headers.get('etag')! },
  });
  expect(again.status).toBe(304);
  const write = await fetch(`${base}/rpc/CartService/clearCart?cartId=%22c%22`);
  expect(write.status).toBe(405);
  await write.arrayBuffer();
});

it('leaves other paths to Vite', async () => {
  const page = await fetch(`${base}/rpc-not-here.txt`);
  expect(page.status).toBe(404);
  await page.arrayBuffer();
  const verb = await fetch(`${base}/rpc`);
  expect(verb.status).toBe(405);
  expect(await verb.text()).toBe('{"error":"Method Not Allowed"}');
});
