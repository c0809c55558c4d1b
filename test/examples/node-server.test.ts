/**
 * examples/node-server: the same server entry (`import { createShopServer } from './shop.idl'` and
 * the runtime's `listen`) bundled for Node by esbuild, Rollup, webpack and Rspack with the
 * example's own build script or config file, run as the README says. Each bundle must land with
 * openapi.json beside it and run with `node` alone, from a folder outside the repository (no
 * node_modules to fall back on): a JSON-RPC call, a declared error and an OpenAPI-binding call get
 * the right answers, and SIGTERM stops it cleanly. The example's JavaScript must type-check against
 * the shop.idl.d.ts the builds wrote, and the README's install list for your own project must name
 * every package the example's files import and its type check needs.
 */
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { ensureBuilt, REPO_ROOT } from '../cli/run-cli.js';
import { copyExample, postJson, run, startServer, TSC } from './harness.js';

// Builds and child processes: generous limits for a busy 2-core machine (no timing is asserted).
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const ROLLUP = path.join(REPO_ROOT, 'node_modules/rollup/dist/bin/rollup');

/** Each bundler: the command of the example's README (run in the example folder) and what it writes. */
const BUILDS = [
  { bundler: 'esbuild', args: ['esbuild.mjs'], bundle: 'dist/esbuild/server.mjs' },
  { bundler: 'rollup', args: [ROLLUP, '-c'], bundle: 'dist/rollup/server.mjs' },
  { bundler: 'webpack', args: ['build-with-api.mjs', 'webpack'], bundle: 'dist/webpack/server.cjs' },
  { bundler: 'rspack', args: ['build-with-api.mjs', 'rspack'], bundle: 'dist/rspack/server.cjs' },
];

let example: string;
let outside: string;

beforeAll(async () => {
  ensureBuilt();
  example = await copyExample('node-server');
  outside = await mkdtemp(path.join(tmpdir(), 'idl-rpc-example-'));
});

afterAll(async () => {
  if (outside) await rm(outside, { recursive: true, force: true });
});

describe.each(BUILDS)('$bundler', ({ bundler, args, bundle }) => {
  test('builds a server bundle with openapi.json beside it, which answers JSON-RPC and the OpenAPI binding', async () => {
    const build = await run(process.execPath, args, example);
    expect(build.code, build.output).toBe(0);

    const document = JSON.parse(await readFile(path.join(example, path.dirname(bundle), 'openapi.json'), 'utf8')) as {
      info: { title: string };
      paths: Record<string, unknown>;
    };
    expect(document.info.title).toBe('Shop');
    expect(Object.keys(document.paths)).toEqual(['/ShopService/listProducts', '/ShopService/getProduct', '/ShopService/placeOrder']);

    // The bundle alone, where no node_modules can stand in for something it left out.
    const folder = path.join(outside, bundler);
    await rm(folder, { recursive: true, force: true });
    await mkdir(folder);
    const copy = path.join(folder, path.basename(bundle));
    await copyFile(path.join(example, bundle), copy);

    const server = await startServer(copy, folder);
    try {
      const order = await postJson(`${server.baseUrl}/`, {
        jsonrpc: '2.0',
        id: 1,
        method: 'ShopService.placeOrder',
        params: [
          [
            { productId: 'sencha', quantity: 2 },
            { productId: 'espresso', quantity: 1 },
          ],
        ],
      });
      expect(order).toEqual({
        status: 200,
        body: {
          jsonrpc: '2.0',
          id: 1,
          result: {
            orderId: 'order-1',
            lines: [
              { productId: 'sencha', quantity: 2 },
              { productId: 'espresso', quantity: 1 },
            ],
            total: 24,
          },
        },
      });

      const unknown = await postJson(`${server.baseUrl}/`, {
        jsonrpc: '2.0',
        id: 2,
        method: 'ShopService.placeOrder',
        params: [[{ productId: 'matcha', quantity: 1 }]],
      });
      expect(unknown.body).toEqual({ jsonrpc: '2.0', id: 2, error: { code: 2001, message: 'UnknownProduct: matcha' } });

      const product = await postJson(`${server.baseUrl}/ShopService/getProduct`, { productId: 'espresso' });
      expect(product).toEqual({
        status: 200,
        body: { productId: 'espresso', name: 'Espresso beans, 250 g', category: 'coffee', price: 9 },
      });

      const empty = await postJson(`${server.baseUrl}/ShopService/placeOrder`, { lines: [] });
      expect(empty).toEqual({ status: 422, body: { code: 2002, message: 'EmptyOrder: an order needs at least one line' } });
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});

test('the example type-checks against the shop.idl.d.ts the plugin wrote', async () => {
  const checked = await run(TSC, ['-p', '.'], example);
  expect(checked.output).toBe('');
  expect(checked.code).toBe(0);
});

/** The package of a bare import specifier (`@scope/name/sub` -> `@scope/name`), or undefined for `node:` and relative ones. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('node:')) return undefined;
  return specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');
}

test("the README's install list for your own project names every package the example imports and its type check needs", async () => {
  const folder = path.join(REPO_ROOT, 'examples/node-server');
  const readme = await readFile(path.join(folder, 'README.md'), 'utf8');
  const section = /^## In your own project\n([\s\S]*?)^## /m.exec(`${readme}\n## `)?.[1] ?? '';
  const installed = new Set([...section.matchAll(/^npm install(?: -D)? ([^#\n]+)/gm)].flatMap(([, names]) => names.trim().split(/\s+/)));

  const needed = new Set<string>();
  for (const file of (await readdir(folder)).filter((name) => /\.m?js$/.test(name))) {
    const text = await readFile(path.join(folder, file), 'utf8');
    for (const [, specifier] of text.matchAll(/(?:from |import\()'([^']+)'/g)) {
      const name = packageOf(specifier);
      if (name) needed.add(name);
    }
  }
  // tsconfig.json is for `tsc`, with the @types packages of its "types".
  const tsconfig = JSON.parse((await readFile(path.join(folder, 'tsconfig.json'), 'utf8')).replace(/^\s*\/\/.*$/gm, '')) as {
    compilerOptions: { types: string[] };
  };
  needed.add('typescript');
  for (const types of tsconfig.compilerOptions.types) needed.add(`@types/${types}`);

  expect([...needed].filter((name) => !installed.has(name))).toEqual([]);
});
