/**
 * The fetch handler where it claims to run: the fixture app's server (fixtures/fetch-runtimes/worker.js,
 * `export default { fetch }`) bundled into one ES module with this package's esbuild entry, served by
 * `deno serve` and by Cloudflare's workerd (a minimal config), each answering the fixture app's
 * generated client: a typed result and the declared error. Both binaries are dev dependencies.
 */
import type { ChildProcess } from 'node:child_process';
import { cp } from 'node:fs/promises';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import idlRpcEsbuild from '../../src/plugin/esbuild.js';
import { buildWith } from './harness/bundlers.js';
import { serveWithDeno, serveWithWorkerd } from './harness/fetch-runtimes.js';
import { type FixtureApp, loadBundle } from './harness/run-bundle.js';
import { copyFixtureApp, repoRoot } from './harness/workspace.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

let app: string;
let workerFile: string;
let client: FixtureApp;
let child: ChildProcess | undefined;

const EXPECTED = {
  status: 'paid',
  total: 42.5,
  createdAt: 1_700_000_000,
  declaredError: { name: 'CartNotFoundError', code: 1001, message: 'CartNotFound: no cart no-such-cart' },
};

beforeAll(async () => {
  app = await copyFixtureApp('fetch-runtimes/app');
  await cp(path.join(repoRoot, 'test/plugin/fixtures/fetch-runtimes'), app, { recursive: true });
  // One ES module holding the generated server, the runtime and the handlers: what workerd runs.
  workerFile = path.join(app, 'dist/worker.js');
  await esbuild.build({
    entryPoints: [path.join(app, 'worker.js')],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    outfile: workerFile,
    logLevel: 'silent',
    plugins: [idlRpcEsbuild({ openapi: false, openrpc: false })],
  });
  client = await loadBundle(await buildWith('esbuild', { root: app, entry: 'main.js', outDir: path.join(app, 'client') }));
});

afterEach(() => {
  child?.kill();
  child = undefined;
});

describe('the fetch handler', () => {
  test('under `deno serve` answers a generated client', async () => {
    const server = await serveWithDeno(workerFile, app);
    child = server.process;
    expect(await client.runOrders(server.address)).toEqual(EXPECTED);
  });

  test("under Cloudflare's workerd answers a generated client", async () => {
    const server = await serveWithWorkerd(workerFile, app);
    child = server.process;
    expect(await client.runOrders(server.address)).toEqual(EXPECTED);
  });
});
