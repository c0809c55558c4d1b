/**
 * The playground page in Chromium, served by Vite's dev server with the playground config: the
 * page, `/rpc` and `/openapi.json` all come from the plugin, as with `npm run playground`.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import type { ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMoney } from '../../playground/src/format.js';
import { catalog } from '../../playground/service/catalog.js';
import { chromiumMissing, launchChromium } from '../chromium.js';
import { playgroundDevServer, repositoryRoot } from './harness.js';

const screenshots = path.join(repositoryRoot, 'test-output');
const missing = chromiumMissing();

let vite: ViteDevServer | undefined;
let url = '';
let browser: Browser | undefined;

beforeAll(async () => {
  if (missing) return;
  ({ vite, url } = await playgroundDevServer());
  browser = await launchChromium();
  await mkdir(screenshots, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await vite?.close();
});

/** Polls until the value matches; generous, because the first page load may wait for Vite's dependency optimizer. */
const poll = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 20_000 });
const byTestId = (page: Page, id: string) => page.locator(`[data-testid="${id}"]`);
const productCard = (page: Page, productId: string) => page.locator(`[data-testid="product-card"][data-product-id="${productId}"]`);

/** The methods of one JSON-RPC request body: one call, or each member of a batch. */
const methodsOf = (body: unknown): string[] => (Array.isArray(body) ? body : [body]).map((call) => (call as { method: string }).method);

/** The JSON-RPC methods the page calls, in order. */
function recordRpcMethods(page: Page): string[] {
  const methods: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname !== '/rpc') return;
    methods.push(...methodsOf(request.postDataJSON()));
  });
  return methods;
}

/** The `/rpc` requests the page sends, each as the list of methods it carries. */
function recordRpcRequests(page: Page): string[][] {
  const requests: string[][] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/rpc') requests.push(methodsOf(request.postDataJSON()));
  });
  return requests;
}

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

const cardControls = { 'price row': '.price-row', quantity: '[data-testid="quantity"]', 'add button': '[data-testid="add-to-cart"]' };

/**
 * What of the cards' price rows and add controls the element covers (e.g. `kettle price row`),
 * compared in viewport coordinates, where a fixed toast lives too; empty when it covers none.
 */
async function coveredControls(page: Page, element: Locator): Promise<string[]> {
  const box = await element.boundingBox();
  expect(box).not.toBeNull();
  const covered: string[] = [];
  for (const card of await byTestId(page, 'product-card').all()) {
    const productId = await card.getAttribute('data-product-id');
    for (const [name, selector] of Object.entries(cardControls)) {
      const target = await card.locator(selector).boundingBox();
      if (target !== null && overlaps(box!, target)) covered.push(`${productId} ${name}`);
    }
  }
  return covered;
}

describe('the playground page', () => {
  it('explains an empty cart on a fresh page, adds two products, checks out a pending order; errors go when the cart changes', async (context) => {
    if (missing) return context.skip(missing);
    const page = await browser!.newPage({ viewport: { width: 1280, height: 900 } });
    try {
      const methods = recordRpcMethods(page);
      await page.goto(url);
      await poll(() => byTestId(page, 'product-card').count()).toBe(catalog.length);
      const error = byTestId(page, 'checkout-error');

      // A fresh page has no cart yet: Place order explains the empty cart, as the page's text promises,
      // and sends nothing (there is no cart id to send).
      await byTestId(page, 'place-order').click();
      await error.waitFor({ state: 'visible' });
      expect(await error.textContent()).toContain('Your cart is empty');
      expect(await error.textContent()).not.toContain('CartNotFound');
      expect(await error.locator('.wire').textContent()).toBe('not sent: no cart yet');
      expect(methods).not.toContain('OrderService.createOrder');
      await page.screenshot({ path: path.join(screenshots, 'playground-fresh-place-order.png') });

      // Adding a product changes the cart: the message about the earlier Place order goes.
      const [first, second] = [catalog[0], catalog[1]];
      await productCard(page, first.productId).locator('[data-testid="add-to-cart"]').click();
      await poll(() => byTestId(page, 'cart-line').count()).toBe(1);
      await poll(() => error.isVisible()).toBe(false);

      // The "added" notice covers no card's price or add controls.
      const added = page.getByText(`Added 1 × ${first.name}`);
      await added.waitFor({ state: 'visible' });
      expect(await coveredControls(page, added)).toEqual([]);
      await page.screenshot({ path: path.join(screenshots, 'playground-added.png') });
      await productCard(page, second.productId).locator('[data-testid="quantity"]').fill('2');
      await productCard(page, second.productId).locator('[data-testid="add-to-cart"]').click();
      await poll(() => byTestId(page, 'cart-line').count()).toBe(2);

      const subtotal = formatMoney(first.price + 2 * second.price);
      expect(await byTestId(page, 'cart-subtotal').textContent()).toBe(subtotal);
      expect(await byTestId(page, 'cart-line-quantity').allTextContents()).toEqual(['1 ×', '2 ×']);

      await byTestId(page, 'place-order').click();
      await byTestId(page, 'order-confirmation').waitFor({ state: 'visible' });
      expect(await byTestId(page, 'order-status').textContent()).toBe('pending');
      expect(await byTestId(page, 'order-total').textContent()).toBe(subtotal);
      expect(await byTestId(page, 'order-message').textContent()).toContain(await byTestId(page, 'order-id').textContent());
      // The order empties the cart and takes the items from stock.
      await poll(() => byTestId(page, 'cart-subtotal').textContent()).toBe(formatMoney(0));
      await page.screenshot({ path: path.join(screenshots, 'playground-order.png'), fullPage: true });

      // The cart is empty now: checking out again shows the CartEmpty message, in place of the
      // "Order placed" card of the earlier order (not beside it).
      await byTestId(page, 'place-order').click();
      await error.waitFor({ state: 'visible' });
      expect(await error.textContent()).toContain('Your cart is empty');
      expect(await error.locator('.wire').textContent()).toBe('CartEmpty (1002)');
      expect(await byTestId(page, 'order-confirmation').isVisible()).toBe(false);
      await page.screenshot({ path: path.join(screenshots, 'playground-cart-empty.png'), fullPage: true });

      // Adding a product hides it; an InvalidAddress message goes when the cart is cleared.
      await productCard(page, first.productId).locator('[data-testid="add-to-cart"]').click();
      await poll(() => byTestId(page, 'cart-line').count()).toBe(1);
      await poll(() => error.isVisible()).toBe(false);
      await byTestId(page, 'address-zip').fill('9');
      await byTestId(page, 'place-order').click();
      await poll(() => error.locator('.wire').textContent()).toBe('InvalidAddress (1005)');
      await byTestId(page, 'clear-cart').click();
      await poll(() => byTestId(page, 'cart-line').count()).toBe(0);
      await poll(() => error.isVisible()).toBe(false);
      await page.screenshot({ path: path.join(screenshots, 'playground-cleared.png') });
    } finally {
      await page.close();
    }
  });

  it('explains OutOfStock and an unknown cart on a phone-sized screen; the OpenAPI link serves the document', async (context) => {
    if (missing) return context.skip(missing);
    const page = await browser!.newPage({ viewport: { width: 420, height: 900 } });
    try {
      await page.goto(url);
      await poll(() => byTestId(page, 'product-card').count()).toBe(catalog.length);
      await page.screenshot({ path: path.join(screenshots, 'playground-mobile-top.png') });
      const scarce = catalog.find((p) => p.productId === 'moka-pot')!;
      const card = productCard(page, scarce.productId);
      await card.locator('[data-testid="quantity"]').fill(String(scarce.stock + 1));
      await card.locator('[data-testid="add-to-cart"]').click();
      await poll(() => byTestId(page, 'cart-line').count()).toBe(1);
      const added = page.getByText(`Added ${scarce.stock + 1} × ${scarce.name}`);
      await added.waitFor({ state: 'visible' });
      expect(await coveredControls(page, added)).toEqual([]);
      await page.screenshot({ path: path.join(screenshots, 'playground-mobile-added.png') });

      await byTestId(page, 'place-order').click();
      const error = byTestId(page, 'checkout-error');
      await error.waitFor({ state: 'visible' });
      expect(await error.textContent()).toContain('not have enough in stock');
      expect(await error.textContent()).toContain(`${scarce.name}: ${scarce.stock + 1} in cart, ${scarce.stock} in stock`);
      await page.locator('.sidebar').screenshot({ path: path.join(screenshots, 'playground-mobile-out-of-stock.png') });

      // A cart id the server does not know, as after a server restart: the CartNotFound message.
      const forgetfulCart = () => localStorage.setItem('idl-rpc-playground.cartId', 'cart-the-server-forgot');
      await page.evaluate(forgetfulCart);
      await page.reload();
      // On load the page asks for its cart, gets null and drops the id ...
      await poll(() => page.evaluate(() => localStorage.getItem('idl-rpc-playground.cartId'))).toBeNull();
      // ... so put it back, as if the server had forgotten the cart while the page was open.
      await page.evaluate(forgetfulCart);
      await byTestId(page, 'place-order').click();
      await poll(() => error.locator('.wire').textContent()).toBe('CartNotFound (1001)');
      expect(await error.textContent()).toContain('does not know this cart');

      const href = await byTestId(page, 'openapi-link').getAttribute('href');
      const response = await page.request.get(new URL(href!, url).href);
      expect(response.status()).toBe(200);
      const document = (await response.json()) as { openapi: string; paths: Record<string, unknown> };
      expect(document.openapi).toMatch(/^3\./);
      expect(Object.keys(document.paths)).toContain('/CartService/addToCart');
    } finally {
      await page.close();
    }
  });

  it('sends the calls it makes together as one batched request', async (context) => {
    if (missing) return context.skip(missing);
    const page = await browser!.newPage({ viewport: { width: 1280, height: 900 } });
    try {
      await page.goto(url);
      await poll(() => byTestId(page, 'product-card').count()).toBe(catalog.length);
      await productCard(page, catalog[0].productId).locator('[data-testid="add-to-cart"]').click();
      await poll(() => byTestId(page, 'cart-line').count()).toBe(1);

      // A reload loads the saved cart and the catalog at once: one request carries both.
      const requests = recordRpcRequests(page);
      await page.reload();
      await poll(() => byTestId(page, 'cart-line').count()).toBe(1);
      expect(await byTestId(page, 'cart-line').textContent()).toContain(catalog[0].name);
      expect(requests).toEqual([['CartService.getCart', 'CatalogService.listProducts']]);

      // After an order the page reloads the cart and the stock together: again one request. The
      // order's live status is a stream, which goes alone.
      await byTestId(page, 'place-order').click();
      await byTestId(page, 'order-confirmation').waitFor({ state: 'visible' });
      await poll(async () => requests.length).toBe(5);
      const watch = ['OrderService.watchOrder'];
      expect(requests).toContainEqual(watch);
      expect(requests.slice(1).filter((methods) => methods.join() !== watch.join())).toEqual([
        ['OrderService.createOrder'],
        ['OrderService.getOrder'],
        ['CartService.getCart', 'CatalogService.listProducts'],
      ]);
    } finally {
      await page.close();
    }
  });

  it('shows a failed add on its card and a failed clear in the cart; both go when the cart changes', async (context) => {
    if (missing) return context.skip(missing);
    const page = await browser!.newPage({ viewport: { width: 1280, height: 900 } });
    // The network drops the next call of the method named here, as a dead server would.
    let dropNext: string | undefined;
    await page.route('**/rpc', async (route) => {
      if (!methodsOf(route.request().postDataJSON()).includes(dropNext ?? '')) return route.continue();
      dropNext = undefined;
      return route.abort('connectionrefused');
    });
    try {
      await page.goto(url);
      await poll(() => byTestId(page, 'product-card').count()).toBe(catalog.length);
      const [first, second] = [catalog[0], catalog[1]];
      const unreachable = 'Cannot reach the checkout service';

      dropNext = 'CartService.addToCart';
      await productCard(page, first.productId).locator('[data-testid="add-to-cart"]').click();
      const cardError = productCard(page, first.productId).locator('[data-testid="card-notice"]');
      await poll(() => cardError.textContent()).toContain(unreachable);
      expect(await coveredControls(page, cardError)).toEqual([]);
      await page.screenshot({ path: path.join(screenshots, 'playground-add-failed.png') });

      await productCard(page, second.productId).locator('[data-testid="add-to-cart"]').click();
      await poll(() => byTestId(page, 'cart-line').count()).toBe(1);
      await poll(() => cardError.count()).toBe(0);

      dropNext = 'CartService.clearCart';
      await byTestId(page, 'clear-cart').click();
      const cartError = byTestId(page, 'cart-error');
      await poll(() => cartError.textContent()).toContain(unreachable);
      expect(await byTestId(page, 'cart-line').count()).toBe(1);
      await page.locator('.sidebar').screenshot({ path: path.join(screenshots, 'playground-clear-failed.png') });

      await byTestId(page, 'clear-cart').click();
      await poll(() => byTestId(page, 'cart-line').count()).toBe(0);
      await poll(() => cartError.isVisible()).toBe(false);
    } finally {
      await page.close();
    }
  });
});
