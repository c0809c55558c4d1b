/**
 * Rsbuild's dev server in a real browser (Chromium), in a process of its own
 * (harness/host-build.mjs with IDLRPC_DEV_PORT): the page imports checkout.idl through the built
 * `unplugin-idl-rpc/rsbuild`; a syntax error in the file shows in Rsbuild's error overlay with
 * file:line:column and the code frame, and an edit that fixes it clears the overlay and the page
 * runs the new module. (Farm's build output is checked in rsbuild-farm-bun.test.ts; its dev server,
 * started with an inline config through `start()` of @farmfe/core 1.7.11, answered every request
 * with 404 in our trial, so its overlay is not checked.)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { waitForOutput } from '../child-process.js';
import { chromiumMissing, launchChromium } from '../chromium.js';
import { copyFixtureApp, repoRoot, withBrokenEnumLine } from './harness/workspace.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const missing = chromiumMissing();

/** Rsbuild writes the page itself: the entry adds the element the fixture's script fills. */
const ENTRY = `const statuses = document.createElement('p');
statuses.id = 'statuses';
document.body.append(statuses);
import('./hmr.js');
`;

/** A TCP port nothing listens on now. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const poll = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 30_000, interval: 100 });

describe('rsbuild dev server', () => {
  let idlFile: string;
  let originalIdl: string;
  let server: ChildProcess | undefined;
  let browser: Browser | undefined;
  let page: Page | undefined;
  let url: string;

  /** The text of Rsbuild's overlay (an element with a shadow root), or undefined when none shows. */
  const overlayText = () => page!.evaluate(() => document.querySelector('rsbuild-error-overlay')?.shadowRoot?.textContent ?? undefined);

  beforeAll(async () => {
    if (missing) return;
    const app = await copyFixtureApp('rsbuild-overlay');
    idlFile = path.join(app, 'checkout.idl');
    originalIdl = await readFile(idlFile, 'utf8');
    await writeFile(path.join(app, 'overlay-page.js'), ENTRY);
    const port = await freePort();
    server = spawn(
      process.execPath,
      [path.join(repoRoot, 'test/plugin/harness/host-build.mjs'), 'rsbuild', app, 'overlay-page.js', path.join(app, 'out')],
      {
        cwd: app,
        env: { ...process.env, IDLRPC_DEV_PORT: String(port), NO_COLOR: '1', FORCE_COLOR: '0' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    await waitForOutput(server, /dev server ready/, 90_000, 'rsbuild dev server');
    url = `http://127.0.0.1:${port}/`;
    browser = await launchChromium();
    page = await browser.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    server?.kill();
  });

  test('a syntax error shows in the overlay with file:line:column and frame; a fixing edit clears it', async (context) => {
    if (missing) return context.skip(missing);
    const statuses = page!.locator('#statuses');
    await page!.goto(url);
    await poll(() => statuses.textContent()).toBe('pending,paid,shipped,delivered,cancelled');

    const { text: broken, line, column } = withBrokenEnumLine(originalIdl);
    await writeFile(idlFile, broken);
    await poll(overlayText).toContain(`checkout.idl:${line}:${column}`);
    expect(await overlayText()).toContain('enum PaymentMethod {{');

    await writeFile(idlFile, originalIdl.replace('    cancelled\n', '    cancelled\n    refunded\n'));
    await poll(overlayText).toBeUndefined();
    await poll(() => statuses.textContent()).toBe('pending,paid,shipped,delivered,cancelled,refunded');
  });
});
