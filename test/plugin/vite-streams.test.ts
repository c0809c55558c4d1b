/**
 * A stream method through the plugin's endpoints: the Vite dev server (handlers in the SSR module
 * runner) and `vite preview` (the built server entry). Each sends the first item while the handler
 * is still running, uncompressed although the client accepts gzip and the item is past the preview
 * server's compression threshold (its gzip middleware would hold the events back).
 */
import type { AddressInfo } from 'node:net';
import type { PreviewServer, ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import idlRpc from '../../src/plugin/vite.js';
import type { IdlRpcPluginOptions } from '../../src/plugin/options.js';
import { readSse } from '../runtime/sse-reader.js';
import { startViteDevServer } from './harness/vite-dev.js';
import { copyFixture } from './harness/workspace.js';

// Builds and tools run in this file: generous limits for a busy 2-core CI machine (no timing is asserted).
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const options: IdlRpcPluginOptions = { server: { idl: 'ticker.idl', handlers: 'server/handlers.js' } };
const hosts: { name: string; base: string }[] = [];
let dev: ViteDevServer | undefined;
let preview: PreviewServer | undefined;

beforeAll(async () => {
  const devApp = await copyFixture('streams', 'vite-streams-dev');
  const started = await startViteDevServer(devApp, options);
  dev = started.server;
  hosts.push({ name: 'the Vite dev server', base: started.base });

  const previewApp = await copyFixture('streams', 'vite-streams-preview');
  const vite = await import('vite');
  await vite.build({ configFile: false, root: previewApp, logLevel: 'silent', plugins: [idlRpc(options)] });
  preview = await vite.preview({
    configFile: false,
    root: previewApp,
    logLevel: 'silent',
    preview: { host: '127.0.0.1', port: 0 },
    plugins: [idlRpc(options)],
  });
  hosts.push({ name: 'vite preview', base: `http://127.0.0.1:${(preview.httpServer.address() as AddressInfo).port}` });
});

afterAll(async () => {
  await Promise.all([dev?.close(), preview?.close()]);
});

/** The handlers wait on this between the first tick and the others (same process: see the fixture). */
const shared = globalThis as { tickerGate?: Promise<void> };

describe.each(['the Vite dev server', 'vite preview'])('%s', (name) => {
  test('streams a stream method: the first item before the handler goes on, uncompressed, then the rest and the end', async () => {
    const base = hosts.find((host) => host.name === name)!.base;
    let letGo!: () => void;
    shared.tickerGate = new Promise((resolve) => {
      letGo = resolve;
    });
    const reader = readSse(
      `${base}/rpc`,
      { jsonrpc: '2.0', id: 7, method: 'Ticker.ticks', params: [3] },
      { accept: 'text/event-stream', 'accept-encoding': 'gzip, deflate, br' },
    );
    try {
      const response = await reader.response;
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/event-stream');
      expect(response.headers['content-encoding']).toBeUndefined();
      const first = await reader.next();
      expect(first?.data).toEqual({
        jsonrpc: '2.0',
        method: 'rpc.stream.item',
        params: { id: 7, item: { n: 1, text: 'x'.repeat(2_000) } },
      });
      letGo();
      const rest = await reader.rest();
      expect(rest.map((event) => event.data)).toEqual([
        { jsonrpc: '2.0', method: 'rpc.stream.item', params: { id: 7, item: { n: 2, text: '' } } },
        { jsonrpc: '2.0', method: 'rpc.stream.item', params: { id: 7, item: { n: 3, text: '' } } },
        { jsonrpc: '2.0', id: 7, result: null },
      ]);
    } finally {
      letGo();
      reader.destroy();
    }
  });
});
