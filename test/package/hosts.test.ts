/**
 * Rsbuild, Farm and Bun build the fixture app from the packed tarball, in a fresh app folder laid out
 * as a user's project: the tarball installed with npm, the app's own build script, bunfig.toml.
 * The hosts themselves are not downloaded again on every run: the repository's installed copies
 * (dev dependencies) are linked into the app's node_modules, as an install of them would place them.
 * The app's server runs under Bun's runtime, importing checkout.idl through the tarball's preload,
 * and answers each host's client bundle. The same server, bundled into one module with the tarball's
 * esbuild entry, runs under `deno serve` and workerd and answers the Rsbuild-built client.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { cpSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { waitForOutput } from '../child-process.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { REPO_ROOT } from '../cli/run-cli.js';
import { tempFolder } from '../hostile/harness.js';
import { checkoutIdlFile, fixtureApp } from '../plugin/harness/workspace.js';
import { buildWithHost, devBinary, HOSTS, type Host, hostBundleOf } from '../plugin/harness/hosts.js';
import { type FixtureApp, loadBundle } from '../plugin/harness/run-bundle.js';
import { serveWithDeno, serveWithWorkerd } from '../plugin/harness/fetch-runtimes.js';
import { packPackage } from './pack.js';

const run = promisify(execFile);
const project = tempFolder('idlrpc-hosts-');
let server: ChildProcess | undefined;
let address: string;

/** The hosts' packages, linked from the repository's node_modules (their own dependencies resolve there). */
const LINKED_PACKAGES = ['@rsbuild/core', '@farmfe/core', 'esbuild'];

beforeAll(async () => {
  const filename = basename(await packPackage(project.dir));
  writeFileSync(join(project.dir, 'package.json'), JSON.stringify({ name: 'hosts-user', version: '1.0.0', type: 'module', private: true }));
  // The dependencies are in npm's cache after the repository's own install.
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', `./${filename}`], { cwd: project.dir, timeout: 180_000 });
  for (const name of LINKED_PACKAGES) {
    mkdirSync(join(project.dir, 'node_modules', name, '..'), { recursive: true });
    symlinkSync(join(REPO_ROOT, 'node_modules', name), join(project.dir, 'node_modules', name), 'dir');
  }
  cpSync(fixtureApp, join(project.dir, 'app'), { recursive: true, filter: (source) => !/\.idl\.d\.ts(\.map)?$/.test(source) });
  cpSync(checkoutIdlFile, join(project.dir, 'app/checkout.idl'));
  cpSync(join(REPO_ROOT, 'test/plugin/fixtures/bun-runtime'), join(project.dir, 'app'), { recursive: true });
  cpSync(join(REPO_ROOT, 'test/plugin/fixtures/fetch-runtimes'), join(project.dir, 'app'), { recursive: true });
  // The build script lives in the project, so that it imports the hosts and the plugin from there.
  cpSync(join(REPO_ROOT, 'test/plugin/harness/host-build.mjs'), join(project.dir, 'build.mjs'));
  server = spawn(devBinary('bun'), ['run', 'server.js'], { cwd: join(project.dir, 'app'), stdio: ['ignore', 'pipe', 'pipe'] });
  address = (await waitForOutput(server, /listening on (\S+)/, 60_000, 'the Bun server'))[1];
}, 300_000);

afterAll(() => {
  server?.kill();
  project.remove();
});

describe.each(HOSTS)('%s, from the tarball in a fresh app folder', (host: Host) => {
  test("builds the fixture app, whose client gets a typed result and the declared error from the app's Bun server", async () => {
    const outDir = join(project.dir, `out-${host}`);
    const build = await buildWithHost(host, {
      root: join(project.dir, 'app'),
      entry: 'main.js',
      outDir,
      packageName: 'unplugin-idl-rpc',
      script: join(project.dir, 'build.mjs'),
      cwd: project.dir,
    });
    expect(build.code, build.output).toBe(0);
    const client = await loadBundle<FixtureApp>(hostBundleOf(host, outDir));
    expect(await client.runOrders(address)).toEqual({
      status: 'paid',
      total: 42.5,
      createdAt: 1_700_000_000,
      declaredError: { name: 'CartNotFoundError', code: 1001, message: 'CartNotFound: no cart no-such-cart' },
    });
  }, 120_000);
});

describe('the fetch handler from the tarball, bundled with its esbuild entry', () => {
  let bundle: string;
  const servers: ChildProcess[] = [];

  beforeAll(async () => {
    bundle = join(project.dir, 'app/dist/worker.js');
    const script = `
      import * as esbuild from 'esbuild';
      import idlRpc from 'unplugin-idl-rpc/esbuild';
      await esbuild.build({ entryPoints: ['app/worker.js'], bundle: true, format: 'esm', platform: 'neutral',
        outfile: ${JSON.stringify(bundle)}, logLevel: 'error', plugins: [idlRpc({ openapi: false, openrpc: false })] });`;
    writeFileSync(join(project.dir, 'build-worker.mjs'), script);
    await run(process.execPath, ['build-worker.mjs'], { cwd: project.dir, timeout: 120_000 });
  }, 180_000);

  afterAll(() => {
    for (const server of servers) server.kill();
  });

  test.each([
    ['deno serve', serveWithDeno],
    ['workerd', serveWithWorkerd],
  ] as const)(
    'under %s answers the Rsbuild-built client',
    async (_name, serve) => {
      const server = await serve(bundle, join(project.dir, 'app'));
      servers.push(server.process);
      // Built by the Rsbuild test above (tests of a file run in order).
      const client = await loadBundle<FixtureApp>(hostBundleOf('rsbuild', join(project.dir, 'out-rsbuild')));
      expect(await client.runOrders(server.address)).toEqual({
        status: 'paid',
        total: 42.5,
        createdAt: 1_700_000_000,
        declaredError: { name: 'CartNotFoundError', code: 1001, message: 'CartNotFound: no cart no-such-cart' },
      });
    },
    60_000,
  );
});
