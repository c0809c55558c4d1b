/**
 * Shared pieces of the runtime tests: the checkout reference handlers, declared error classes as
 * the generator emits them, and a real server on 127.0.0.1 that every test closes.
 */
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { DeclaredError, RpcError } from '../../runtime/client.js';
import { createRpcServer, listen, type RpcContext, type RpcServerOptions } from '../../runtime/index.js';
import { checkoutIdl } from './fixtures/checkout-idl.js';

export class CartNotFoundError extends DeclaredError {
  static readonly code = 1001;
  static readonly errorName = 'CartNotFound';
  static readonly defaultMessage = 'cart does not exist';
}
export class CartEmptyError extends DeclaredError {
  static readonly code = 1002;
  static readonly errorName = 'CartEmpty';
  static readonly defaultMessage = 'cart has no items';
}
export class OrderNotFoundError extends DeclaredError {
  static readonly code = 1006;
  static readonly errorName = 'OrderNotFound';
  static readonly defaultMessage = 'order does not exist';
}
export const orderServiceErrors = [CartNotFoundError, CartEmptyError] as const;

interface CartItem {
  productId: string;
  quantity: number;
  price: number;
}
interface Cart {
  cartId: string;
  items: CartItem[];
  subtotal: number;
}

export const products = [
  { productId: 'p1', name: 'Mug', description: 'A mug', price: 9.5, stock: 10 },
  { productId: 'p2', name: 'Tee', description: 'A tee', price: 20, stock: 3, imageUrl: 'https://example.test/tee.png' },
];

/** The checkout reference service (the behaviour rules of docs/playground.md), in memory. */
export function checkoutHandlers() {
  const carts = new Map<string, Cart>();
  const orders = new Map<string, unknown>();
  let nextId = 1;
  const contexts: RpcContext[] = [];
  return {
    contexts,
    carts,
    handlers: {
      CatalogService: {
        listProducts: () => products,
        getProduct: (productId: string, ctx: RpcContext) => {
          contexts.push(ctx);
          return products.find((p) => p.productId === productId);
        },
      },
      CartService: {
        addToCart(request: { cartId?: string | null; productId: string; quantity: number }) {
          const product = products.find((p) => p.productId === request.productId);
          if (!product) throw new RpcError(-32602, 'Product not found');
          const cartId = request.cartId ?? `cart-${nextId++}`;
          const cart = carts.get(cartId) ?? { cartId, items: [], subtotal: 0 };
          carts.set(cartId, cart);
          cart.items.push({ productId: product.productId, quantity: request.quantity, price: product.price });
          cart.subtotal = cart.items.reduce((sum, item) => sum + item.price * item.quantity, 0);
          return cart;
        },
        getCart: async (cartId: string) => carts.get(cartId) ?? null,
        clearCart(cartId: string) {
          const cart = carts.get(cartId);
          if (!cart) return false;
          cart.items = [];
          cart.subtotal = 0;
          return true;
        },
      },
      OrderService: {
        async createOrder(request: { cartId: string; paymentMethod: string; shippingAddress: object }) {
          const cart = carts.get(request.cartId);
          if (!cart) throw new CartNotFoundError();
          if (cart.items.length === 0) throw new CartEmptyError(`cart ${cart.cartId} is empty`);
          const orderId = `order-${nextId++}`;
          orders.set(orderId, {
            orderId,
            cart: structuredClone(cart),
            shippingAddress: request.shippingAddress,
            paymentMethod: request.paymentMethod,
            status: 'pending',
            total: cart.subtotal,
            createdAt: Math.floor(Date.now() / 1000),
          });
          return { orderId, message: 'Order created' };
        },
        getOrder: (orderId: string) => orders.get(orderId),
        // The stream method: the order as it is, once (the playground's service follows it to delivered).
        async *watchOrder(orderId: string) {
          const order = orders.get(orderId);
          if (order === undefined) throw new OrderNotFoundError(`order ${orderId} does not exist`);
          yield order;
        },
      },
    },
  };
}

export interface TestServer {
  url: string;
  port: number;
  http: http.Server;
  logged: unknown[][];
  close(): Promise<void>;
}

/** Starts the checkout service (or `options.handlers`) on 127.0.0.1 with a free port. */
export async function startServer(
  options: Partial<RpcServerOptions> & { listen?: Parameters<typeof listen>[1] } = {},
): Promise<TestServer> {
  const logged: unknown[][] = [];
  const { listen: listenOptions, ...serverOptions } = options;
  const rpc = createRpcServer({
    idl: checkoutIdl,
    handlers: checkoutHandlers().handlers,
    logger: { error: (...args) => void logged.push(args) },
    ...serverOptions,
  });
  const server = await listen(rpc, { port: 0, host: '127.0.0.1', ...listenOptions });
  return serverHandle(server, logged);
}

export function serverHandle(server: http.Server, logged: unknown[][] = []): TestServer {
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    http: server,
    logged,
    close: () =>
      new Promise((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** POSTs a body (JSON-encoded unless a string) and returns status, headers and text. */
export async function post(url: string, body: unknown, init: RequestInit = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' || body instanceof Uint8Array ? (body as BodyInit) : JSON.stringify(body),
    ...init,
  });
  const text = await response.text();
  let json: any;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** The RpcError `promise` rejects with (expects it to reject with one). */
export async function failure(promise: Promise<unknown>): Promise<RpcError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RpcError);
  return error as RpcError;
}

/**
 * Registers a listening Node server to be closed (with its keep-alive connections) by one of
 * `cleanups` after the test; returns its base URL.
 */
export function closeAfter(cleanups: (() => Promise<unknown>)[], server: http.Server): string {
  cleanups.push(
    () =>
      new Promise((resolve) => {
        server.close(resolve);
        server.closeAllConnections();
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
