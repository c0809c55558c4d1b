/**
 * Checkout servers for the `-conform` tests: one that keeps the IDL, and variants that each break one
 * rule (a wrong result type, a missing required field, an undeclared error, a 500 instead of -32602,
 * a wrong REST status, a stale rpc-idl).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { createNodeListener, createRpcServer, RpcError, type RpcServerOptions } from '../../runtime/index.js';
import { checkoutIdl } from '../runtime/fixtures/checkout-idl.js';
import { compileIdl } from '../../src/idl/compile.js';
import { toIdlJson } from '../../src/idl/json.js';

export const product = { productId: 'p1', name: 'Shoe', description: 'A shoe', price: 25.5, stock: 3 };

/** Handlers that keep the checkout IDL; `getProduct` may be replaced. */
export function checkoutHandlers(getProduct: (productId: unknown) => unknown = (id) => (id === 'p1' ? product : null)) {
  return {
    CatalogService: { listProducts: () => [product], getProduct },
    CartService: { addToCart: () => ({ cartId: 'c1', items: [], subtotal: 0 }), getCart: () => null, clearCart: () => false },
    OrderService: { createOrder: () => ({ orderId: 'o1' }), getOrder: () => null, async *watchOrder() {} },
  };
}

/** The broken handlers' failures are the point of the tests: not logged. */
const quiet = { error() {}, warn() {}, info() {} };

export interface TestServer {
  url: string;
  close(): Promise<void>;
}

/** Listens on a free loopback port; `rewriteStatus` changes the HTTP status of the answers it names. */
export async function startCheckoutServer(
  options: Partial<RpcServerOptions> = {},
  rewriteStatus?: (status: number, path: string) => number,
): Promise<TestServer> {
  const server = createRpcServer({ idl: checkoutIdl, handlers: checkoutHandlers(), logger: quiet, ...options } as RpcServerOptions);
  const listener = createNodeListener(server);
  const httpServer = http.createServer((req, res) => {
    if (rewriteStatus) {
      const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => http.ServerResponse;
      res.writeHead = ((status: number, ...rest: unknown[]) =>
        writeHead(rewriteStatus(status, req.url ?? ''), ...rest)) as typeof res.writeHead;
    }
    listener(req, res);
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const { port } = httpServer.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise((resolve) => {
        httpServer.close(() => resolve());
        httpServer.closeAllConnections();
      }),
  };
}

/** The checkout IDL as it was before a change to addToCart's request: what a server not redeployed serves. */
export function staleCheckoutIdl() {
  const text = readFileSync(new URL('../../playground/checkout.idl', import.meta.url), 'utf8');
  const stale = text.replace(
    '    quantity     int\n}\n\nstruct CreateOrderRequest',
    '    quantity     float\n}\n\nstruct CreateOrderRequest',
  );
  if (stale === text) throw new Error('the checkout IDL no longer has the text the stale variant changes');
  return toIdlJson(compileIdl(stale, 'checkout.idl'));
}

export { RpcError };
