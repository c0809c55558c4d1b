/**
 * An `.idl` that imports another, with each of the six bundlers (test/plugin/fixtures/imports), in
 * two forms: shop.idl imports shared.idl, which has no namespace and is merged into it; orders.idl
 * imports common.idl, a namespace of its own with its own module. The bundle calls a real server
 * and gets the imported types and declared error; the `.idl.d.ts` files type the app. In watch
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

/** What merged.js and namespaced.js register. */
interface FixtureApp {
  runOrders(baseAddress: string): Promise<{ total: unknown; declaredError?: { name: string; code: number; message: string } }>;
  /** The Currency values of the imported file, as the importer's module has them. */
  currencies: string[];
}

/** One form of the fixture: the app's entry, the `.idl` it imports and the file that one imports. */
interface Variant {
  name: string;
  entry: string;
  /** The page Vite builds, whose script is `entry`. */
  page: string;
  importer: string;
  imported: string;
  /** The name of the declared error class (the message is `<IDL name>: <text>`). */
  errorClass: string;
  errorName: string;
}

const VARIANTS: Variant[] = [
  {
    name: 'merged',
    entry: 'merged.js',
    page: 'index.html',
    importer: 'shop.idl',
    imported: 'shared.idl',
    errorClass: 'OrderNotFoundError',
    errorName: 'OrderNotFound',
  },
  {
    name: 'namespaced',
    entry: 'namespaced.js',
    page: 'namespaced.html',
    importer: 'orders.idl',
    imported: 'common.idl',
    errorClass: 'NotFoundError',
    errorName: 'NotFound',
  },
];

const fixtureText = (file: string) => readFile(path.join(repoRoot, 'test/plugin/fixtures/imports', file), 'utf8');

/** The imported file's text with one more Currency value. */
function withCurrency(original: string, value: string): string {
  return original.replace('    USD\n', `    USD\n    ${value}\n`);
}

let out: string;

beforeAll(async () => {
  out = await freshDir('imports/out');
});

describe.each(VARIANTS)('$name import, built by each bundler', (variant: Variant) => {
  let app: string;
  let rpc: http.Server;
  let baseAddress: string;

  beforeAll(async () => {
    app = await copyFixture('imports', `imports/${variant.name}`);
    const importer = path.join(app, variant.importer);
    const server = createRpcServer({
      idl: toIdlJson(compileIdl(await readFile(importer, 'utf8'), importer)),
      handlers: {
        OrderService: {
          getOrder: (orderId: string) => {
            if (orderId === 'order-1') return { orderId, total: { amount: 4250, currency: 'EUR' } };
            throw new RpcError(3001, `${variant.errorName}: no order ${orderId}`);
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
    const build = await buildWith(bundler, {
      root: app,
      entry: variant.entry,
      page: variant.page,
      outDir: path.join(out, variant.name, bundler),
    });
    const fixture = await loadBundle<FixtureApp>(build);
    expect(fixture.currencies).toEqual(['EUR', 'USD']);
    expect(await fixture.runOrders(baseAddress)).toEqual({
      total: { amount: 4250, currency: 'EUR' },
      declaredError: { name: variant.errorClass, code: 3001, message: `${variant.errorName}: no order no-such-order` },
    });
  });

  test('the .idl.d.ts files: the importer holds what it declares; a merged file gets none, a namespace its own', async () => {
    const importerDts = await readFile(path.join(app, `${variant.importer}.d.ts`), 'utf8');
    expect(importerDts).toMatch(/export interface Order\b/);
    const importedDts = stat(path.join(app, `${variant.imported}.d.ts`));
    if (variant.name === 'merged') {
      expect(importerDts).toMatch(/export interface Money\b/);
      expect(importerDts).toContain('class OrderNotFoundError');
      await expect(importedDts).rejects.toThrow(/ENOENT/);
    } else {
      expect(importerDts).toContain("import type * as common from './common.idl';");
      expect(importerDts).toMatch(/total: common\.Money;/);
      expect((await importedDts).isFile()).toBe(true);
    }
  });

  test('tsc types the app with them: the result is a Money, a wrong field is an error', async () => {
    const tsc = path.join(repoRoot, 'node_modules/.bin/tsc');
    // This variant's files only: the other entry's `.idl` was not built here, so it has no `.d.ts`.
    const project = path.join(app, `tsconfig.${variant.name}.json`);
    await writeFile(project, JSON.stringify({ extends: './tsconfig.json', include: [variant.entry, 'wrong-field.js'] }));
    const typecheck = () =>
      promisify(execFile)(tsc, ['--noEmit', '-p', project], { cwd: app }).then(
        ({ stdout }) => stdout,
        (error: { stdout?: string }) => `failed: ${error.stdout ?? ''}`,
      );
    expect(await typecheck()).toBe('');
    await writeFile(
      path.join(app, 'wrong-field.js'),
      [
        '// @ts-check',
        `import { OrderServiceClient } from './${variant.importer}';`,
        "import { HttpTransport } from 'unplugin-idl-rpc/runtime/client';",
        '',
        "const order = await new OrderServiceClient(new HttpTransport('http://127.0.0.1:1')).getOrder('order-1');",
        '/** @type {string} */',
        'export const amount = order.total.amount;',
        '',
      ].join('\n'),
    );
    expect(await typecheck()).toMatch(/wrong-field\.js\(7,\d+\): error TS2322: Type 'number' is not assignable to type 'string'/);
  });
});

/**
 * Waits until the latest build of `session` passes `accept` (a watcher may build more than once for
 * one edit); fails listing the builds seen (and `describeOutput()`) when none does within a minute.
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

describe.each(VARIANTS.flatMap((variant) => BUNDLERS.map((bundler) => ({ variant, bundler }))))(
  '$variant.name import, $bundler in watch mode',
  ({ variant, bundler }: { variant: Variant; bundler: Bundler }) => {
    let app: string;
    let importedFile: string;
    let originalImported: string;
    let session: WatchSession | undefined;
    let outDir: string;
    let lastBundle: { text: string; currencies?: string } | undefined;

    /** The currencies of the bundle on disk now (each new bundle text loaded once), joined by commas. */
    async function currencies(): Promise<string | undefined> {
      try {
        const bundle = await bundleOf(bundler, outDir);
        const text = await readFile(bundle.bundleFile, 'utf8');
        if (lastBundle?.text !== text) lastBundle = { text, currencies: (await loadBundle<FixtureApp>(bundle)).currencies.join(',') };
        return lastBundle.currencies;
      } catch {
        return undefined; // being written
      }
    }

    const succeededWith = (expected: string) => async (build: WatchBuild) => build.error === undefined && (await currencies()) === expected;

    beforeAll(async () => {
      app = await copyFixture('imports', `imports/watch-${variant.name}-${bundler}`);
      importedFile = path.join(app, variant.imported);
      originalImported = await fixtureText(variant.imported);
      outDir = path.join(app, 'out');
      session = await startWatch(bundler, { root: app, entry: variant.entry, outDir });
    });

    afterAll(async () => {
      await session?.close();
    });

    test('an edit of the imported file alone rebuilds; so does fixing it after it broke the build', async () => {
      await untilLatestBuild(session!, succeededWith('EUR,USD'), currencies);

      await writeFile(importedFile, withCurrency(originalImported, 'CHF'));
      await untilLatestBuild(session!, succeededWith('EUR,USD,CHF'), currencies);

      const lines = originalImported.split('\n');
      const line = lines.findIndex((text) => /^\s+amount\s+int$/.test(text)) + 1;
      lines[line - 1] = lines[line - 1].replace('int', 'innt');
      const column = lines[line - 1].indexOf('innt') + 1;
      await writeFile(importedFile, lines.join('\n'));
      await untilLatestBuild(session!, async (build) => build.error?.includes(`${variant.imported}:${line}:${column}`) ?? false);

      await writeFile(importedFile, withCurrency(originalImported, 'GBP'));
      await untilLatestBuild(session!, succeededWith('EUR,USD,GBP'), currencies);
    });

    test('an edit of the importing file rebuilds too', async () => {
      // Rollup and Rolldown watch a module that a plugin loads only when the plugin says so.
      const importerFile = path.join(app, variant.importer);
      const importer = await readFile(importerFile, 'utf8');
      await writeFile(importerFile, importer.replace(/(raises\([\w.]+\)\n)/, '$1\n    cancelOrder(orderId string) bool\n'));
      const bundleText = async () => {
        try {
          return await readFile((await bundleOf(bundler, outDir)).bundleFile, 'utf8');
        } catch {
          return ''; // being written: the bundler clears its output folder before it writes again
        }
      };
      await untilLatestBuild(
        session!,
        async (build) => build.error === undefined && (await bundleText()).includes('OrderService.cancelOrder'),
      );
    });
  },
);
