import type { Cart, Order, Product } from '../checkout.idl';
import { catalog } from './catalog.js';
import { copyData } from './copy-data.js';
import type { CheckoutStore } from './store.js';

/**
 * The default store: three maps in memory, filled with the playground catalog (or the products
 * given). Values are copied in and out, as a database would, so a caller that changes a returned
 * object changes nothing until it saves it.
 */
export function createMemoryStore(products: readonly Product[] = catalog): CheckoutStore {
  const productsById = new Map(products.map((product) => [product.productId, copyData(product)]));
  const carts = new Map<string, Cart>();
  const orders = new Map<string, Order>();

  return {
    async listProducts() {
      return [...productsById.values()].map((product) => copyData(product));
    },
    async getProduct(productId) {
      return copyData(productsById.get(productId));
    },
    async saveProduct(product) {
      productsById.set(product.productId, copyData(product));
    },
    async getCart(cartId) {
      return copyData(carts.get(cartId));
    },
    async saveCart(cart) {
      carts.set(cart.cartId, copyData(cart));
    },
    async getOrder(orderId) {
      return copyData(orders.get(orderId));
    },
    async saveOrder(order) {
      orders.set(order.orderId, copyData(order));
    },
  };
}
