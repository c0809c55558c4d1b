/**
 * What a client page costs in the Vite dev server: the modules it loads (the fixture's main.js imports
 * a client from checkout.idl and `HttpTransport` from `unplugin-idl-rpc/runtime/client` itself) hold
 * every runtime module once, whichever way it is imported (two copies of runtime/client.js would
 * make `instanceof RpcError` fail across them), and no raw TypeBox files (Vite serves its pre-bundled
 * copy). The `.idl` module's source map is empty, never a map of the generated code to itself.
 */
import path from 'node:path';
import type { ViteDevServer } from 'vite';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { startViteDevServer } from './harness/vite-dev.js';
import { copyFixtureApp } from './harness/workspace.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

let server: ViteDevServer;
let base: string;

beforeAll(async () => {
  const app = await copyFixtureApp('vite-dev-modules');
  ({ server, base } = await startViteDevServer(app));
});
afterAll(() => server?.close());

/** Every module the page at `entry` loads, as the browser would request them: their resolved files by URL. */
async function modulesOfPage(entry: string): Promise<Map<string, string>> {
  const graph = server.environments.client.moduleGraph;
  const files = new Map<string, string>();
  const pending = [entry];
  while (pending.length > 0) {
    const url = pending.pop()!;
    if (files.has(url)) continue;
    await server.environments.client.transformRequest(url);
    const module = await graph.getModuleByUrl(url);
    files.set(url, module?.file ?? url);
    for (const imported of module?.importedModules ?? []) if (!files.has(imported.url)) pending.push(imported.url);
  }
  return files;
}

test('a client page loads every runtime module once and no raw TypeBox file', async () => {
  const modules = await modulesOfPage('/main.js');
  const files = [...modules.values()].map((file) => file.split(path.sep).join('/'));
  expect(files.some((file) => file.endsWith('/checkout.idl'))).toBe(true);
  const runtime = files.filter((file) => /\/runtime\/[^/]+\.(?:js|ts)$/.test(file) && !file.includes('/node_modules/.vite/'));
  expect(runtime.length).toBeGreaterThan(0);
  const twice = runtime.filter((file, index) => runtime.indexOf(file) !== index);
  expect(twice, `loaded more than once: ${twice.join(', ')}`).toEqual([]);
  // A pre-bundled copy of the runtime beside the raw files would be a second instance of it.
  expect(files.filter((file) => /\/\.vite\/deps\/unplugin-idl-rpc/.test(file))).toEqual([]);
  expect(files.filter((file) => file.includes('/@sinclair/typebox/build/'))).toEqual([]);
});

test("the .idl module's source map maps nothing (it is not a map of the generated code to itself)", async () => {
  const served = await (await fetch(`${base}/checkout.idl?import`)).text();
  expect(served).toContain('OrderServiceClient');
  const inline = served.match(/sourceMappingURL=data:application\/json;base64,([A-Za-z0-9+/=]+)/)?.[1];
  const map = inline
    ? (JSON.parse(Buffer.from(inline, 'base64').toString('utf8')) as { mappings?: string; sourcesContent?: (string | null)[] })
    : undefined;
  expect(map?.mappings ?? '').toBe('');
  expect((map?.sourcesContent ?? []).join('')).not.toContain('OrderServiceClient');
});
