import type { Address, Cart, Order, PaymentMethod, Product } from '../checkout.idl';
import type { CheckoutLimits } from './limits.js';
import type { OrderChangeListener } from './order-changes.js';

/** What `addItem` did: the cart with the new line, or why nothing changed. */
export type AddItemOutcome =
  /** `created`: the cart was made by this call. */
  | { kind: 'added'; cart: Cart; created: boolean }
  /** No product with that id: no cart was created. */
  | { kind: 'productNotFound' }
  /** No cart with that id, and the call may not create one (`create` false). */
  | { kind: 'cartNotFound' }
  /** The cart already holds `maxItemsPerCart` lines. */
  | { kind: 'cartFull' }
  /** A new cart was needed, and `maxCarts` carts exist even after the expired ones went. */
  | { kind: 'tooManyCarts' };

/** One shortage found at checkout: the cart wants more of a product than is in stock. */
export interface Shortage {
  productId: string;
  name: string;
  requested: number;
  available: number;
}

/** What `placeOrder` shows its check, read inside the transaction that will place the order. */
export interface CheckoutState {
  /** The cart, or undefined when there is no cart with that id. */
  cart: Cart | undefined;
  /** The order the cart's last checkout created, if any (for a client that retries one). */
  lastOrderId: string | undefined;
  /** Every product whose summed quantity in the cart exceeds its stock. */
  shortages: Shortage[];
}

/** The order to create, minus what the cart gives (items and total). */
export interface OrderDraft {
  orderId: string;
  cartId: string;
  shippingAddress: Address;
  paymentMethod: PaymentMethod;
  /** Unix time in seconds. */
  createdAt: number;
}

/**
 * Where the checkout service keeps its data. Every method that changes something runs as one
 * transaction (in SQL, a database transaction; in memory, one synchronous step), so that calls
 * from many clients and many server processes cannot lose or duplicate a change, and costs the
 * same whatever the size of the cart it changes.
 */
export interface CheckoutStore {
  /** The bounds this store enforces (items per cart, number of carts) and the service checks (ids, quantity). */
  readonly limits: CheckoutLimits;
  listProducts(): Promise<Product[]>;
  getProduct(productId: string): Promise<Product | undefined>;
  /**
   * Appends one line `{productId, quantity, price}` (the product's current price) to the cart,
   * creating the cart when there is none with that id (unless `create` is false: then
   * `cartNotFound`), and returns the cart.
   */
  addItem(cartId: string, productId: string, quantity: number, create?: boolean): Promise<AddItemOutcome>;
  getCart(cartId: string): Promise<Cart | undefined>;
  /** Empties the cart; false when it does not exist. */
  clearCart(cartId: string): Promise<boolean>;
  /**
   * Reads the cart and its shortages, lets `check` refuse the order by throwing (then nothing
   * changes and the error comes out of placeOrder), and otherwise, in the same transaction, takes
   * the quantities from stock, stores the order (status `pending`, the cart's items, total =
   * subtotal) and empties the cart, remembering the order as the cart's last one. The store's
   * simulated fulfilment (fulfilment.ts) then moves the order on to delivered.
   */
  placeOrder(draft: OrderDraft, check: (state: CheckoutState) => void): Promise<Order>;
  getOrder(orderId: string): Promise<Order | undefined>;
  /**
   * Tells `listener` of every change of an order's status, made by any process that shares this
   * store's database, once it is committed (with undefined when changes may have been missed).
   * Resolves once listening, to the function that stops it: a change committed after that is told.
   */
  onOrderChange(listener: OrderChangeListener): Promise<() => void>;
  /**
   * Deletes the abandoned carts: untouched since `cartTtlSeconds` before `now` (Unix seconds), or
   * without items and untouched since `emptyCartTtlSeconds` before it; returns how many.
   */
  expireCarts(now: number): Promise<number>;
  /** Stops the fulfilment and releases what the store holds (connections, the data folder); the store is unusable afterwards. */
  close(): Promise<void>;
}
