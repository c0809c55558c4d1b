/**
 * HMR in a real browser (Chromium) on the Vite dev server: an edit to the .idl updates the page
 * that imports it; a syntax error shows in Vite's error overlay with file:line:column and the code
 * frame, and fixing the file clears the overlay.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { ViteDevServer } from 'vite';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { chromiumMissing, launchChromium } from '../chromium.js';
import { startViteDevServer } from './harness/vite-dev.js';
import { copyFixtureApp, withBrokenEnumLine } from './harness/workspace.js';

// Builds and tools run in this file: generous limits for a busy 2-core CI machine (no timing is asserted).
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const missing = chromiumMissing();
let app: string;
let idlFile: string;
let originalIdl: string;
let server: ViteDevServer | undefined;
let browser: Browser | undefined;
let page: Page | undefined;
let url: string;

/** Polls generously: the first page load may wait for Vite's dependency scan. */
const poll = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 20_000, interval: 100 });

beforeAll(async () => {
  if (missing) return;
  app = await copyFixtureApp('vite-hmr/app');
  idlFile = path.join(app, 'checkout.idl');
  originalIdl = await readFile(idlFile, 'utf8');
  let base: string;
  ({ server, base } = await startViteDevServer(app));
  url = `${base}/hmr.html`;
  browser = await launchChromium();
  page = await browser.newPage();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

test('an .idl edit updates the page; a syntax error shows in the overlay and fixing it clears it', async (context) => {
  if (missing) return context.skip(missing);
  const statuses = page!.locator('#statuses');
  await page!.goto(url);
  await poll(() => statuses.textContent()).toBe('pending,paid,shipped,delivered,cancelled');

  await writeFile(idlFile, originalIdl.replace('    cancelled\n', '    cancelled\n    refunded\n'));
  await poll(() => statuses.textContent()).toBe('pending,paid,shipped,delivered,cancelled,refunded');

  const { text: broken, line, column } = withBrokenEnumLine(originalIdl);
  await writeFile(idlFile, broken);
  const overlay = page!.locator('vite-error-overlay');
  await poll(() => overlay.count()).toBe(1);
  const message = await overlay.locator('.message').textContent();
  expect(message).toContain(`checkout.idl:${line}:${column}`);
  const frame = (await overlay.locator('.frame').textContent()) ?? '';
  expect(frame).toContain('enum PaymentMethod {{');
  // The location under the message names the same column as the message.
  expect(await overlay.locator('.file').textContent()).toMatch(new RegExp(`checkout\\.idl:${line}:${column}$`));
  // Every line of the frame keeps its gutter: the first one too (the overlay trims the frame).
  const frameLines = frame.split('\n');
  expect(frameLines.length).toBeGreaterThan(2);
  expect(new Set(frameLines.map((text) => text.indexOf('|'))).size).toBe(1);

  await writeFile(idlFile, originalIdl);
  await poll(() => overlay.count()).toBe(0);
  await poll(() => statuses.textContent()).toBe('pending,paid,shipped,delivered,cancelled');
});
