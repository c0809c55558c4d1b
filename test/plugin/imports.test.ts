/**
 * An `.idl` that imports another (test/plugin/fixtures/imports: shop.idl imports shared.idl, which
 * has no namespace and is merged into it) with each of the six bundlers: the bundle calls a real
 * server and gets the imported types and declared error; the `.idl.d.ts` types the app. In watch
 * mode, editing only the imported file rebuilds, and so does fixing it after it broke the build.
 */
import { execFile } from 'node:child_process';
import { readFile, stat, writeFile } from 'node:fs/promises';
import type http from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { compileIdl, toIdlJson } from '../../src/idl/index.js';
import { createRpcServer, listen, RpcError } from '../../runtime/index.js';
import { BUNDLERS, bundleOf, buildWith, type Bundler } from './harness/bundlers.js';
import { loadBundle } from './harness/run-bundle.js';
import { startWatch, type WatchBuild, type WatchSession } from './harness/watch.js';
import { addressOf, closeServer, copyFixture, freshDir, repoRoot } from './harness/workspace.js';

// Builds and watchers run in this file: generous limits for a busy 2-core CI machine (no timing is asserted).
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

/** What merged.js registers. */
interface MergedApp {
  runOrders(baseAddress: string): Promise<{ total: unknown; declaredError?: { name: string; code: number; message: string } }>;
  currencies: string[];
}

const ORIGINAL_SHARED = await readFile(path.join(repoRoot, 'test/plugin/fixtures/imports/shared.idl'), 'utf8');

/** shared.idl with one more Currency value. */
function withCurrency(value: string): string {
  return ORIGINAL_SHARED.replace('    USD\n', `    USD\n    ${value}\n`);
}

let out: string;

beforeAll(async () => {
  out = await freshDir('imports/out');
});

describe('a merged import, built by each bundler', () => {
  let app: string;
  let rpc: http.Server;
  let baseAddress: string;

  beforeAll(async () => {
    app = await copyFixture('imports', 'imports/app');
    const shop = path.join(app, 'shop.idl');
    const server = createRpcServer({
      idl: toIdlJson(compileIdl(await readFile(shop, 'utf8'), shop)),
      handlers: {
        OrderService: {
          getOrder: (orderId: string) => {
            if (orderId === 'order-1') return { orderId, total: { amount: 4250, currency: 'EUR' } };
            throw new RpcError(3001, `no order ${orderId}`);
          },
        },
      },
    });
    rpc = await listen(server, { port: 0, host: '127.0.0.1' });
    baseAddress = addressOf(rpc);
  });

  afterAll(async () => {
    if (rpc) await closeServer(rpc);
  });

  test.each(BUNDLERS)('%s: the bundle gets the imported types and declared error from a real server', async (bundler) => {
    const build = await buildWith(bundler, { root: app, entry: 'merged.js', outDir: path.join(out, bundler) });
    const fixture = await loadBundle<MergedApp>(build);
    expect(fixture.currencies).toEqual(['EUR', 'USD']);
    expect(await fixture.runOrders(baseAddress)).toEqual({
      total: { amount: 4250, currency: 'EUR' },
      declaredError: { name: 'OrderNotFoundError', code: 3001, message: 'OrderNotFound: no order no-such-order' },
    });
  });

  test('the .idl.d.ts of the importer holds the merged declarations; the merged file gets none', async () => {
    const dts = await readFile(path.join(app, 'shop.idl.d.ts'), 'utf8');
    expect(dts).toMatch(/export (interface|type) Money\b/);
    expect(dts).toContain('class OrderNotFoundError');
    await expect(stat(path.join(app, 'shared.idl.d.ts'))).rejects.toThrow(/ENOENT/);
  });

  test('tsc types the app with it: the result is a Money, a wrong field is an error', async () => {
    const tsc = path.join(repoRoot, 'node_modules/.bin/tsc');
    const typecheck = () =>
      promisify(execFile)(tsc, ['--noEmit', '-p', app], { cwd: app }).then(
        ({ stdout }) => stdout,
        (error: { stdout?: string }) => `failed: ${error.stdout ?? ''}`,
      );
    expect(await typecheck()).toBe('');
    await writeFile(
      path.join(app, 'wrong-field.js'),
      "// @ts-check\n/** @type {import('./shop.idl').Money} */\nexport const price = { amount: 1, currency: 'EUR', cents: 2 };\n",
    );
    expect(await typecheck()).toMatch(/wrong-field\.js\(3,\d+\): error TS2353: .*'cents'/);
  });
});

/**
 * Waits until the latest build of `session` passes `accept` (a watcher may build more than once for
 * one edit); fails listing the builds seen when none does within a minute.
 */
async function untilLatestBuild(
  session: WatchSession,
  accept: (build: WatchBuild) => Promise<boolean>,
  describeOutput: () => Promise<unknown> = async () => undefined,
): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const latest = session.builds.at(-1);
    if (latest && (await accept(latest))) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const output = JSON.stringify(await describeOutput());
  throw new Error(`no build as expected within a minute; builds: ${JSON.stringify(session.builds, null, 1)}; output: ${output}`);
}

describe.each(BUNDLERS)('%s in watch mode', (bundler: Bundler) => {
  let app: string;
  let sharedFile: string;
  let session: WatchSession | undefined;
  let outDir: string;
  let lastBundle: { text: string; currencies?: string } | undefined;

  /** The currencies of the bundle on disk now (each new bundle text loaded once), joined by commas. */
  async function currencies(): Promise<string | undefined> {
    try {
      const bundle = await bundleOf(bundler, outDir);
      const text = await readFile(bundle.bundleFile, 'utf8');
      if (lastBundle?.text !== text) lastBundle = { text, currencies: (await loadBundle<MergedApp>(bundle)).currencies.join(',') };
      return lastBundle.currencies;
    } catch {
      return undefined; // being written
    }
  }

  const succeededWith = (expected: string) => async (build: WatchBuild) => build.error === undefined && (await currencies()) === expected;

  beforeAll(async () => {
    app = await copyFixture('imports', `imports/watch-${bundler}`);
    sharedFile = path.join(app, 'shared.idl');
    outDir = path.join(app, 'out');
    session = await startWatch(bundler, { root: app, entry: 'merged.js', outDir });
  });

  afterAll(async () => {
    await session?.close();
  });

  test('an edit of the imported file alone rebuilds; so does fixing it after it broke the build', async () => {
    await untilLatestBuild(session!, succeededWith('EUR,USD'));

    await writeFile(sharedFile, withCurrency('CHF'));
    await untilLatestBuild(session!, succeededWith('EUR,USD,CHF'));

    const lines = ORIGINAL_SHARED.split('\n');
    const line = lines.findIndex((text) => /^\s+amount\s+int$/.test(text)) + 1;
    lines[line - 1] = lines[line - 1].replace('int', 'innt');
    const column = lines[line - 1].indexOf('innt') + 1;
    await writeFile(sharedFile, lines.join('\n'));
    await untilLatestBuild(session!, async (build) => build.error?.includes(`shared.idl:${line}:${column}`) ?? false);

    await writeFile(sharedFile, withCurrency('GBP'));
    await untilLatestBuild(session!, succeededWith('EUR,USD,GBP'), currencies);
  });

  test('an edit of the importing file rebuilds too', async () => {
    // Rollup and Rolldown watch a module that a plugin loads only when the plugin says so.
    const shopFile = path.join(app, 'shop.idl');
    const shop = await readFile(shopFile, 'utf8');
    await writeFile(shopFile, shop.replace('raises(OrderNotFound)\n', 'raises(OrderNotFound)\n\n    cancelOrder(orderId string) bool\n'));
    const bundleText = async () => readFile((await bundleOf(bundler, outDir)).bundleFile, 'utf8').catch(() => '');
    await untilLatestBuild(
      session!,
      async (build) => build.error === undefined && (await bundleText()).includes('OrderService.cancelOrder'),
    );
  });
});
