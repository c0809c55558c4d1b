/**
 * One instance of every runtime module in a real page (Chromium) on the Vite dev server, with the
 * package installed in the app's node_modules as a user has it: a page that takes `RpcError` from
 * `unplugin-idl-rpc/runtime/client` and a declared error class from `checkout.idl` (whose module
 * imports `runtime/core`) sees one `RpcError` class, and no script is requested twice (a file under
 * two URLs, such as `client.js` and `client.js?v=<hash>`, is two instances of its module) nor as a
 * raw runtime or TypeBox file.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import type { ViteDevServer } from 'vite';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { chromiumMissing, launchChromium } from '../chromium.js';
import { installPackageCopy } from './harness/installed-package.js';
import { startViteDevServer } from './harness/vite-dev.js';
import { copyFixtureApp } from './harness/workspace.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 180_000 });

const missing = chromiumMissing();
let server: ViteDevServer | undefined;
let browser: Browser | undefined;
let base: string;

const PAGE_SCRIPT = `import { CartNotFoundError } from './checkout.idl';
import { HttpTransport, RpcError } from 'unplugin-idl-rpc/runtime/client';
new HttpTransport('/rpc');
const error = new CartNotFoundError('no such cart');
globalThis.instances = { declaredIsRpcError: error instanceof RpcError, code: error.code };
`;

beforeAll(async () => {
  if (missing) return;
  const app = await copyFixtureApp('vite-dev-instances');
  await writeFile(path.join(app, 'instances.js'), PAGE_SCRIPT);
  await writeFile(
    path.join(app, 'instances.html'),
    '<!doctype html>\n<html><head><meta charset="utf-8"></head><body><script type="module" src="./instances.js"></script></body></html>\n',
  );
  const plugin = await installPackageCopy(app);
  ({ server, base } = await startViteDevServer(app, undefined, plugin));
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

test('a page importing the runtime and an .idl module gets one instance of each runtime module', async (context) => {
  if (missing) return context.skip(missing);
  const page = await browser!.newPage();
  const scripts: string[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') scripts.push(new URL(response.url()).pathname);
  });
  await page.goto(`${base}/instances.html`, { waitUntil: 'networkidle' });
  const instances = await page
    .waitForFunction(() => (globalThis as { instances?: unknown }).instances)
    .then((handle) => handle.jsonValue());
  expect(instances).toEqual({ declaredIsRpcError: true, code: 1001 });
  expect(scripts.some((script) => script.endsWith('/checkout.idl'))).toBe(true);
  expect(scripts.filter((script, index) => scripts.indexOf(script) !== index)).toEqual([]);
  expect(scripts.filter((script) => /\/dist\/runtime\/|\/@sinclair\/typebox\//.test(script))).toEqual([]);
  expect(scripts.filter((script) => script.includes('/node_modules/.vite/deps/unplugin-idl-rpc_runtime_'))).toHaveLength(2);
  await page.close();
});
