/**
 * The Vite dev server with an `.idl` that imports another (test/plugin/fixtures/imports: shop.idl
 * imports shared.idl, merged; orders.idl imports the namespace common.idl): an edit of the imported
 * file alone is served without a restart, in the browser's module, the RPC endpoint and
 * /openapi.json; an imported file that breaks the module reaches the overlay with its own
 * file:line:column, and fixing it is served.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { callRpc, eventually } from './harness/http.js';
import { startViteDevServer } from './harness/vite-dev.js';
import { copyFixture } from './harness/workspace.js';

// Builds and tools run in this file: generous limits for a busy 2-core CI machine (no timing is asserted).
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

let app: string;
let sharedFile: string;
let originalShared: string;
let server: ViteDevServer;
let base: string;
let rpcUrl: string;

/** The module the browser gets for `import './shop.idl'`. */
const servedShop = async () => (await fetch(`${base}/shop.idl?import`)).text();

beforeAll(async () => {
  app = await copyFixture('imports', 'vite-dev-imports/app');
  sharedFile = path.join(app, 'shared.idl');
  originalShared = await readFile(sharedFile, 'utf8');
  ({ server, base } = await startViteDevServer(app, { server: { idl: 'shop.idl', handlers: 'server/handlers.js' } }));
  rpcUrl = `${base}/rpc`;
});

afterAll(async () => {
  await server?.close();
});

describe('vite dev server, an .idl importing another', () => {
  test('an edit of the imported file alone is served: module, RPC endpoint and openapi.json', async () => {
    expect(await servedShop()).toContain("USD: 'USD'");
    expect(await servedShop()).not.toContain('CHF');
    // The handler prices this order in CHF, which shared.idl does not declare yet: the result is invalid.
    expect((await callRpc(rpcUrl, 'OrderService.getOrder', ['order-chf'])).error).toBeDefined();
    expect((await callRpc(rpcUrl, 'OrderService.getOrder', ['order-1'])).result).toEqual({
      orderId: 'order-1',
      total: { amount: 4250, currency: 'EUR' },
    });

    await writeFile(sharedFile, originalShared.replace('    USD\n', '    USD\n    CHF\n'));
    expect(await eventually(servedShop, (code) => code.includes("CHF: 'CHF'"))).toContain("CHF: 'CHF'");
    const answer = await eventually(
      () => callRpc(rpcUrl, 'OrderService.getOrder', ['order-chf']),
      (a) => a.result !== undefined,
    );
    expect(answer.result).toEqual({ orderId: 'order-chf', total: { amount: 3900, currency: 'CHF' } });
    expect(await (await fetch(`${base}/openapi.json`)).text()).toContain('"CHF"');
  });

  test('an imported file that breaks the module reaches the overlay with its own file:line:column; fixing it is served', async () => {
    const lines = originalShared.split('\n');
    const line = lines.findIndex((text) => /^\s+amount\s+int$/.test(text)) + 1;
    lines[line - 1] = lines[line - 1].replace('int', 'innt');
    const column = lines[line - 1].indexOf('innt') + 1;
    await writeFile(sharedFile, lines.join('\n'));

    // What Vite's overlay shows is the error of the module's transform.
    const client = server.environments.client;
    const error = await eventually(
      () =>
        client.transformRequest('/shop.idl').then(
          () => undefined,
          (e: unknown) => e as { message: string; loc?: { file?: string; line: number }; frame?: string },
        ),
      (e) => e !== undefined,
    );
    expect(error?.message).toContain(`shared.idl:${line}:${column}`);
    expect(error?.loc).toMatchObject({ file: sharedFile, line });
    expect(error?.frame).toContain('amount    innt');
    const rpcFailure = await eventually(
      () => callRpc(rpcUrl, 'OrderService.getOrder', ['order-1']),
      (a) => a.error !== undefined,
    );
    expect(rpcFailure.error?.message).toContain(`shared.idl:${line}:${column}`);

    await writeFile(sharedFile, originalShared.replace('    USD\n', '    USD\n    GBP\n'));
    expect(await eventually(servedShop, (code) => code.includes("GBP: 'GBP'"))).toContain("GBP: 'GBP'");
    const served = await eventually(
      () => callRpc(rpcUrl, 'OrderService.getOrder', ['order-1']),
      (a) => a.result !== undefined,
    );
    expect(served.result).toEqual({ orderId: 'order-1', total: { amount: 4250, currency: 'EUR' } });
  });

  test('an imported namespace: an edit of its file alone reaches the importer module too (its copies of the schemas)', async () => {
    const commonFile = path.join(app, 'common.idl');
    const servedOrders = async () => (await fetch(`${base}/orders.idl?import`)).text();
    const orders = await servedOrders();
    expect(orders).toContain('import * as common from "/common.idl?import";');
    expect(orders).not.toContain("Type.Literal('CHF')");

    await writeFile(commonFile, (await readFile(commonFile, 'utf8')).replace('    USD\n', '    USD\n    CHF\n'));
    expect(await eventually(servedOrders, (code) => code.includes("Type.Literal('CHF')"))).toContain("Type.Literal('CHF')");
  });
});
