/**
 * CORS as a browser sees it (Debian's Chromium): a page served from one origin calls, with our
 * client, a server on another origin that allows it (the call works, with the authorization
 * header, whose preflight the server approves) and one that does not (the call fails as a browser
 * must, before the server runs anything).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { listen, type RpcHttpServer } from '../../runtime/index.js';
import { chromiumMissing, launchChromium } from '../chromium.js';
import { importNotesModule, notesHandlers, productionOptions } from './notes-service.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const missing = chromiumMissing();
let pageServer: http.Server | undefined;
let rpcServer: RpcHttpServer | undefined;
let browser: Browser | undefined;
let page: Page | undefined;
let rpcUrl: string;
let pageOrigin: string;
let handled = 0;

beforeAll(async () => {
  if (missing) return;
  // The page: our client bundled for the browser, and nothing else.
  const bundle = await build({
    entryPoints: [path.join(import.meta.dirname, '../../runtime/client.ts')],
    bundle: true,
    format: 'iife',
    globalName: 'rpcClient',
    write: false,
  });
  const script = bundle.outputFiles[0].text;
  pageServer = http.createServer((req, res) => {
    if (req.url === '/client.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    else res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>page</title><script src="/client.js"></script>');
  });
  await new Promise<void>((resolve) => pageServer!.listen(0, '127.0.0.1', resolve));
  pageOrigin = `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}`;

  // The server on another origin (another port): it allows the page's origin and no other.
  const module = await importNotesModule();
  const handlers = notesHandlers(module);
  const addNote = handlers.NoteService.addNote;
  handlers.NoteService.addNote = (text, ctx) => (handled++, addNote(text, ctx));
  const options = productionOptions(module);
  rpcServer = await listen(module.createNotesServer(handlers, { ...options, cors: { origins: [pageOrigin] } }), {
    port: 0,
    host: '127.0.0.1',
  });
  rpcUrl = `http://localhost:${(rpcServer.address() as AddressInfo).port}/`;

  browser = await launchChromium();
  page = await browser.newPage();
});

afterAll(async () => {
  await browser?.close();
  await rpcServer?.shutdown({ timeoutMs: 1_000 });
  pageServer?.closeAllConnections();
  await new Promise((resolve) => (pageServer ? pageServer.close(resolve) : resolve(undefined)));
});

/** Calls NoteService.addNote from a page of `origin` with our HttpTransport; gives the result or the error's text. */
async function callFromPage(origin: string): Promise<unknown> {
  await page!.goto(`${origin}/`);
  return page!.evaluate(async (url) => {
    const { HttpTransport } = (globalThis as unknown as { rpcClient: typeof import('../../runtime/client.js') }).rpcClient;
    const transport = new HttpTransport(url, { headers: { authorization: 'Bearer ada' } });
    try {
      return { result: await transport.call('NoteService.addNote', ['from the page']) };
    } catch (error) {
      return { error: (error as Error).message };
    }
  }, rpcUrl);
}

test('a page on an allowed origin calls the server on another origin', async (context) => {
  if (missing) return context.skip(missing);
  expect(await callFromPage(pageOrigin)).toEqual({ result: { id: 'n1', text: 'from the page', author: 'ada' } });
  expect(handled).toBe(1);
});

test('a page on an origin the server does not allow cannot call it: the preflight fails and nothing runs', async (context) => {
  if (missing) return context.skip(missing);
  // The same page, reached through another name of the same machine: another origin.
  const otherOrigin = pageOrigin.replace('127.0.0.1', 'localhost');
  const before = handled;
  expect(await callFromPage(otherOrigin)).toEqual({ error: 'Transport error: Failed to fetch' });
  expect(handled).toBe(before);
});
