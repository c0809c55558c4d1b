/**
 * The API page's console in Debian's Chromium, on an IDL with attribute lists and a union: an
 * optional parameter with a default is pre-filled with it, one without is left out of the request
 * until filled in, constraints show beside the editor, and a union parameter has a chooser of its
 * variants that refills the editor with the chosen one (discriminator set); the server accepts what
 * the console sends.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createDocsPage } from '../../runtime/docs-page/index.js';
import { compileIdl, toIdlJson } from '../../src/idl/index.js';
import { chromiumMissing, launchChromium } from '../chromium.js';
import { startServer, type TestServer } from './helpers.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const missing = chromiumMissing();
const idlSource = `namespace pay

struct Card {
    last4 string [pattern="^[0-9]{4}$"]
}

struct Cash {
    amount int [min=1]
}

union Payment [discriminator=type] {
    card Card
    cash Cash
}

interface Pay {
    pay(payment Payment) string
    list(cursor string [optional], perPage int [optional, default=30, max=100]) []string
}
`;

let server: TestServer | undefined;
let browser: Browser | undefined;
const calls: unknown[][] = [];

beforeAll(async () => {
  if (missing) return;
  const idl = toIdlJson(compileIdl(idlSource, 'pay.idl'));
  const handlers = {
    Pay: {
      pay: (payment: { type: string }) => payment.type,
      list: (cursor: string | undefined, perPage: number) => (calls.push([cursor, perPage]), [`${cursor ?? 'start'}:${perPage}`]),
    },
  };
  server = await startServer({ idl, handlers, listen: { docsPage: createDocsPage({ title: 'Pay', idlSource }) } } as never);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function sendAndRead(page: Page): Promise<string> {
  await page.locator('[data-testid="outcome"]').evaluate((element) => {
    element.textContent = '';
  });
  await page.locator('[data-testid="send"]').click();
  await expect.poll(() => page.locator('[data-testid="outcome"]').textContent()).not.toMatch(/^(Sending…)?$/);
  return (await page.locator('[data-testid="outcome"]').textContent()) ?? '';
}

it('pre-fills defaults, leaves optional parameters out, offers the variants of a union', async (context) => {
  if (missing) return context.skip(missing);
  const page = await browser!.newPage();
  try {
    await page.goto(`${server!.url}/__idl/docs`);
    await page.locator('[data-testid="method"][data-method="Pay.list"]').click();
    expect(await page.locator('[data-param="perPage"]').inputValue()).toBe('30');
    expect(await page.locator('[data-param="cursor"]').inputValue()).toBe('');
    expect(await page.locator('[data-testid="params"]').textContent()).toContain('default 30, max 100');
    expect(await sendAndRead(page)).toBe('Result: ["start:30"]');
    expect(calls.at(-1)).toEqual([undefined, 30]);

    await page.locator('[data-testid="method"][data-method="Pay.pay"]').click();
    expect(JSON.parse(await page.locator('[data-param="payment"]').inputValue())).toEqual({ type: 'card', last4: '' });
    await page.locator('[data-variant="payment"]').selectOption('cash');
    expect(JSON.parse(await page.locator('[data-param="payment"]').inputValue())).toEqual({ type: 'cash', amount: 1 });
    expect(await sendAndRead(page)).toBe('Result: "cash"');
  } finally {
    await page.close();
  }
});
