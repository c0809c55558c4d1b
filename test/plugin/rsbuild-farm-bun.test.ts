/**
 * The fixture app (test/plugin/fixtures/app) built with Rsbuild, Farm and Bun (`unplugin-idl-rpc/rsbuild`,
 * `/farm`, `/bun`), as bundlers.test.ts does for the six bundlers: each bundle calls a real server
 * and gets a typed result and the declared error, and `tsc` types the client and the server's
 * handlers with the `.idl.d.ts` the build wrote; openapi.json and openrpc.json sit next to it. A
 * broken .idl fails each build with file:line:column and the frame in the host's own output. Bun's
 * runtime imports the `.idl` directly through the preload named in bunfig.toml.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { promisify, stripVTControlCharacters } from 'node:util';
import { cp, readFile, rm } from 'node:fs/promises';
import type http from 'node:http';
import path from 'node:path';
import { validateOpenRPCDocument } from '@open-rpc/schema-utils-js';
import { waitForOutput } from '../child-process.js';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { buildWithHost, devBinary, HOSTS, type Host, hostBundleOf } from './harness/hosts.js';
import { openApiProblems } from './harness/openapi-validation.js';
import { startFixtureOrderServer } from './harness/order-server.js';
import { type FixtureApp, loadBundle } from './harness/run-bundle.js';
import { addressOf, closeServer, copyBrokenFixtureApp, copyFixtureApp, freshDir, repoRoot } from './harness/workspace.js';

// Builds run in child processes: generous limits for a busy 2-core CI machine (no timing is asserted).
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

let app: string;
let out: string;
let rpc: http.Server;
let baseAddress: string;
const apps = new Map<Host, FixtureApp>();

beforeAll(async () => {
  app = await copyFixtureApp('hosts/app');
  out = await freshDir('hosts/out');
  rpc = await startFixtureOrderServer(app);
  baseAddress = addressOf(rpc);
});

afterAll(async () => {
  if (rpc) await closeServer(rpc);
});

describe.each(HOSTS)('%s', (host: Host) => {
  test('the bundle calls a real server: typed result and declared error; openapi.json and openrpc.json are valid', async () => {
    const outDir = path.join(out, host);
    // A copy of its own: the checkout.idl.d.ts in it is this host's.
    const root = await copyFixtureApp(`hosts/app-${host}`);
    await rm(path.join(root, 'two-idl.js')); // imports inventory.idl, which main.js does not build
    const build = await buildWithHost(host, { root, entry: 'main.js', outDir });
    expect(build.code, build.output).toBe(0);
    // The .d.ts the host's build wrote types the client (main.js) and the server's handlers.
    const typeCheck = await promisify(execFile)(path.join(repoRoot, 'node_modules/.bin/tsc'), ['--noEmit', '-p', root]).then(
      () => '',
      (error: { stdout?: string; message: string }) => error.stdout || error.message,
    );
    expect(typeCheck).toBe('');

    const fixture = await loadBundle(hostBundleOf(host, outDir));
    apps.set(host, fixture);
    expect(await fixture.runOrders(baseAddress)).toEqual({
      status: 'paid',
      total: 42.5,
      createdAt: 1_700_000_000,
      declaredError: { name: 'CartNotFoundError', code: 1001, message: 'CartNotFound: no cart no-such-cart' },
    });

    const document = await readFile(path.join(outDir, 'openapi.json'), 'utf8');
    expect(JSON.parse(document)).toMatchObject({ info: { title: 'Checkout' }, paths: { '/OrderService/createOrder': { post: {} } } });
    expect(await openApiProblems(document)).toEqual([]);
    const openRpc = JSON.parse(await readFile(path.join(outDir, 'openrpc.json'), 'utf8'));
    expect(openRpc.methods.map((m: { name: string }) => m.name)).toContain('OrderService.createOrder');
    expect(validateOpenRPCDocument(openRpc)).toBe(true);
  });
});

describe('a broken .idl', () => {
  let broken: string;
  let line: number;
  let column: number;

  beforeAll(async () => {
    ({ dir: broken, line, column } = await copyBrokenFixtureApp('hosts/broken'));
  });

  test.each(HOSTS)('fails the %s build with file:line:column and the frame in its output', async (host) => {
    const build = await buildWithHost(host, { root: broken, entry: 'main.js', outDir: path.join(out, `broken-${host}`) });
    expect(build.code, `${host} build succeeded`).not.toBe(0);
    expect(build.output).toContain(`checkout.idl:${line}:${column}: error: unknown type 'floot'`);
    // The frame, as printed lines (not escaped into one line): the marked line and its caret
    // (Rsbuild draws a gutter, `│`, in front of the lines of an error, coloured when CI is set).
    expect(stripVTControlCharacters(build.output)).toMatch(new RegExp(`\\n[ │]*> ${line} \\|\\s+subtotal\\s+floot\\n[ │]*\\|\\s+\\^{5}`));
  });
});

describe("Bun's runtime with the preload in bunfig.toml", () => {
  let server: ChildProcess | undefined;

  afterAll(() => {
    server?.kill();
  });

  test('`bun run server.js` imports checkout.idl directly and answers the Bun-built client', async () => {
    const root = await copyFixtureApp('hosts/bun-runtime');
    await cp(path.join(repoRoot, 'test/plugin/fixtures/bun-runtime'), root, { recursive: true });
    server = spawn(devBinary('bun'), ['run', 'server.js'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    const address = (await waitForOutput(server, /listening on (\S+)/, 60_000, 'the Bun server'))[1];
    const client = apps.get('bun') ?? (await loadBundle<FixtureApp>(hostBundleOf('bun', path.join(out, 'bun'))));
    expect(await client.runOrders(address)).toEqual({
      status: 'paid',
      total: 42.5,
      createdAt: 1_700_000_000,
      declaredError: { name: 'CartNotFoundError', code: 1001, message: expect.stringContaining('no cart no-such-cart') },
    });
  });
});
