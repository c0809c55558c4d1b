/**
 * What a client page costs in the Vite dev server: the modules it loads (the fixture's main.js imports
 * a client from checkout.idl and `HttpTransport` from `unplugin-idl-rpc/runtime/client` itself).
 * The runtime and TypeBox come pre-bundled by Vite's dependency optimizer: no raw runtime or TypeBox
 * file, and no file under two URLs (two copies of runtime/client.js, as `client.js` and
 * `client.js?v=<hash>`, would make `instanceof RpcError` fail across them). Both where the app sits
 * in this repository (the package found by self-reference) and where the package is installed in
 * the app's node_modules, as a user has it. The `.idl` module's source map is empty, never a map of
 * the generated code to itself.
 */
import path from 'node:path';
import type { ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { installPackageCopy } from './harness/installed-package.js';
import { startViteDevServer } from './harness/vite-dev.js';
import { copyFixtureApp } from './harness/workspace.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 180_000 });

/** Every module the page at `entry` loads, as the browser would request them: URL and file of each. */
async function modulesOfPage(server: ViteDevServer, entry: string): Promise<{ url: string; file: string }[]> {
  const graph = server.environments.client.moduleGraph;
  const modules = new Map<string, string>();
  const pending = [entry];
  while (pending.length > 0) {
    const url = pending.pop()!;
    if (modules.has(url)) continue;
    await server.environments.client.transformRequest(url);
    const module = await graph.getModuleByUrl(url);
    modules.set(url, (module?.file ?? url).split(path.sep).join('/'));
    for (const imported of module?.importedModules ?? []) if (!modules.has(imported.url)) pending.push(imported.url);
  }
  return [...modules].map(([url, file]) => ({ url, file }));
}

const layouts = [
  { name: 'the app inside this repository', folder: 'vite-dev-modules', installed: false },
  { name: 'the package installed in the app', folder: 'vite-dev-modules-installed', installed: true },
];

describe.each(layouts)('$name', ({ folder, installed }) => {
  let server: ViteDevServer;
  let base: string;

  beforeAll(async () => {
    const app = await copyFixtureApp(folder);
    const plugin = installed ? await installPackageCopy(app) : undefined;
    ({ server, base } = await startViteDevServer(app, undefined, plugin));
  });
  afterAll(() => server?.close());

  test('a client page loads the pre-bundled runtime and TypeBox, each file under one URL', async () => {
    const modules = await modulesOfPage(server, '/main.js');
    const files = modules.map((module) => module.file);
    expect(files.some((file) => file.endsWith('/checkout.idl'))).toBe(true);
    const optimized = files.filter((file) => file.includes('/node_modules/.vite/deps/'));
    expect(optimized.some((file) => file.endsWith('/unplugin-idl-rpc_runtime_client.js'))).toBe(true);
    expect(optimized.some((file) => file.endsWith('/unplugin-idl-rpc_runtime_core.js'))).toBe(true);
    expect(optimized.some((file) => /typebox/i.test(file))).toBe(true);
    const raw = files.filter((file) => !file.includes('/node_modules/.vite/'));
    expect(raw.filter((file) => /\/(?:dist\/)?runtime\/[^/]+\.(?:js|ts)$/.test(file))).toEqual([]);
    expect(raw.filter((file) => file.includes('/@sinclair/typebox/'))).toEqual([]);
    const twice = modules.filter((module, index) => files.indexOf(module.file) !== index);
    expect(twice.map((module) => module.url)).toEqual([]);
    expect(modules.length).toBeLessThanOrEqual(10);
  });

  test("the .idl module's source map points into the IDL (not at the generated code itself)", async () => {
    const served = await (await fetch(`${base}/checkout.idl?import`)).text();
    expect(served).toContain('OrderServiceClient');
    const inline = served.match(/sourceMappingURL=data:application\/json;base64,([A-Za-z0-9+/=]+)/)?.[1];
    const map = inline
      ? (JSON.parse(Buffer.from(inline, 'base64').toString('utf8')) as { sources?: string[]; sourcesContent?: (string | null)[] })
      : undefined;
    expect(map?.sources?.map((source) => source.replace(/^.*\//, ''))).toEqual(['checkout.idl']);
    const embedded = (map?.sourcesContent ?? []).join('');
    expect(embedded).toContain('interface OrderService');
    expect(embedded).not.toContain('OrderServiceClient');
  });
});
