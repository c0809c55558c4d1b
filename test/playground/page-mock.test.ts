/**
 * The playground page in Chromium against the plugin's mock mode, with no handlers at all: the Vite
 * dev server answers every call with mock values (docs/mock.md), and the page lists products, fills
 * a cart, places an order and shows a declared error the `x-idlrpc-mock-error` header asks for.
 */
import type { Browser, Page } from 'playwright-core';
import { createServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import idlRpc from '../../src/plugin/vite.js';
import { chromiumMissing, launchChromium } from '../chromium.js';
import { freePort, playgroundRoot } from './harness.js';

const missing = chromiumMissing();

let vite: ViteDevServer | undefined;
let url = '';
let browser: Browser | undefined;

beforeAll(async () => {
  if (missing) return;
  const port = await freePort();
  vite = await createServer({
    configFile: false,
    root: playgroundRoot,
    logLevel: 'warn',
    server: { host: '127.0.0.1', port, strictPort: true, watch: null },
    plugins: [idlRpc({ server: { idl: 'checkout.idl' }, mock: true, mockSeed: 'page' })],
  });
  await vite.listen();
  url = `http://127.0.0.1:${port}/`;
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await vite?.close();
});

/** Polls until the value matches; generous, because the first page load may wait for Vite's dependency optimizer. */
const poll = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 20_000 });
const byTestId = (page: Page, id: string) => page.locator(`[data-testid="${id}"]`);

describe('the playground page in mock mode, without handlers', () => {
  it('lists mock products, adds one to a mock cart, places an order, and shows the error a request asks for', async (context) => {
    if (missing) return context.skip(missing);
    const page = await browser!.newPage({ viewport: { width: 1280, height: 900 } });
    try {
      const failures: string[] = [];
      page.on('pageerror', (error) => failures.push(error.message));
      await page.goto(url);
      await poll(() => byTestId(page, 'product-card').count()).toBeGreaterThanOrEqual(2);
      const names = await byTestId(page, 'product-card').locator('h3').allTextContents();
      expect(names.every((name) => /^[A-Z][a-z]+ [A-Z][a-z]+$/.test(name.trim()))).toBe(true);

      await byTestId(page, 'add-to-cart').first().click();
      await poll(() => byTestId(page, 'cart-line').count()).toBeGreaterThan(0);

      await byTestId(page, 'place-order').click();
      await byTestId(page, 'order-confirmation').waitFor({ state: 'visible' });
      expect(await byTestId(page, 'order-id').textContent()).toMatch(/^order_\d+$/);

      // Every call of a request carrying the header answers the declared error it names.
      await page.setExtraHTTPHeaders({ 'x-idlrpc-mock-error': 'OutOfStock' });
      await byTestId(page, 'place-order').click();
      await poll(() => byTestId(page, 'checkout-error').locator('.wire').textContent()).toBe('OutOfStock (1004)');
      expect(failures).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
