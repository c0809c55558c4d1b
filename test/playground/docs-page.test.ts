/**
 * The API reference page (docs/docs-page.md) in Chromium, where the playground serves it: the Vite
 * dev server (`npm run playground`) and the standalone server (`npm run playground:server`, built
 * here into a temporary folder). On each: every checkout method listed, calls sent from the
 * console over JSON-RPC and the REST binding (a result, a declared error with its code), request
 * headers, a batch, the IDL view, the Swagger UI reference; no request leaves for another host and
 * nothing breaks the page's Content-Security-Policy. The production bundle of the page holds nothing
 * of the viewer. Screenshots go to test-output/.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import type { ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { catalog } from '../../playground/service/catalog.js';
import { compileIdl } from '../../src/idl/compile.js';
import { toIdlJson } from '../../src/idl/json.js';
import { chromiumMissing, launchChromium } from '../chromium.js';
import { buildPlayground, playgroundDevServer, playgroundRoot, repositoryRoot, startBuiltServer } from './harness.js';

// Two builds and two servers on a busy 2-core machine: generous limits (no timing is asserted).
vi.setConfig({ testTimeout: 120_000, hookTimeout: 180_000 });

const screenshots = path.join(repositoryRoot, 'test-output');
const missing = chromiumMissing();

const checkoutInterfaces =
  toIdlJson(compileIdl(await readFile(path.join(playgroundRoot, 'checkout.idl'), 'utf8'), 'checkout.idl')).interfaces ?? [];
/** Every method of the playground's IDL, as `Interface.method`. */
const checkoutMethods = checkoutInterfaces.flatMap((declared) =>
  (declared.methods ?? []).map((method) => `${declared.name}.${method.name}`),
);
/** The operations of its OpenAPI document: a POST per method, and a GET per @readonly one (its read over GET). */
const checkoutOperations =
  checkoutMethods.length + checkoutInterfaces.flatMap((declared) => declared.methods ?? []).filter((m) => m.readonly).length;

let outDir = '';
let standalone: ChildProcess | undefined;
let standaloneUrl = '';
let vite: ViteDevServer | undefined;
let devUrl = '';
let browser: Browser | undefined;

beforeAll(async () => {
  outDir = await buildPlayground('playground-docs-page');
  if (missing) return;
  ({ server: standalone, url: standaloneUrl } = await startBuiltServer(outDir));
  ({ vite, url: devUrl } = await playgroundDevServer());
  browser = await launchChromium();
  await mkdir(screenshots, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await vite?.close();
  standalone?.kill();
  if (outDir) await rm(outDir, { recursive: true, force: true });
});

const poll = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 30_000 });
const byTestId = (page: Page, id: string) => page.locator(`[data-testid="${id}"]`);
const textOf = async (locator: Locator) => (await locator.textContent()) ?? '';

/** A page that records CSP violations, script errors, and every request for another origin (which it refuses). */
async function openDocsPage(origin: string) {
  const context = await browser!.newContext({ viewport: { width: 1400, height: 1000 } });
  const foreign: string[] = [];
  // The network is off for the page: only the server under test answers.
  await context.route('**/*', (route) => {
    if (new URL(route.request().url()).origin === origin) return route.continue();
    foreign.push(route.request().url());
    return route.abort('internetdisconnected');
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text())) problems.push(message.text());
  });
  const sentHeaders: Record<string, string>[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST') sentHeaders.push(request.headers());
  });
  await page.goto(`${origin}/__idl/docs`);
  return { page, foreign, problems, sentHeaders, close: () => context.close() };
}

/** Picks a method in the console and sends it; returns the outcome line once it is in. */
async function send(page: Page, method: string, binding: 'json-rpc' | 'rest', fill: Record<string, string> = {}) {
  await page.locator(`[data-testid="method"][data-method="${method}"]`).click();
  await byTestId(page, 'binding').selectOption(binding);
  for (const [name, value] of Object.entries(fill)) await page.locator(`[data-param="${name}"]`).fill(value);
  await byTestId(page, 'outcome').evaluate((element) => {
    element.textContent = '';
  });
  await byTestId(page, 'send').click();
  await poll(() => textOf(byTestId(page, 'outcome'))).not.toMatch(/^(Sending…)?$/);
  return textOf(byTestId(page, 'outcome'));
}

/** What both servers must show: methods, calls, a declared error, headers, a batch, the IDL view, the reference. */
async function exerciseConsole(page: Page, sentHeaders: Record<string, string>[], screenshotName: string) {
  await poll(() => byTestId(page, 'method').evaluateAll((buttons) => buttons.map((b) => b.getAttribute('data-method')))).toEqual(
    checkoutMethods,
  );

  await byTestId(page, 'headers').fill('Authorization: Bearer console-token\nX-Trace: docs-page');
  expect(await send(page, 'CatalogService.listProducts', 'json-rpc')).toMatch(/^Result: \[/);
  expect(await textOf(byTestId(page, 'response'))).toContain(catalog[0].name);
  expect(sentHeaders.at(-1)).toMatchObject({
    authorization: 'Bearer console-token',
    'x-trace': 'docs-page',
    'content-type': 'application/json',
  });

  // The request is pre-filled from the parameter type: every required field, enum values as choices.
  await page.locator('[data-testid="method"][data-method="OrderService.createOrder"]').click();
  const prefilled = JSON.parse(await page.locator('[data-param="request"]').inputValue());
  expect(prefilled).toEqual({
    cartId: '',
    shippingAddress: { street: '', city: '', state: '', zipCode: '', country: '' },
    paymentMethod: 'credit_card',
  });
  expect(await textOf(byTestId(page, 'params'))).toContain('paymentMethod: one of "credit_card", "debit_card", "paypal", "apple_pay"');
  expect(await send(page, 'OrderService.createOrder', 'json-rpc')).toBe(
    'Declared error CartNotFound (declared by createOrder), code 1001: CartNotFound: cart "" does not exist',
  );
  expect(await textOf(byTestId(page, 'response'))).toContain('"code": 1001');

  // The REST binding: named parameters, HTTP 422 for the declared error.
  expect(await send(page, 'CatalogService.getProduct', 'rest', { productId: 'kettle' })).toContain('"productId":"kettle"');
  expect(await textOf(byTestId(page, 'request'))).toMatch(/^POST \S*\/CatalogService\/getProduct\n/);
  expect(await send(page, 'OrderService.createOrder', 'rest')).toMatch(
    /^Declared error CartNotFound \(declared by createOrder\), code 1001/,
  );
  expect(await textOf(byTestId(page, 'response'))).toMatch(/^HTTP 422/);

  // A batch of three calls, answered in one response.
  await byTestId(page, 'binding').selectOption('json-rpc');
  for (const method of ['CatalogService.listProducts', 'CartService.getCart', 'OrderService.createOrder']) {
    await page.locator(`[data-testid="method"][data-method="${method}"]`).click();
    await byTestId(page, 'add-to-batch').click();
  }
  // A fourth call, taken out again.
  await page.locator('[data-testid="method"][data-method="OrderService.getOrder"]').click();
  await byTestId(page, 'add-to-batch').click();
  await expect.poll(() => byTestId(page, 'batch-call').count()).toBe(4);
  await byTestId(page, 'batch-call').nth(3).getByRole('button', { name: 'Remove OrderService.getOrder from the batch' }).click();
  await expect.poll(() => byTestId(page, 'batch-call').count()).toBe(3);
  await byTestId(page, 'send-batch').click();
  await poll(() => textOf(byTestId(page, 'outcome'))).toMatch(/^#\d+ CatalogService\.listProducts: Result: \[/);
  const lines = (await textOf(byTestId(page, 'outcome'))).split('\n');
  expect(lines).toHaveLength(3);
  expect(lines[1]).toMatch(/^#\d+ CartService\.getCart: Result: null$/);
  expect(lines[2]).toMatch(/^#\d+ OrderService\.createOrder: Declared error CartNotFound \(declared by createOrder\), code 1001/);
  expect(JSON.parse((await textOf(byTestId(page, 'request'))).split('\n\n')[1])).toHaveLength(3);

  // The IDL view with its doc comments, the method picked last marked.
  const idl = await textOf(byTestId(page, 'idl-text'));
  expect(idl).toContain('    // Turns a cart into a pending order.\n    createOrder(request CreateOrderRequest) CheckoutResponse raises(');
  expect(await textOf(page.locator('.idl-text .line.selected'))).toMatch(/^\s+getOrder\(/);

  // The Swagger UI reference: one operation per method.
  await poll(() => page.locator('#reference .opblock').count()).toBe(checkoutOperations);
  await page.screenshot({ path: path.join(screenshots, `docs-page-${screenshotName}.png`), fullPage: true });
  return idl;
}

describe('the API reference page in the Vite dev server (npm run playground)', () => {
  it('lists every method, sends calls and a batch, shows a declared error and the IDL as written, loads nothing from elsewhere', async (context) => {
    if (missing) return context.skip(missing);
    const { page, foreign, problems, sentHeaders, close } = await openDocsPage(new URL(devUrl).origin);
    try {
      const idl = await exerciseConsole(page, sentHeaders, 'vite-dev');
      // As written: a comment that is not a doc comment is there too.
      expect(idl).toMatch(/^\/\/ The checkout reference service/);
      expect(await textOf(byTestId(page, 'idl-origin'))).toMatch(/as written/);
      expect(foreign).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});

describe('the API reference page of the standalone server (npm run playground:server)', () => {
  it('lists every method, sends calls and a batch, shows a declared error and the IDL printed from rpc-idl, with the network off', async (context) => {
    if (missing) return context.skip(missing);
    const { page, foreign, problems, sentHeaders, close } = await openDocsPage(standaloneUrl);
    try {
      const idl = await exerciseConsole(page, sentHeaders, 'standalone');
      expect(idl).toMatch(/^namespace checkout\n/);
      expect(await textOf(byTestId(page, 'idl-origin'))).toMatch(/Printed from the IDL the server answers/);
      expect(foreign).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});

describe("the playground's production bundle", () => {
  it('holds nothing of the viewer or of the page', async () => {
    const files = (await readdir(outDir, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile());
    const page = files.filter((entry) => entry.parentPath.startsWith(path.join(outDir, 'page')));
    expect(page.some((entry) => entry.name.endsWith('.js'))).toBe(true);
    for (const entry of page) {
      const text = await readFile(path.join(entry.parentPath, entry.name), 'utf8');
      for (const mark of ['SwaggerUIBundle', 'swagger-ui', '__idl/docs', 'docs-page'])
        expect(text, `${entry.name}: ${mark}`).not.toContain(mark);
    }
    // The server bundle has the page's server part, but reads the viewer from node_modules at run time.
    const server = await readFile(path.join(outDir, 'server', 'main.js'), 'utf8');
    expect(server).toContain('__idl/docs');
    expect(server).not.toContain('SwaggerUIBundle');
  });
});
