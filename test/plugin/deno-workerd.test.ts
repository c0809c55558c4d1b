/**
 * The fetch handler where it claims to run: the fixture app's server (fixtures/fetch-runtimes/worker.js,
 * `export default { fetch }`) bundled into one ES module with this package's esbuild entry, served by
 * `deno serve` and by Cloudflare's workerd (a minimal config), each answering the fixture app's
 * generated client: a typed result and the declared error. Both binaries are dev dependencies.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { cp, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import idlRpcEsbuild from '../../src/plugin/esbuild.js';
import { buildWith } from './harness/bundlers.js';
import { devBinary } from './harness/hosts.js';
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
    child = spawn(devBinary('deno'), ['serve', '--host', '127.0.0.1', '--port', '0', workerFile], {
      cwd: app,
      env: { ...process.env, DENO_NO_UPDATE_CHECK: '1', DENO_DIR: path.join(app, '.deno'), NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const address = await printedAddress(child, /Listening on (http:\/\/\S+?)\/?(?:\s|$)/);
    expect(await client.runOrders(address)).toEqual(EXPECTED);
  });

  test("under Cloudflare's workerd answers a generated client", async () => {
    const port = await freePort();
    const config = path.join(app, 'config.capnp');
    await writeFile(config, workerdConfig(port));
    child = spawn(devBinary('workerd'), ['serve', config], { cwd: app, stdio: ['ignore', 'pipe', 'pipe'] });
    const address = `http://127.0.0.1:${port}`;
    await untilAnswering(child, address);
    expect(await client.runOrders(address)).toEqual(EXPECTED);
  });
});

/** A minimal workerd config: one ES-module worker on one HTTP socket. */
function workerdConfig(port: number): string {
  return `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [ (name = "main", worker = .worker) ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);

const worker :Workerd.Worker = (
  modules = [ (name = "worker.js", esModule = embed "dist/worker.js") ],
  compatibilityDate = "2025-01-01",
);
`;
}

/** A port free right now (workerd takes its port from the config). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** What a process prints first matching `pattern` (group 1); rejects with its output if it ends first. */
function printedAddress(server: ChildProcess, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = pattern.exec(output);
      if (match) resolve(match[1]);
    };
    server.stdout?.on('data', read);
    server.stderr?.on('data', read);
    server.on('exit', (code) => reject(new Error(`the server ended (exit ${code}) before listening:\n${output}`)));
  });
}

/** Resolves once `address` answers HTTP; rejects with the output if the process ends first. */
async function untilAnswering(server: ChildProcess, address: string): Promise<void> {
  let output = '';
  let exited: number | null | undefined;
  server.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  server.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  server.on('exit', (code) => (exited = code));
  for (;;) {
    if (exited !== undefined) throw new Error(`workerd ended (exit ${exited}) before answering:\n${output}`);
    const answered = await fetch(address, { method: 'OPTIONS' }).then(
      () => true,
      () => false,
    );
    if (answered) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
