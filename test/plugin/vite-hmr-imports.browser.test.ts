/**
 * HMR in a real browser (Chromium) on the Vite dev server for an `.idl` that imports another
 * (test/plugin/fixtures/imports: shop.idl imports shared.idl). Each server starts with one of the
 * two files broken, so the page's first load of shop.idl fails: fixing that file alone must clear
 * the overlay and show the page (Vite alone leaves the overlay until a manual reload), and a later
 * edit of the imported file alone must update the page.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { ViteDevServer } from 'vite';
import { afterAll, afterEach, beforeAll, expect, test, vi } from 'vitest';
import { chromiumMissing, launchChromium } from '../chromium.js';
import { startViteDevServer } from './harness/vite-dev.js';
import { copyFixture } from './harness/workspace.js';

// Builds and tools run in this file: generous limits for a busy 2-core CI machine (no timing is asserted).
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const missing = chromiumMissing();
let browser: Browser | undefined;
let server: ViteDevServer | undefined;

/** Polls generously: the first page load may wait for Vite's dependency scan. */
const poll = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 20_000, interval: 100 });

beforeAll(async () => {
  if (!missing) browser = await launchChromium();
});

afterEach(async () => {
  await server?.close();
  server = undefined;
});

afterAll(async () => {
  await browser?.close();
});

/**
 * A copy of the fixture with `fileName` broken (`broken` turns its text into a broken one), a dev
 * server on it and a page that showed the error overlay for it. Resolves with what the test needs.
 */
async function openBroken(name: string, fileName: string, broken: (text: string) => string) {
  const app = await copyFixture('imports', `vite-hmr-imports/${name}`);
  const file = path.join(app, fileName);
  const original = await readFile(file, 'utf8');
  await writeFile(file, broken(original));
  let base: string;
  ({ server, base } = await startViteDevServer(app));
  const page: Page = await browser!.newPage();
  await page.goto(`${base}/currencies.html`);
  const overlay = page.locator('vite-error-overlay');
  await poll(() => overlay.count()).toBe(1);
  return { app, file, original, page, overlay, currencies: page.locator('#currencies') };
}

test('an imported file that broke the first load: fixing it clears the overlay; an edit of it alone updates the page', async (context) => {
  if (missing) return context.skip(missing);
  const { file, original, overlay, currencies } = await openBroken('imported', 'shared.idl', (text) =>
    text.replace(/( {4}amount +)int\n/, '$1innt\n'),
  );
  const brokenLines = (await readFile(file, 'utf8')).split('\n');
  const line = brokenLines.findIndex((text) => text.endsWith('innt')) + 1;
  const column = brokenLines[line - 1].indexOf('innt') + 1;
  expect(await overlay.locator('.message').textContent()).toContain(`shared.idl:${line}:${column}`);
  expect(await overlay.locator('.frame').textContent()).toContain('amount    innt');

  await writeFile(file, original);
  await poll(() => overlay.count()).toBe(0);
  await poll(() => currencies.textContent()).toBe('EUR,USD');

  await writeFile(file, original.replace('    USD\n', '    USD\n    CHF\n'));
  await poll(() => currencies.textContent()).toBe('EUR,USD,CHF');
});

test('the importing file itself broke the first load: fixing it clears the overlay', async (context) => {
  if (missing) return context.skip(missing);
  const { file, original, overlay, currencies } = await openBroken('importer', 'shop.idl', (text) =>
    text.replace('interface OrderService {', 'interface OrderService {{'),
  );
  expect(await overlay.locator('.message').textContent()).toMatch(/shop\.idl:\d+:\d+/);

  await writeFile(file, original);
  await poll(() => overlay.count()).toBe(0);
  await poll(() => currencies.textContent()).toBe('EUR,USD');
});
