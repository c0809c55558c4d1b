/**
 * The API page's console on stream methods, in Debian's Chromium against `listen` with the page: the
 * items show as they arrive (the first before the handler has finished), then the end; a declared
 * error shows named; Stop closes the connection (the handler's `finally` runs); the REST binding
 * streams too; a stream method cannot be added to a batch.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createDocsPage } from '../../runtime/docs-page/index.js';
import { RpcError } from '../../runtime/errors.js';
import type { RpcContext } from '../../runtime/server.js';
import { compileIdl, toIdlJson } from '../../src/idl/index.js';
import { chromiumMissing, launchChromium } from '../chromium.js';
import { startServer, type TestServer } from './helpers.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const missing = chromiumMissing();
const idlSource = `namespace track

struct Step {
    n int
}

errors {
    1201 TooFar "cannot count that far"
}

interface Track {
    count(to int) stream Step raises(TooFar)
}
`;

let server: TestServer | undefined;
let browser: Browser | undefined;
/** Lets the handler go on past its first item. */
let release: () => void = () => undefined;
const finished: boolean[] = [];

function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

beforeAll(async () => {
  if (missing) return;
  const idl = toIdlJson(compileIdl(idlSource, 'track.idl'));
  const handlers = {
    Track: {
      async *count(to: number, ctx: RpcContext) {
        if (to > 100) throw new RpcError(1201, 'TooFar: cannot count that far', { to });
        try {
          yield { n: 1 };
          // The second item waits for the test (or the client going away).
          await Promise.race([new Promise<void>((resolve) => (release = resolve)), aborted(ctx.signal)]);
          for (let n = 2; n <= to && !ctx.signal.aborted; n++) yield { n };
        } finally {
          finished.push(ctx.signal.aborted);
        }
      },
    },
  };
  server = await startServer({ idl, handlers, listen: { docsPage: createDocsPage({ title: 'Track', idlSource }) } } as never);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const outcome = (page: Page) => page.locator('[data-testid="outcome"]').textContent();
const response = (page: Page) => page.locator('[data-testid="response"]').textContent();

async function openCount(page: Page, to: number): Promise<void> {
  await page.goto(`${server!.url}/__idl/docs`);
  await page.locator('[data-testid="method"][data-method="Track.count"]').click();
  await page.locator('[data-param="to"]').fill(String(to));
}

it('shows the items as they arrive, then the end; a declared error named; no batch', async (context) => {
  if (missing) return context.skip(missing);
  const page = await browser!.newPage();
  try {
    await openCount(page, 3);
    expect(await page.locator('[data-testid="signature"]').textContent()).toBe('count(to int) stream Step raises(TooFar)');
    expect(await page.locator('[data-testid="add-to-batch"]').isDisabled()).toBe(true);
    await page.locator('[data-testid="send"]').click();
    // The first item is there while the handler still waits to send the second.
    await expect.poll(() => outcome(page)).toBe('Streaming… 1 item');
    expect(await response(page)).toContain('#1 (id 1) {"n":1}');
    expect(await page.locator('[data-testid="stop"]').isEnabled()).toBe(true);
    release();
    await expect.poll(() => outcome(page)).toBe('Stream ended after 3 items');
    expect(await response(page)).toContain('#3 (id 3) {"n":3}');
    expect(await page.locator('[data-testid="request"]').textContent()).toContain('accept: text/event-stream');
    expect(await page.locator('[data-testid="stop"]').isDisabled()).toBe(true);

    await page.locator('[data-param="to"]').fill('1000');
    await page.locator('[data-testid="send"]').click();
    await expect
      .poll(() => outcome(page))
      .toBe('Declared error TooFar (declared by count), code 1201: TooFar: cannot count that far; data: {"to":1000} (after 0 items)');
  } finally {
    await page.close();
  }
});

it("Stop closes the connection and the handler's finally runs; the REST binding streams too", async (context) => {
  if (missing) return context.skip(missing);
  const page = await browser!.newPage();
  try {
    await openCount(page, 5);
    await page.locator('[data-testid="binding"]').selectOption('rest');
    const before = finished.length;
    await page.locator('[data-testid="send"]').click();
    await expect.poll(() => outcome(page)).toBe('Streaming… 1 item');
    expect(await response(page)).toContain('#1 (id 1) {"n":1}');
    await page.locator('[data-testid="stop"]').click();
    await expect.poll(() => outcome(page)).toBe('Stopped after 1 item');
    await expect.poll(() => finished.slice(before)).toEqual([true]);
  } finally {
    await page.close();
  }
});
