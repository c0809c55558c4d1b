/**
 * The checkout IDL served by another JSON-RPC implementation, jayson, for the tests that check our
 * clients and tools against a server we did not write. Give it the playground's checkout service
 * (`createCheckoutService()`, loaded through the plugin as harness.ts does), so its
 * answers are the playground's; what differs is jayson's protocol handling (it answers broken JSON
 * with HTTP 400 and plain text, and treats `"id": null` as a notification).
 */
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import jayson from 'jayson/promise/index.js';

/** Parameter names of each checkout method, in IDL order (jayson takes positional or named params). */
const checkoutMethods: Record<string, Record<string, readonly string[]>> = {
  CatalogService: { listProducts: [], getProduct: ['productId'] },
  CartService: { addToCart: ['request'], getCart: ['cartId'], clearCart: ['cartId'] },
  OrderService: { createOrder: ['request'], getOrder: ['orderId'] },
};

/** A running jayson server and how to stop it. */
export interface JaysonCheckoutServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * Starts jayson on a free loopback port, serving the checkout methods (not the stream watchOrder)
 * with the given handlers (the shape `createCheckoutService()` returns).
 */
export async function startJaysonCheckout(checkoutHandlers: object): Promise<JaysonCheckoutServer> {
  const server = new jayson.Server(jaysonMethods(checkoutHandlers as Handlers));
  const httpServer: http.Server = server.http();
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const { port } = httpServer.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise((resolve) => {
        httpServer.close(() => resolve());
        httpServer.closeAllConnections();
      }),
  };
}

type Handler = (...args: unknown[]) => unknown;
type Handlers = Record<string, Record<string, Handler>>;

function jaysonMethods(handlers: Handlers): Record<string, jayson.MethodLike> {
  const methods: Record<string, jayson.MethodLike> = {};
  for (const [service, names] of Object.entries(checkoutMethods)) {
    for (const [method, params] of Object.entries(names)) {
      const handler = handlers[service]?.[method];
      if (handler === undefined) throw new Error(`checkout service has no ${service}.${method}`);
      methods[`${service}.${method}`] = async (args: unknown) => call(handler, params, args);
    }
  }
  return methods;
}

/** Runs one handler; declared and protocol errors become JSON-RPC error objects, as jayson expects. */
async function call(handler: Handler, params: readonly string[], args: unknown): Promise<unknown> {
  const positional = Array.isArray(args) ? args : params.map((name) => (args as Record<string, unknown> | undefined)?.[name]);
  try {
    return (await handler(...positional, undefined)) ?? null;
  } catch (error) {
    const { code, message, data } = error as { code?: unknown; message?: string; data?: unknown };
    if (typeof code !== 'number') throw error;
    throw data === undefined ? { code, message } : { code, message, data };
  }
}
