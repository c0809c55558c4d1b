import type { Cart, Order, Product } from '../checkout.idl';

/**
 * Where the checkout service keeps its data. Every method is async so that a database can sit
 * behind it; the service never holds on to returned objects and always writes changes back.
 *
 * The store itself needs no locking: the service serializes calls on one cart, and every change
 * of stock, itself (see KeyedLock).
 */
export interface CheckoutStore {
  listProducts(): Promise<Product[]>;
  getProduct(productId: string): Promise<Product | undefined>;
  saveProduct(product: Product): Promise<void>;
  getCart(cartId: string): Promise<Cart | undefined>;
  saveCart(cart: Cart): Promise<void>;
  getOrder(orderId: string): Promise<Order | undefined>;
  saveOrder(order: Order): Promise<void>;
}
