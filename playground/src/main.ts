import { CartNotFoundError, type Address, type Cart, type Order, type PaymentMethod, type Product } from '../checkout.idl';
import { settle } from 'unplugin-idl-rpc/runtime/client';
import { cartService, orderService } from './api.js';
import { cardNoticeRegion, clearCardErrors, showCardNotice } from './card-notice.js';
import { byTestId, h } from './dom.js';
import { noCartYet, readableError, type ReadableError } from './error-messages.js';
import { formatMoney, formatUnixTime, stockLabel } from './format.js';
import { trackOrder } from './order-tracking.js';
import { catalogQueries, invalidateCatalog, queryClient } from './queries.js';

/** The cart id survives a reload, so the cart does too (as long as the server keeps running). */
const cartIdKey = 'idl-rpc-playground.cartId';

const state: { products: Product[]; cart: Cart | null } = { products: [], cart: null };

const grid = byTestId<HTMLUListElement>('product-grid');
const catalogStatus = byTestId('catalog-status');
const cartLines = byTestId<HTMLUListElement>('cart-lines');
const cartEmpty = byTestId('cart-empty');
const cartSubtotal = byTestId('cart-subtotal');
const clearButton = byTestId<HTMLButtonElement>('clear-cart');
const cartError = byTestId('cart-error');
const checkoutForm = byTestId<HTMLFormElement>('checkout-form');
const placeOrderButton = byTestId<HTMLButtonElement>('place-order');
const checkoutError = byTestId('checkout-error');
const confirmation = byTestId('order-confirmation');
const headerCart = byTestId('header-cart');
const orderStatus = byTestId('order-status');
const orderTracking = byTestId('order-tracking');
/** Stops the live status of the order shown, if any. */
let stopTracking = () => {};

// ---------------------------------------------------------------- catalog

async function loadProducts(): Promise<void> {
  try {
    state.products = await queryClient.fetchQuery(catalogQueries.listProducts.queryOptions());
    catalogStatus.hidden = true;
    renderProducts();
  } catch (error) {
    catalogStatus.textContent = readableError(error).title;
  }
}

function renderProducts(): void {
  grid.replaceChildren(...state.products.map(productCard));
}

function productCard(product: Product): HTMLLIElement {
  const quantity = h('input', {
    type: 'number',
    min: 1,
    max: 99,
    value: 1,
    'aria-label': `Quantity of ${product.name}`,
    'data-testid': 'quantity',
  });
  const add = h('button', { type: 'button', class: 'primary', 'data-testid': 'add-to-cart' }, 'Add to cart');
  const notices = cardNoticeRegion();
  add.addEventListener('click', () => {
    void addToCart(product, Math.max(1, Math.trunc(quantity.valueAsNumber || 1)), add, notices);
  });
  const stockClass = product.stock <= 0 ? 'stock out' : product.stock <= 3 ? 'stock low' : 'stock';
  return h(
    'li',
    { class: 'product-card', 'data-testid': 'product-card', 'data-product-id': product.productId },
    h(
      'div',
      { class: 'product-media' },
      h('img', { src: product.imageUrl ?? '/images/mug.svg', alt: '', loading: 'lazy', width: 240, height: 180 }),
      notices,
    ),
    h(
      'div',
      { class: 'product-body' },
      h('h3', {}, product.name),
      h('p', { class: 'description' }, product.description),
      h(
        'p',
        { class: 'price-row' },
        h('span', { class: 'price', 'data-testid': 'product-price' }, formatMoney(product.price)),
        h('span', { class: stockClass }, stockLabel(product.stock)),
      ),
      h('div', { class: 'add-row' }, quantity, add),
    ),
  );
}

// ---------------------------------------------------------------- cart

async function addToCart(product: Product, quantity: number, button: HTMLButtonElement, notices: HTMLElement): Promise<void> {
  button.disabled = true;
  try {
    const cartId = state.cart?.cartId ?? localStorage.getItem(cartIdKey) ?? undefined;
    const cart = await cartService.addToCart({ cartId, productId: product.productId, quantity });
    setCart(cart);
    showCardNotice(notices, `Added ${quantity} × ${product.name}`);
  } catch (error) {
    showCardNotice(notices, readableError(error).title, true);
  } finally {
    button.disabled = false;
  }
}

async function loadCart(): Promise<void> {
  const cartId = localStorage.getItem(cartIdKey);
  if (cartId === null) return renderCart();
  try {
    setCart(await cartService.getCart(cartId));
  } catch (error) {
    showError(cartError, readableError(error));
  }
}

/** Sets the cart the page shows. The cart changed, so errors about earlier actions are stale: they go. */
function setCart(cart: Cart | null): void {
  checkoutError.hidden = true;
  cartError.hidden = true;
  clearCardErrors(grid);
  state.cart = cart;
  if (cart === null) localStorage.removeItem(cartIdKey);
  else localStorage.setItem(cartIdKey, cart.cartId);
  renderCart();
}

/** addToCart appends a line per call; the page shows one line per product. */
function renderCart(): void {
  const items = state.cart?.items ?? [];
  const lines = new Map<string, { quantity: number; amount: number }>();
  for (const item of items) {
    const line = lines.get(item.productId) ?? { quantity: 0, amount: 0 };
    line.quantity += item.quantity;
    line.amount += item.price * item.quantity;
    lines.set(item.productId, line);
  }
  cartLines.replaceChildren(
    ...[...lines].map(([productId, line]) => {
      const name = productName(productId);
      return h(
        'li',
        { class: 'cart-line', 'data-testid': 'cart-line', 'data-product-id': productId },
        h('span', { class: 'line-quantity', 'data-testid': 'cart-line-quantity' }, `${line.quantity} ×`),
        h('span', { class: 'line-name' }, name),
        h('span', { class: 'line-amount' }, formatMoney(line.amount)),
      );
    }),
  );
  cartEmpty.hidden = items.length > 0;
  clearButton.hidden = items.length === 0;
  cartSubtotal.textContent = formatMoney(state.cart?.subtotal ?? 0);
  const count = items.reduce((sum, item) => sum + item.quantity, 0);
  headerCart.textContent = count === 0 ? 'Cart' : `Cart (${count}) · ${cartSubtotal.textContent}`;
}

function productName(productId: string): string {
  return state.products.find((p) => p.productId === productId)?.name ?? productId;
}

async function clearCart(): Promise<void> {
  if (state.cart === null) return;
  try {
    await cartService.clearCart(state.cart.cartId);
    setCart(await cartService.getCart(state.cart.cartId));
  } catch (error) {
    showError(cartError, readableError(error));
  }
}

// ---------------------------------------------------------------- checkout

async function placeOrder(): Promise<void> {
  const form = new FormData(checkoutForm);
  const field = (name: string) => String(form.get(name) ?? '');
  const shippingAddress: Address = {
    street: field('street'),
    city: field('city'),
    state: field('state'),
    zipCode: field('zipCode'),
    country: field('country'),
  };
  // A new attempt: the card of an earlier order goes, so that a failure is not shown beside "Order placed".
  confirmation.hidden = true;
  stopTracking();
  const cartId = state.cart?.cartId ?? localStorage.getItem(cartIdKey);
  // Nothing added yet, so no cart id to send (a made-up one would get CartNotFound): the cart is
  // empty, and the page says so as it does for the server's CartEmpty.
  if (cartId === null) return showError(checkoutError, noCartYet);
  placeOrderButton.disabled = true;
  checkoutError.hidden = true;
  try {
    const response = await orderService.createOrder({
      cartId,
      shippingAddress,
      paymentMethod: field('paymentMethod') as PaymentMethod,
    });
    const order = await orderService.getOrder(response.orderId);
    if (order !== null) showOrder(order, response.message ?? '');
    // The order took items from stock: the cached catalog is stale.
    await invalidateCatalog();
    await Promise.all([loadCart(), loadProducts()]);
  } catch (error) {
    if (error instanceof CartNotFoundError) setCart(null); // forget the stale id; the next add starts a cart
    showError(checkoutError, readableError(error));
  } finally {
    placeOrderButton.disabled = false;
  }
}

function showOrder(order: Order, message: string): void {
  byTestId('order-message', confirmation).textContent = message;
  byTestId('order-id', confirmation).textContent = order.orderId;
  showStatus(order.status);
  byTestId('order-total', confirmation).textContent = formatMoney(order.total);
  byTestId('order-created', confirmation).textContent = formatUnixTime(order.createdAt);
  byTestId('order-items', confirmation).replaceChildren(
    ...order.cart.items.map((item) => h('li', {}, `${item.quantity} × ${productName(item.productId)} (${formatMoney(item.price)})`)),
  );
  confirmation.hidden = false;
  // The status changes as the order is fulfilled: the badge follows it live.
  stopTracking = trackOrder(order.orderId, {
    status: showStatus,
    note: (text) => {
      orderTracking.textContent = text;
    },
  });
}

function showStatus(status: Order['status']): void {
  orderStatus.textContent = status;
  orderStatus.className = `badge ${status}`;
}

/** Shows the error in an error region of a panel (checkout or cart); it stays until the cart changes. */
function showError(region: HTMLElement, error: ReadableError): void {
  region.replaceChildren(
    h('strong', {}, error.title),
    ...(error.detail ? [h('span', { class: 'detail' }, error.detail)] : []),
    h('code', { class: 'wire' }, error.wire),
  );
  region.hidden = false;
}

// ---------------------------------------------------------------- start

clearButton.addEventListener('click', () => void clearCart());
checkoutForm.addEventListener('submit', (event) => {
  event.preventDefault();
  void placeOrder();
});
/**
 * Loads the catalog and the saved cart. Both calls leave in the same tick, so the batching
 * transport sends them as one request; the products render first, since cart lines show their names.
 */
async function start(): Promise<void> {
  const cartId = localStorage.getItem(cartIdKey);
  const cart = cartId === null ? undefined : settle(cartService.getCart(cartId));
  await loadProducts();
  if (cart === undefined) return renderCart();
  const outcome = await cart;
  if (outcome.ok) setCart(outcome.value);
  else showError(cartError, readableError(outcome.error));
}

void start();
