import type { Cart, Order, Product } from '../checkout.idl';
import { catalog } from './catalog.js';
import type { CheckoutStore } from './store.js';

/**
 * The default store: three maps in memory, filled with the playground catalog (or the products
 * given). Values are copied in and out, as a database would, so a caller that changes a returned
 * object changes nothing until it saves it.
 */
export function createMemoryStore(products: readonly Product[] = catalog): CheckoutStore {
  const productsById = new Map(products.map((product) => [product.productId, structuredClone(product)]));
  const carts = new Map<string, Cart>();
  const orders = new Map<string, Order>();

  return {
    async listProducts() {
      return [...productsById.values()].map((product) => structuredClone(product));
    },
    async getProduct(productId) {
      return copyOf(productsById.get(productId));
    },
    async saveProduct(product) {
      productsById.set(product.productId, structuredClone(product));
    },
    async getCart(cartId) {
      return copyOf(carts.get(cartId));
    },
    async saveCart(cart) {
      carts.set(cart.cartId, structuredClone(cart));
    },
    async getOrder(orderId) {
      return copyOf(orders.get(orderId));
    },
    async saveOrder(order) {
      orders.set(order.orderId, structuredClone(order));
    },
  };
}

function copyOf<T>(value: T | undefined): T | undefined {
  return value === undefined ? undefined : structuredClone(value);
}
