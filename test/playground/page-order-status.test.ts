/**
 * The playground page in Chromium shows an order's status live (OrderService.watchOrder, a stream
 * through the generated client): pending, then each step of the fulfilment, to delivered, without
 * a reload; and it goes on after the dev server stops and starts again on the same port while the
 * order is on its way (the client reconnects with Last-Event-ID). The fulfilment takes a step every
 * 1.5 s here. Without Chromium it is skipped with the reason, except in CI, where it fails.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { createServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalog } from '../../playground/service/catalog.js';
import { chromiumMissing, launchChromium } from '../chromium.js';
import { freePort, playgroundConfig, repositoryRoot } from './harness.js';

// Read by the handler module when the dev server first loads it, after this line.
process.env.PLAYGROUND_FULFILMENT_STEP_MS = '1500';

const screenshots = path.join(repositoryRoot, 'test-output');
const missing = chromiumMissing();

let vite: ViteDevServer | undefined;
let port = 0;
let url = '';
let browser: Browser | undefined;

/**
 * The playground's dev server on `port`, without HMR: Vite's own client would reload the page when
 * its server comes back after a restart, and the test is about the page's stream going on.
 */
async function startDevServer(): Promise<ViteDevServer> {
  const server = await createServer({
    configFile: playgroundConfig,
    logLevel: 'warn',
    server: { host: '127.0.0.1', port, strictPort: true, watch: null, hmr: false, ws: false },
  });
  await server.listen();
  return server;
}

beforeAll(async () => {
  if (missing) return;
  port = await freePort();
  url = `http://127.0.0.1:${port}/`;
  vite = await startDevServer();
  browser = await launchChromium();
  await mkdir(screenshots, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await vite?.close();
});

const poll = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 30_000 });
const byTestId = (page: Page, id: string) => page.locator(`[data-testid="${id}"]`);

/** Records every status the badge shows, in the page, as it changes. */
async function recordStatuses(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const badge = document.querySelector('[data-testid="order-status"]')!;
    const seen: string[] = [];
    (window as unknown as { statuses: string[] }).statuses = seen;
    new MutationObserver(() => {
      const status = badge.textContent ?? '';
      if (status !== '' && seen.at(-1) !== status) seen.push(status);
    }).observe(badge, { childList: true, characterData: true, subtree: true });
  });
  return () => page.evaluate(() => [...(window as unknown as { statuses: string[] }).statuses]);
}

/** Adds a product and places the order with the form's sample address. */
async function placeOrder(page: Page): Promise<void> {
  await poll(() => byTestId(page, 'product-card').count()).toBe(catalog.length);
  await byTestId(page, 'add-to-cart').first().click();
  await poll(() => byTestId(page, 'cart-line').count()).toBe(1);
  await byTestId(page, 'place-order').click();
  await byTestId(page, 'order-confirmation').waitFor({ state: 'visible' });
}

describe('the live order status', () => {
  it('changes from pending to delivered on the page as the order is fulfilled', { timeout: 60_000 }, async (context) => {
    if (missing) return context.skip(missing);
    const page = await browser!.newPage({ viewport: { width: 1280, height: 900 } });
    try {
      await page.goto(url);
      const statuses = await recordStatuses(page);
      await placeOrder(page);
      await poll(() => byTestId(page, 'order-status').textContent()).toBe('delivered');
      expect(await statuses()).toEqual(['pending', 'paid', 'shipped', 'delivered']);
      expect(await byTestId(page, 'order-tracking').textContent()).toBe('Delivered: nothing more will change.');
      await page.screenshot({ path: path.join(screenshots, 'playground-order-delivered.png'), fullPage: true });
    } finally {
      await page.close();
    }
  });

  it('goes on after the dev server restarts while the order is on its way', { timeout: 90_000 }, async (context) => {
    if (missing) return context.skip(missing);
    const page = await browser!.newPage({ viewport: { width: 1280, height: 900 } });
    try {
      // The connections that reached a server, with the headers sent: while the server is away, a
      // refused attempt shows Chromium's provisional headers only (no Last-Event-ID).
      const streams: { lastEventId: string | null }[] = [];
      const headersRead: Promise<void>[] = [];
      page.on('response', (response) => {
        const request = response.request();
        if (!request.postData()?.includes('OrderService.watchOrder')) return;
        const entry: { lastEventId: string | null } = { lastEventId: null };
        streams.push(entry);
        headersRead.push(request.allHeaders().then((headers) => void (entry.lastEventId = headers['last-event-id'] ?? null)));
      });
      await page.goto(url);
      const statuses = await recordStatuses(page);
      await placeOrder(page);
      await poll(() => byTestId(page, 'order-status').textContent()).toBe('pending');

      // The dev server goes away mid-stream, and comes back on the same port (the orders are in
      // this process's database, which outlives the server, as a data folder outlives a process).
      await vite!.close();
      vite = await startDevServer();

      await poll(() => byTestId(page, 'order-status').textContent()).toBe('delivered');
      const seen = await statuses();
      expect(seen.at(-1)).toBe('delivered');
      expect(seen).toEqual([...new Set(seen)]);
      // Resumed: a second connection, carrying the id of the last state the page had.
      await Promise.all(headersRead);
      expect(streams.length).toBeGreaterThan(1);
      expect(streams[0].lastEventId).toBeNull();
      expect(streams.slice(1).every((stream) => /^[1-4]$/.test(stream.lastEventId ?? ''))).toBe(true);
    } finally {
      await page.close();
    }
  });
});
