/**
 * `idlrpc -plugin ts-client-server -ts-emit js+dts`: the output directory as JavaScript with a
 * declaration file beside each module and the compiled runtime. An app's strict `tsc` types the
 * client and the handlers from the declarations alone (and rejects a wrong handler), its generated
 * tsconfig checks the declarations without `skipLibCheck`, and Node runs the JavaScript: a call
 * through the generated server gives the handler's answer and a params check rejects bad params.
 */
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, expect, test, vi } from 'vitest';
import { run, TSC } from '../examples/harness.js';
import { ensureBuilt, REPO_ROOT, runCli } from './run-cli.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

// Inside the repository, so that the output resolves @sinclair/typebox and @types/node from its node_modules.
const dir = path.join(REPO_ROOT, 'test-output/cli/generate-js-dts');
const gen = path.join(dir, 'gen');

const APP = `import { CatalogServiceClient, createCheckoutServer, type CheckoutHandlers, type Product } from './gen/index.js';

const sencha: Product = { productId: 'sencha', name: 'Sencha', description: 'Green tea', price: 7.5, stock: 3 };
export const handlers: CheckoutHandlers = {
  CatalogService: { listProducts: async () => [sencha], getProduct: async (id: string) => (id === 'sencha' ? sencha : null) },
  CartService: {} as CheckoutHandlers['CartService'],
  OrderService: {} as CheckoutHandlers['OrderService'],
};
export const server = createCheckoutServer(handlers);
export type Client = CatalogServiceClient;
// @ts-expect-error a handler answering a number where the IDL says Product[]
export const wrong: CheckoutHandlers['CatalogService']['listProducts'] = async () => 42;
`;

beforeAll(async () => {
  ensureBuilt();
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const generated = await runCli([
    '-plugin',
    'ts-client-server',
    '-dir',
    gen,
    '-ts-emit',
    'js+dts',
    '-ts-gen-tsconfig',
    path.join(REPO_ROOT, 'playground/checkout.idl'),
  ]);
  expect(generated.stderr).toBe('');
  expect(generated.code).toBe(0);
});

test('every module is JavaScript with its declarations, the runtime too', async () => {
  const names = await readdir(gen);
  expect(names.filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'))).toEqual([]);
  for (const part of ['index', 'types', 'client', 'server']) expect(names).toEqual(expect.arrayContaining([`${part}.js`, `${part}.d.ts`]));
  const runtime = await readdir(path.join(gen, 'runtime'));
  expect(runtime).toEqual(expect.arrayContaining(['core.js', 'core.d.ts', 'client.js', 'client.d.ts']));
  expect(runtime.filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'))).toEqual([]);
});

test('strict tsc types an app from the declarations, and the generated tsconfig checks them all', async () => {
  await writeFile(path.join(dir, 'app.ts'), APP);
  const compilerOptions = {
    noEmit: true,
    strict: true,
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    target: 'ES2022',
    types: ['node'],
  };
  await writeFile(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['app.ts'] }));
  expect(await run(TSC, ['-p', '.'], dir)).toEqual({ code: 0, output: '' });
  expect(await run(TSC, ['-p', 'gen'], dir)).toEqual({ code: 0, output: '' });
});

test('Node runs the JavaScript: a call through the generated server, and bad params rejected', async () => {
  const module = (await import(pathToFileURL(path.join(gen, 'index.js')).href)) as {
    createCheckoutServer(handlers: unknown): { handleJson(message: unknown): Promise<unknown> };
    checkoutIdl: { interfaces: { name: string; methods: { name: string }[] }[] };
  };
  const sencha = { productId: 'sencha', name: 'Sencha', description: 'Green tea', price: 7.5, stock: 3 };
  // Every method of the IDL answers; getProduct with the product.
  const handlers = Object.fromEntries(
    module.checkoutIdl.interfaces.map(({ name, methods }) => [
      name,
      Object.fromEntries(methods.map((method) => [method.name, async () => (method.name === 'getProduct' ? sencha : null)])),
    ]),
  );
  const server = module.createCheckoutServer(handlers);
  const call = (params: unknown) => server.handleJson({ jsonrpc: '2.0', id: 1, method: 'CatalogService.getProduct', params });
  expect(await call(['sencha'])).toEqual({ jsonrpc: '2.0', id: 1, result: sencha });
  expect(await call([42])).toMatchObject({ jsonrpc: '2.0', id: 1, error: { code: -32602 } });
});

test('-ts-emit js+dts with -ts-module cjs, or an unknown emit, is a usage error', async () => {
  const idl = path.join(REPO_ROOT, 'playground/checkout.idl');
  const cjs = await runCli(['-plugin', 'ts-client-server', '-dir', path.join(dir, 'cjs'), '-ts-module', 'cjs', '-ts-emit', 'js+dts', idl]);
  expect([cjs.code, cjs.stderr]).toEqual([2, expect.stringContaining('-ts-emit js+dts writes ES modules')]);
  const unknown = await runCli(['-plugin', 'ts-client-server', '-dir', path.join(dir, 'x'), '-ts-emit', 'wasm', idl]);
  expect([unknown.code, unknown.stderr]).toEqual([2, expect.stringContaining("unknown -ts-emit 'wasm' (expected ts, js+dts)")]);
});
