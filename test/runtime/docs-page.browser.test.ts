/**
 * The API reference page's IDL view in Debian's Chromium: a line longer than the pane, of words or
 * one long name, is all in view (it wraps), none of it cut off at the pane's edge. The rest of the
 * page in a browser: test/playground/docs-page.test.ts.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createDocsPage } from '../../runtime/docs-page/index.js';
import { chromiumMissing, launchChromium } from '../chromium.js';
import { startServer, type TestServer } from './helpers.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const missing = chromiumMissing();
const longComment = `// ${'a comment that goes on '.repeat(12)}to its END`;
const longName = `    ${'x'.repeat(300)}Z  string`;
const idlSource = `namespace checkout\n\n${longComment}\nstruct Wide {\n${longName}\n}\n`;

let server: TestServer | undefined;
let browser: Browser | undefined;

beforeAll(async () => {
  if (missing) return;
  server = await startServer({ listen: { docsPage: createDocsPage({ title: 'Wide IDL', idlSource }) } });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

it('shows every line of the IDL whole, a long one wrapped inside the pane', async (context) => {
  if (missing) return context.skip(missing);
  const page = await browser!.newPage({ viewport: { width: 1280, height: 900 } });
  try {
    await page.goto(`${server!.url}/__idl/docs`);
    const pane = page.locator('pre.idl-text');
    await expect.poll(() => pane.locator('.line').count()).toBe(idlSource.split('\n').length - 1);
    expect(await pane.textContent()).toBe(idlSource);
    const layout = await pane.evaluate((pre) => {
      const box = pre.getBoundingClientRect();
      // How far each line reaches past the pane's right edge (0 or less: all of it inside).
      const overhang = [...pre.querySelectorAll('.line')].map((line) => {
        const range = document.createRange();
        range.selectNodeContents(line);
        return Math.max(...[...range.getClientRects()].map((rect) => rect.right)) - box.right;
      });
      return { overhang, scrollWidth: pre.scrollWidth, clientWidth: pre.clientWidth };
    });
    expect(layout.overhang.filter((pixels) => pixels > 0)).toEqual([]);
    expect(layout.scrollWidth).toBeLessThanOrEqual(layout.clientWidth);
  } finally {
    await page.close();
  }
});
