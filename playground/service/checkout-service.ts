import { ErrorCode, nonTextParamsError, RpcError, streamEvent, type RpcContext } from 'unplugin-idl-rpc/runtime';
import {
  CartEmptyError,
  CartNotFoundError,
  InvalidAddressError,
  OrderNotFoundError,
  OutOfStockError,
  PaymentFailedError,
  type Address,
  type CartService,
  type CatalogService,
  type CheckoutHandlers,
  type CheckoutResponse,
  type Order,
  type OrderService,
} from '../checkout.idl';
import { addressProblems } from './address.js';
import { ClientBudget, clientOf } from './client-budget.js';
import { createMemoryStore } from './memory-store.js';
import { orderUpdates } from './order-updates.js';
import { declineReason } from './payment.js';
import type { CheckoutLimits } from './limits.js';
import type { AddItemOutcome, CheckoutState, CheckoutStore } from './store.js';

export interface CheckoutServiceOptions {
  /** Where products, carts and orders live; a fresh in-memory store with the playground catalog by default. */
  store?: CheckoutStore;
}

/**
 * A -32602 about a field of a method's one parameter (or the parameter itself, without `field`),
 * worded and located like the server's own validation errors (`Invalid params: <path>: <problem>`,
 * `data.errors`), the path in the caller's style: `params[0].quantity` for positional params,
 * `params.request.quantity` for named params and the REST binding. Without a context (a handler
 * called directly) the path is positional.
 */
function invalidParam(ctx: RpcContext | undefined, field: string | undefined, problem: string): RpcError {
  const fields = field === undefined ? [] : [field];
  const path = ctx ? ctx.paramPath(0, ...fields) : ['params[0]', ...fields].join('.');
  return new RpcError(-32602, `Invalid params: ${path}: ${problem}`, { errors: [{ path, message: problem }] });
}

/**
 * Refuses params holding a string that is no text (a NUL character, a lone surrogate) with -32602
 * and the path of each: PostgreSQL refuses NUL in text, and UTF-8 turns lone surrogates into U+FFFD,
 * so that `victim\ud800` would reach the cart `victim\ufffd`.
 */
function requireText(ctx: RpcContext | undefined, ...params: unknown[]): void {
  const refused = nonTextParamsError(params, ctx);
  if (refused !== undefined) throw refused;
}

/** The -32029 of a client that created its budget of carts in the current window. */
function tooManyNewCarts(limits: CheckoutLimits, retryAfterSeconds: number): RpcError {
  return new RpcError(
    ErrorCode.TooManyRequests,
    `Too many new carts: this client created ${limits.maxNewCartsPerClient} carts within ${limits.newCartWindowSeconds} s; ` +
      `add to one of them, or try again in ${retryAfterSeconds} s`,
    { retryAfterSeconds },
  );
}

/**
 * The checkout reference service (the behaviour rules in docs/playground.md),
 * plus the playground's rules for the errors the behaviour rules leave open; docs/playground.md lists them.
 *
 * Every change is one store transaction (see CheckoutStore), so concurrent calls, from one server
 * process or many, cannot lose items or sell an item twice; every id, quantity and cart is bounded
 * by the store's limits before it reaches the store, every string must be text, and each client
 * creates at most `maxNewCartsPerClient` carts per window (a budget in this process's memory).
 */
export function createCheckoutService(options: CheckoutServiceOptions = {}): CheckoutHandlers {
  const store = options.store ?? createMemoryStore();
  const { limits } = store;
  const budget = new ClientBudget(limits.maxNewCartsPerClient, limits.newCartWindowSeconds, unixSeconds);

  /**
   * Adds the item, creating the cart only within the client's budget of new carts: each call that
   * might create one takes one from the budget first (so concurrent calls, a batch of notifications
   * too, cannot all pass a check at once) and gives it back when it created none. A client whose
   * budget is spent still adds to carts that exist.
   */
  const addWithinBudget = async (ctx: RpcContext | undefined, cartId: string, isNew: boolean, productId: string, quantity: number) => {
    const client = clientOf(ctx?.remoteAddress);
    const reservation = budget.take(client);
    if (reservation === undefined && isNew) throw tooManyNewCarts(limits, budget.retryAfterSeconds(client));
    let outcome: AddItemOutcome | undefined;
    try {
      outcome = await store.addItem(cartId, productId, quantity, reservation !== undefined);
    } finally {
      if (reservation !== undefined && !(outcome?.kind === 'added' && outcome.created)) budget.giveBack(reservation);
    }
    if (outcome.kind === 'cartNotFound') throw tooManyNewCarts(limits, budget.retryAfterSeconds(client));
    return outcome;
  };

  /** Throws -32602 when an id is longer than any id the service keeps. */
  const checkIdLength = (ctx: RpcContext | undefined, field: string | undefined, id: string) => {
    if (id.length > limits.maxIdLength) throw invalidParam(ctx, field, `must be at most ${limits.maxIdLength} characters`);
  };

  const CatalogService: CatalogService = {
    async listProducts() {
      return store.listProducts();
    },
    async getProduct(productId, ctx) {
      requireText(ctx, productId);
      checkIdLength(ctx, undefined, productId);
      return (await store.getProduct(productId)) ?? null;
    },
  };

  const CartService: CartService = {
    async addToCart(request, ctx) {
      requireText(ctx, request);
      if (request.quantity < 1) throw invalidParam(ctx, 'quantity', 'must be at least 1');
      if (request.quantity > limits.maxQuantity) throw invalidParam(ctx, 'quantity', `must be at most ${limits.maxQuantity}`);
      const cartId = request.cartId ?? newId('cart');
      if (cartId.trim() === '') throw invalidParam(ctx, 'cartId', 'must not be empty');
      checkIdLength(ctx, 'cartId', cartId);
      checkIdLength(ctx, 'productId', request.productId);

      const isNew = request.cartId === undefined || request.cartId === null;
      const outcome = await addWithinBudget(ctx, cartId, isNew, request.productId, request.quantity);
      switch (outcome.kind) {
        case 'added':
          return outcome.cart;
        case 'productNotFound':
          throw new RpcError(-32602, 'Product not found');
        case 'cartFull':
          throw invalidParam(ctx, 'cartId', `the cart is full: at most ${limits.maxItemsPerCart} items`);
        case 'tooManyCarts':
          throw invalidParam(ctx, 'cartId', `no room for another cart (at most ${limits.maxCarts}); try again later`);
      }
    },

    async getCart(cartId, ctx) {
      requireText(ctx, cartId);
      checkIdLength(ctx, undefined, cartId);
      return (await store.getCart(cartId)) ?? null;
    },

    async clearCart(cartId, ctx) {
      requireText(ctx, cartId);
      checkIdLength(ctx, undefined, cartId);
      return store.clearCart(cartId);
    },
  };

  const OrderService: OrderService = {
    async createOrder(request, ctx) {
      requireText(ctx, request);
      const { cartId, paymentMethod } = request;
      checkIdLength(ctx, 'cartId', cartId);
      // Only the fields of Address are kept: anything else a client sends is neither stored nor echoed.
      const shippingAddress = addressFieldsOf(request.shippingAddress);
      const problems = addressProblems(shippingAddress, limits.maxAddressFieldLength);
      const declined = declineReason(shippingAddress, paymentMethod);

      /** The checks of docs/playground.md in their order, on the cart as the order transaction reads it. */
      const check = ({ cart, lastOrderId, shortages }: CheckoutState) => {
        if (cart === undefined) throw new CartNotFoundError(`cart "${cartId}" does not exist`);
        if (cart.items.length === 0) {
          // A client that retries a checkout whose answer it lost learns the order it already has.
          const retry = lastOrderId === undefined ? '' : `; its last checkout created order ${lastOrderId}`;
          throw new CartEmptyError(
            `cart "${cartId}" has no items${retry}`,
            lastOrderId === undefined ? undefined : { orderId: lastOrderId },
          );
        }
        if (problems.length > 0) {
          throw new InvalidAddressError(problems.map((problem) => problem.message).join('; '), { problems });
        }
        if (shortages.length > 0) {
          const detail = shortages.map((s) => `${s.name}: ${s.requested} in cart, ${s.available} in stock`).join('; ');
          throw new OutOfStockError(detail, { shortages });
        }
        if (declined !== undefined) throw new PaymentFailedError(declined);
      };

      const order = await store.placeOrder(
        { orderId: newId('order'), cartId, shippingAddress, paymentMethod, createdAt: Math.floor(Date.now() / 1000) },
        check,
      );
      return { orderId: order.orderId, message: confirmation(order) } satisfies CheckoutResponse;
    },

    async getOrder(orderId, ctx) {
      requireText(ctx, orderId);
      checkIdLength(ctx, undefined, orderId);
      return (await store.getOrder(orderId)) ?? null;
    },

    /**
     * The order now, then each change of its status until delivered (docs/playground.md,
     * "watchOrder"). Each state's event id is its status's ordinal, so that a client resuming with
     * `Last-Event-ID` gets only what it has not seen; an id this service did not issue gets the
     * current state.
     */
    async *watchOrder(orderId, ctx) {
      requireText(ctx, orderId);
      checkIdLength(ctx, undefined, orderId);
      const updates = orderUpdates(store, orderId, {
        lastEventId: ctx.lastEventId,
        signal: ctx.signal,
        notFound: (id) => new OrderNotFoundError(`order "${id}" does not exist`),
      });
      for await (const { order, eventId } of updates) yield streamEvent(order, eventId);
    },
  };

  return { CatalogService, CartService, OrderService };
}

/** The five fields of an Address, and nothing else the request carried. */
function addressFieldsOf(address: Address): Address {
  const { street, city, state, zipCode, country } = address;
  return { street, city, state, zipCode, country };
}

function confirmation(order: Order): string {
  const count = order.cart.items.reduce((sum, item) => sum + item.quantity, 0);
  const items = count === 1 ? '1 item' : `${count} items`;
  return `Thank you! Order ${order.orderId} for ${items} (total $${order.total.toFixed(2)}) is pending; it ships to ${order.shippingAddress.city}.`;
}

function unixSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

function newId(kind: 'cart' | 'order'): string {
  return `${kind}_${crypto.randomUUID().replaceAll('-', '').slice(0, 16)}`;
}
