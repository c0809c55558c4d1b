import type { Address, Cart, Order, OrderStatus, PaymentMethod, Product } from '../checkout.idl';
import { catalog } from './catalog.js';
import { copyData } from './copy-data.js';
import { Fulfilment, type OrderProgress } from './fulfilment.js';
import { type CheckoutLimits, defaultLimits } from './limits.js';
import { fromCents, subtotalCents, toCents } from './money.js';
import { OrderChangeFeed } from './order-changes.js';
import { defaultFulfilment, type FulfilmentOptions, isFinal } from './order-lifecycle.js';
import type { CheckoutStore, Shortage } from './store.js';

/** A line as the store keeps it: the price in cents. */
interface StoredItem {
  productId: string;
  quantity: number;
  priceCents: number;
}

interface StoredCart {
  items: StoredItem[];
  subtotalCents: number;
  lastOrderId: string | undefined;
  /** Unix seconds of the last add, clear or order. */
  updatedAt: number;
}

interface StoredOrder {
  orderId: string;
  cartId: string;
  items: StoredItem[];
  totalCents: number;
  shippingAddress: Address;
  paymentMethod: PaymentMethod;
  createdAt: number;
  status: OrderStatus;
  /** Unix milliseconds of the last status change. */
  changedAtMs: number;
}

export interface MemoryStoreOptions {
  /** The catalog to start with; the playground catalog by default. */
  products?: readonly Product[];
  limits?: CheckoutLimits;
  /** Unix seconds now; `Date.now()` by default (tests move it to expire carts). */
  now?: () => number;
  /** The simulated fulfilment's timing (order-lifecycle.ts), or false for orders that stay pending. */
  fulfilment?: FulfilmentOptions | false;
}

/**
 * A store in memory, with the same rules and limits as the SQL store: for tests and for a service
 * that needs no durability. Every method does its reading and writing in one synchronous step, with
 * no `await` in between, so that no other call can interleave: that is its transaction. Values are
 * copied in and out, as a database would.
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): CheckoutStore {
  const limits = options.limits ?? defaultLimits;
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  const productsById = new Map((options.products ?? catalog).map((product) => [product.productId, copyData(product)]));
  const carts = new Map<string, StoredCart>();
  const orders = new Map<string, StoredOrder>();
  // The change feed of one process: the only process that can see this store.
  const changes = new OrderChangeFeed();
  const progressOf = (order: StoredOrder): OrderProgress => ({
    orderId: order.orderId,
    status: order.status,
    changedAtMs: order.changedAtMs,
  });
  const fulfilmentOptions = options.fulfilment ?? defaultFulfilment;
  const fulfilment =
    fulfilmentOptions === false
      ? undefined
      : new Fulfilment(
          {
            async advance(orderId, from, to, atMs) {
              const order = orders.get(orderId);
              if (order === undefined) return undefined;
              if (order.status === from) {
                Object.assign(order, { status: to, changedAtMs: atMs });
                changes.emit({ orderId, status: to });
              }
              return progressOf(order);
            },
            async unfinished() {
              return [...orders.values()].filter((order) => !isFinal(order.status)).map(progressOf);
            },
          },
          fulfilmentOptions,
        );

  const cartOf = (cartId: string, cart: StoredCart): Cart => ({
    cartId,
    items: cart.items.map(wireItem),
    subtotal: fromCents(cart.subtotalCents),
  });

  return {
    limits,
    async listProducts() {
      return [...productsById.values()].map((product) => copyData(product));
    },
    async getProduct(productId) {
      return copyData(productsById.get(productId));
    },
    async addItem(cartId, productId, quantity, create = true) {
      const product = productsById.get(productId);
      if (product === undefined) return { kind: 'productNotFound' };
      let cart = carts.get(cartId);
      const created = cart === undefined;
      if (cart === undefined) {
        if (!create) return { kind: 'cartNotFound' };
        if (carts.size >= limits.maxCarts) expire(now());
        if (carts.size >= limits.maxCarts) return { kind: 'tooManyCarts' };
        cart = { items: [], subtotalCents: 0, lastOrderId: undefined, updatedAt: now() };
        carts.set(cartId, cart);
      }
      if (cart.items.length >= limits.maxItemsPerCart) return { kind: 'cartFull' };
      const item = { productId, quantity, priceCents: toCents(product.price) };
      cart.items.push(item);
      cart.subtotalCents += item.priceCents * quantity;
      cart.updatedAt = now();
      return { kind: 'added', cart: cartOf(cartId, cart), created };
    },
    async getCart(cartId) {
      const cart = carts.get(cartId);
      return cart && cartOf(cartId, cart);
    },
    async clearCart(cartId) {
      const cart = carts.get(cartId);
      if (cart === undefined) return false;
      cart.items = [];
      cart.subtotalCents = 0;
      cart.updatedAt = now();
      return true;
    },
    async placeOrder(draft, check) {
      const cart = carts.get(draft.cartId);
      const requested = new Map<string, number>();
      for (const item of cart?.items ?? []) requested.set(item.productId, (requested.get(item.productId) ?? 0) + item.quantity);
      const shortages: Shortage[] = [];
      for (const [productId, quantity] of [...requested].sort(([a], [b]) => (a < b ? -1 : 1))) {
        const product = productsById.get(productId);
        const available = product?.stock ?? 0;
        if (quantity > available) shortages.push({ productId, name: product?.name ?? productId, requested: quantity, available });
      }
      check({ cart: cart && cartOf(draft.cartId, cart), lastOrderId: cart?.lastOrderId, shortages });
      if (cart === undefined) throw new Error(`placeOrder: the check let an order for the missing cart "${draft.cartId}" through`);
      if (cart.items.length === 0) throw new Error(`placeOrder: the check let an order for the empty cart "${draft.cartId}" through`);

      for (const [productId, quantity] of requested) {
        const product = productsById.get(productId);
        if (product !== undefined) product.stock -= quantity;
      }
      const order: StoredOrder = {
        orderId: draft.orderId,
        cartId: draft.cartId,
        items: cart.items,
        totalCents: cart.subtotalCents,
        shippingAddress: copyData(draft.shippingAddress),
        paymentMethod: draft.paymentMethod,
        createdAt: draft.createdAt,
        status: 'pending',
        changedAtMs: Date.now(),
      };
      orders.set(order.orderId, order);
      Object.assign(cart, { items: [], subtotalCents: 0, lastOrderId: order.orderId, updatedAt: now() });
      fulfilment?.follow(progressOf(order));
      return orderOf(order);
    },
    async getOrder(orderId) {
      const order = orders.get(orderId);
      return order && orderOf(order);
    },
    async expireCarts(at) {
      return expire(at);
    },
    async onOrderChange(listener) {
      return changes.add(listener);
    },
    async close() {
      fulfilment?.stop();
    },
  };

  function expire(at: number): number {
    const cutoff = at - limits.cartTtlSeconds;
    const emptyCutoff = at - limits.emptyCartTtlSeconds;
    let expired = 0;
    for (const [cartId, cart] of carts) {
      if (cart.updatedAt < cutoff || (cart.items.length === 0 && cart.updatedAt < emptyCutoff)) {
        carts.delete(cartId);
        expired++;
      }
    }
    return expired;
  }
}

function wireItem(item: StoredItem) {
  return { productId: item.productId, quantity: item.quantity, price: fromCents(item.priceCents) };
}

function orderOf(order: StoredOrder): Order {
  return {
    orderId: order.orderId,
    cart: { cartId: order.cartId, items: order.items.map(wireItem), subtotal: fromCents(subtotalCents(order.items)) },
    shippingAddress: copyData(order.shippingAddress),
    paymentMethod: order.paymentMethod,
    status: order.status,
    total: fromCents(order.totalCents),
    createdAt: order.createdAt,
  };
}
