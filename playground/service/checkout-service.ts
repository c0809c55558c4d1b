import { RpcError, type RpcContext } from 'unplugin-idl-rpc/runtime';
import {
  CartEmptyError,
  CartNotFoundError,
  InvalidAddressError,
  OutOfStockError,
  PaymentFailedError,
  type Cart,
  type CartService,
  type CatalogService,
  type CheckoutHandlers,
  type CheckoutResponse,
  type Order,
  type OrderService,
} from '../checkout.idl';
import { addressProblems } from './address.js';
import { KeyedLock } from './keyed-lock.js';
import { createMemoryStore } from './memory-store.js';
import { roundToCents, subtotalOf } from './money.js';
import { declineReason } from './payment.js';
import type { CheckoutStore } from './store.js';

export interface CheckoutServiceOptions {
  /** Where products, carts and orders live; a fresh in-memory store with the playground catalog by default. */
  store?: CheckoutStore;
}

/**
 * A -32602 about a field of a method's one parameter, worded and located like the server's own
 * validation errors (`Invalid params: <path>: <problem>`, `data.errors`), the path in the caller's
 * style: `params[0].quantity` for positional params, `params.request.quantity` for named params and
 * the REST binding. Without a context (a handler called directly) the path is positional.
 */
function invalidRequestField(ctx: RpcContext | undefined, field: string, problem: string): RpcError {
  const path = ctx ? ctx.paramPath(0, field) : `params[0].${field}`;
  return new RpcError(-32602, `Invalid params: ${path}: ${problem}`, { errors: [{ path, message: problem }] });
}

/** One shortage found at checkout: the cart wants more of a product than is in stock. */
interface Shortage {
  productId: string;
  name: string;
  requested: number;
  available: number;
}

/**
 * The checkout reference service (the behaviour rules in docs/playground.md),
 * plus the playground's rules for the errors the behaviour rules leave open; docs/playground.md lists them.
 *
 * Calls on one cart run one at a time (addToCart, clearCart, createOrder), so concurrent calls
 * cannot lose items; checks and changes of stock run one at a time across all carts, so two orders
 * cannot both take the last item.
 */
export function createCheckoutService(options: CheckoutServiceOptions = {}): CheckoutHandlers {
  const store = options.store ?? createMemoryStore();
  const cartLock = new KeyedLock();
  const stockLock = new KeyedLock();

  const CatalogService: CatalogService = {
    async listProducts() {
      return store.listProducts();
    },
    async getProduct(productId) {
      return (await store.getProduct(productId)) ?? null;
    },
  };

  const CartService: CartService = {
    async addToCart(request, ctx) {
      if (request.quantity < 1) throw invalidRequestField(ctx, 'quantity', 'must be at least 1');
      const cartId = request.cartId ?? newId('cart');
      if (cartId.trim() === '') throw invalidRequestField(ctx, 'cartId', 'must not be empty');
      const product = await store.getProduct(request.productId);
      if (product === undefined) throw new RpcError(-32602, 'Product not found');

      return cartLock.run(cartId, async () => {
        const cart: Cart = (await store.getCart(cartId)) ?? { cartId, items: [], subtotal: 0 };
        cart.items.push({ productId: product.productId, quantity: request.quantity, price: product.price });
        cart.subtotal = subtotalOf(cart.items);
        await store.saveCart(cart);
        return cart;
      });
    },

    async getCart(cartId) {
      return (await store.getCart(cartId)) ?? null;
    },

    async clearCart(cartId) {
      return cartLock.run(cartId, async () => {
        const cart = await store.getCart(cartId);
        if (cart === undefined) return false;
        await store.saveCart({ ...cart, items: [], subtotal: 0 });
        return true;
      });
    },
  };

  const OrderService: OrderService = {
    async createOrder(request) {
      const { cartId, shippingAddress, paymentMethod } = request;
      return cartLock.run(cartId, async (): Promise<CheckoutResponse> => {
        const cart = await store.getCart(cartId);
        if (cart === undefined) throw new CartNotFoundError(`cart "${cartId}" does not exist`);
        if (cart.items.length === 0) throw new CartEmptyError(`cart "${cartId}" has no items`);

        const problems = addressProblems(shippingAddress);
        if (problems.length > 0) {
          throw new InvalidAddressError(problems.map((problem) => problem.message).join('; '), { problems });
        }

        return stockLock.run('stock', async () => {
          const shortages = await findShortages(cart);
          if (shortages.length > 0) {
            const detail = shortages.map((s) => `${s.name}: ${s.requested} in cart, ${s.available} in stock`).join('; ');
            throw new OutOfStockError(detail, { shortages });
          }
          const declined = declineReason(shippingAddress, paymentMethod);
          if (declined !== undefined) throw new PaymentFailedError(declined);

          await takeFromStock(cart);
          const order: Order = {
            orderId: newId('order'),
            cart,
            shippingAddress,
            paymentMethod,
            status: 'pending',
            total: roundToCents(cart.subtotal),
            createdAt: Math.floor(Date.now() / 1000),
          };
          await store.saveOrder(order);
          // The order keeps its own copy of the cart; the cart starts over, so a second checkout
          // of the same cart gives CartEmpty rather than a duplicate order.
          await store.saveCart({ ...cart, items: [], subtotal: 0 });
          return { orderId: order.orderId, message: confirmation(order) };
        });
      });
    },

    async getOrder(orderId) {
      return (await store.getOrder(orderId)) ?? null;
    },
  };

  /** Quantities are summed per product, because addToCart appends a line per call. */
  async function findShortages(cart: Cart): Promise<Shortage[]> {
    const shortages: Shortage[] = [];
    for (const [productId, requested] of quantitiesByProduct(cart)) {
      const product = await store.getProduct(productId);
      const available = product?.stock ?? 0;
      if (requested > available) {
        shortages.push({ productId, name: product?.name ?? productId, requested, available });
      }
    }
    return shortages;
  }

  async function takeFromStock(cart: Cart): Promise<void> {
    for (const [productId, quantity] of quantitiesByProduct(cart)) {
      const product = await store.getProduct(productId);
      if (product !== undefined) await store.saveProduct({ ...product, stock: product.stock - quantity });
    }
  }

  return { CatalogService, CartService, OrderService };
}

function quantitiesByProduct(cart: Cart): Map<string, number> {
  const quantities = new Map<string, number>();
  for (const item of cart.items) {
    quantities.set(item.productId, (quantities.get(item.productId) ?? 0) + item.quantity);
  }
  return quantities;
}

function confirmation(order: Order): string {
  const count = order.cart.items.reduce((sum, item) => sum + item.quantity, 0);
  const items = count === 1 ? '1 item' : `${count} items`;
  return `Thank you! Order ${order.orderId} for ${items} (total $${order.total.toFixed(2)}) is pending; it ships to ${order.shippingAddress.city}.`;
}

function newId(kind: 'cart' | 'order'): string {
  return `${kind}_${crypto.randomUUID().replaceAll('-', '').slice(0, 16)}`;
}
