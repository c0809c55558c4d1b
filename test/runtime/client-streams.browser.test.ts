/**
 * The client's streams in Debian's Chromium (fetch's body reader in a browser, our event-stream
 * parser on its chunks): a page that bundles runtime/client.ts reads a stream method of the real
 * server core; the connection is cut mid-stream and resumed with Last-Event-ID (every item once,
 * in order; the interceptor sees each connection), and leaving the loop runs the handler's finally.
 */
import path from 'node:path';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createRpcServer, type RpcContext } from '../../runtime/server.js';
import { chromiumMissing, launchChromium } from '../chromium.js';
import { ordersStreamIdl } from './fixtures/orders-stream-idl.js';
import { type StreamFront, streamFront } from './stream-front.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const missing = chromiumMissing();
let front: StreamFront | undefined;
let browser: Browser | undefined;
let page: Page | undefined;
const lastEventIds: (string | undefined)[] = [];
const finished: boolean[] = [];

beforeAll(async () => {
  if (missing) return;
  const bundle = await build({
    entryPoints: [path.join(import.meta.dirname, '../../runtime/client.ts')],
    bundle: true,
    format: 'iife',
    globalName: 'rpcClient',
    write: false,
  });
  const script = bundle.outputFiles[0].text;
  const service = {
    watchOrder: () => {
      throw new Error('not in this test');
    },
    async *count(to: number, ctx: RpcContext) {
      lastEventIds.push(ctx.lastEventId);
      try {
        for (let n = Number(ctx.lastEventId ?? 0) + 1; n <= to && !ctx.signal.aborted; n++) {
          // One item per turn of the event loop, so the chunks reach the browser apart.
          await new Promise((resolve) => setTimeout(resolve, 5));
          yield n;
        }
      } finally {
        finished.push(ctx.signal.aborted);
      }
    },
    getOrder: (orderId: string) => ({ id: orderId, status: 'paid' }),
  };
  const server = createRpcServer({ idl: ordersStreamIdl, handlers: { OrderService: service }, logger: { error: vi.fn(), warn: vi.fn() } });
  front = await streamFront(server, {
    answer(req, res) {
      if (req.method !== 'GET') return false;
      if (req.url === '/client.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
      else res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>page</title><script src="/client.js"></script>');
      return true;
    },
  });
  browser = await launchChromium();
  page = await browser.newPage();
  await page.goto(`${front.url}page`);
});

afterAll(async () => {
  await browser?.close();
});

type Client = typeof import('../../runtime/client.js');

it('resumes a connection cut mid-stream with Last-Event-ID: every item once, in order', async (context) => {
  if (missing) return context.skip(missing);
  front!.cutAfter = 4;
  const seen = await page!.evaluate(async (url) => {
    const { HttpTransport, streamMethod } = (globalThis as unknown as { rpcClient: Client }).rpcClient;
    const attempts: (string | undefined)[] = [];
    const transport = new HttpTransport(url, {
      reconnect: { initialDelayMs: 1, maxDelayMs: 5 },
      interceptors: [(next) => (call) => (attempts.push(call.headers['last-event-id']), next(call))],
    });
    const stream = streamMethod(transport, 'OrderService.count', [10], []);
    const items: unknown[] = [];
    for await (const item of stream) items.push(item);
    return { items, attempts, lastEventId: stream.lastEventId };
  }, front!.url);
  expect(seen.items).toStrictEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  expect(seen.lastEventId).toBe('10');
  expect(seen.attempts).toStrictEqual([undefined, '4']);
  expect(lastEventIds.slice(-2)).toStrictEqual([undefined, '4']);
});

it("closes the connection when the loop is left; the handler's finally runs", async (context) => {
  if (missing) return context.skip(missing);
  const before = finished.length;
  const first = await page!.evaluate(async (url) => {
    const { HttpTransport, streamMethod } = (globalThis as unknown as { rpcClient: Client }).rpcClient;
    for await (const item of streamMethod(new HttpTransport(url), 'OrderService.count', [1_000_000], [])) return item;
  }, front!.url);
  expect(first).toBe(1);
  await expect.poll(() => finished.slice(before)).toEqual([true]);
});
