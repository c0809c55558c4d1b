/**
 * The fixture app (test/plugin/fixtures/app: one client and one declared error class imported
 * straight from checkout.idl) built with each of the six bundlers through their JS APIs. Each
 * bundle runs against a real server started here and must get a typed result and the declared
 * error; openapi.json must sit next to the bundle and pass two strict validators, openrpc.json beside
 * it the OpenRPC project's validator; the bundle must
 * carry no server code, TypeBox or validators (tree-shaking). A broken .idl must fail every build
 * with its file:line:column in the message.
 */
import { readFile, stat } from 'node:fs/promises';
import type http from 'node:http';
import path from 'node:path';
import { validateOpenRPCDocument } from '@open-rpc/schema-utils-js';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { BUNDLERS, buildWith, type Bundler } from './harness/bundlers.js';
import { openApiProblems } from './harness/openapi-validation.js';
import { startFixtureOrderServer } from './harness/order-server.js';
import { loadBundle } from './harness/run-bundle.js';
import { addressOf, closeServer, copyBrokenFixtureApp, copyFixtureApp, freshDir } from './harness/workspace.js';

// Builds and tools run in this file: generous limits for a busy 2-core CI machine (no timing is asserted).
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

let app: string;
let out: string;
let rpc: http.Server;
let baseAddress: string;
const sizes: Record<string, number> = {};
const bundles = new Map<Bundler, string>();

/**
 * Text found only in the server (its protocol errors, the `rpc-idl` method), in TypeBox (its kind
 * symbol) or in the validators (their fallback message). Minifiers keep strings.
 */
const SERVER_ONLY_MARKERS = [
  'Method Not Allowed',
  'Payload Too Large',
  'Invalid params',
  'rpc-idl',
  'TypeBox.Kind',
  'value does not match the IDL type',
];

beforeAll(async () => {
  app = await copyFixtureApp('bundlers/app');
  out = await freshDir('bundlers/out');
  rpc = await startFixtureOrderServer(app);
  baseAddress = addressOf(rpc);
});

afterAll(async () => {
  if (rpc) await closeServer(rpc);
  console.info(`bundle sizes of the fixture app (bytes): ${JSON.stringify(sizes)}`);
});

describe.each(BUNDLERS)('%s', (bundler: Bundler) => {
  test('the bundle calls a real server: typed result and declared error; openapi.json and openrpc.json are valid', async () => {
    const outDir = path.join(out, bundler);
    const build = await buildWith(bundler, { root: app, entry: 'main.js', outDir });

    const fixture = await loadBundle(build);
    const result = await fixture.runOrders(baseAddress);
    expect(result).toEqual({
      status: 'paid',
      total: 42.5,
      createdAt: 1_700_000_000,
      declaredError: { name: 'CartNotFoundError', code: 1001, message: 'CartNotFound: no cart no-such-cart' },
    });

    const openApiFile = path.join(outDir, 'openapi.json');
    const document = await readFile(openApiFile, 'utf8');
    expect(JSON.parse(document)).toMatchObject({ info: { title: 'Checkout' }, paths: { '/OrderService/createOrder': { post: {} } } });
    expect(await openApiProblems(document)).toEqual([]);
    const openRpc = JSON.parse(await readFile(path.join(outDir, 'openrpc.json'), 'utf8'));
    expect(openRpc.methods.map((m: { name: string }) => m.name)).toContain('OrderService.createOrder');
    expect(validateOpenRPCDocument(openRpc)).toBe(true);

    sizes[bundler] = (await stat(build.bundleFile)).size;
    bundles.set(bundler, await readFile(build.bundleFile, 'utf8'));
  });

  test('the bundle of a client-only app carries no server code, TypeBox or validators', () => {
    const code = bundles.get(bundler);
    if (code === undefined) throw new Error(`the ${bundler} build above failed`);
    expect(code).toContain('OrderService.createOrder');
    const carried = SERVER_ONLY_MARKERS.filter((marker) => code.includes(marker));
    expect(carried, `${bundler}: ${code.length} bytes`).toEqual([]);
  });
});

test('the markers are real: a bundle importing the server factory carries every one of them', async () => {
  const build = await buildWith('esbuild', { root: app, entry: 'with-server.js', outDir: path.join(out, 'esbuild-with-server') });
  const code = await readFile(build.bundleFile, 'utf8');
  expect(SERVER_ONLY_MARKERS.filter((marker) => !code.includes(marker))).toEqual([]);
});

describe('a broken .idl', () => {
  let broken: string;
  let line: number;
  let column: number;

  beforeAll(async () => {
    ({ dir: broken, line, column } = await copyBrokenFixtureApp('bundlers/broken'));
  });

  test.each(BUNDLERS)('fails the %s build with file:line:column in the message', async (bundler) => {
    const outDir = path.join(out, `broken-${bundler}`);
    const failure = await buildWith(bundler, { root: broken, entry: 'main.js', outDir }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure, `${bundler} build succeeded`).toBeInstanceOf(Error);
    expect((failure as Error).message).toContain(`checkout.idl:${line}:${column}`);
    expect((failure as Error).message).toMatch(/floot/);
  });
});

describe('an .idl larger than maxIdlBytes', () => {
  test.each(BUNDLERS)('fails the %s build naming the file, its size and the option', async (bundler) => {
    const idlFile = path.join(app, 'checkout.idl');
    const { size } = await stat(idlFile);
    const maxIdlBytes = 1000;
    expect(size).toBeGreaterThan(maxIdlBytes);
    const outDir = path.join(out, `too-large-${bundler}`);
    const failure = await buildWith(bundler, { root: app, entry: 'main.js', outDir, plugin: { maxIdlBytes } }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure, `${bundler} build succeeded`).toBeInstanceOf(Error);
    expect((failure as Error).message).toContain(
      `${idlFile}: ${size} bytes, more than the ${maxIdlBytes} bytes an .idl may have (option maxIdlBytes)`,
    );
  });
});
