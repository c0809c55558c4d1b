/**
 * The npm scripts as a user runs them: `npm run playground` prints where to go and serves page,
 * RPC and OpenAPI; `npm run playground:server` builds and starts the standalone server on SERVER_PORT.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, playgroundEnv, repositoryRoot } from './harness.js';

// Each script builds the package first (its pre-script) on a busy 2-core machine: generous limits
// (no timing is asserted).
vi.setConfig({ testTimeout: 150_000 });

const started: ChildProcess[] = [];
let dataDir = '';

beforeEach(async () => {
  // Each script keeps its PGlite data in a folder of its own (never the developer's playground/.data).
  dataDir = await mkdtemp(path.join(tmpdir(), 'playground-data-'));
});

afterEach(async () => {
  // npm starts the real server as its child: stop the whole process group this test created.
  const exits = started.splice(0).map(async (child) => {
    if (child.exitCode !== null || child.pid === undefined) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-child.pid, 'SIGTERM');
    await exited;
  });
  await Promise.all(exits);
  await rm(dataDir, { recursive: true, force: true });
});

/** Runs `npm run <script>` in its own process group and resolves with its output once `ready` shows up. */
function runScript(script: string, args: string[], env: Record<string, string>, ready: RegExp): Promise<string> {
  const child = spawn('npm', ['run', '--silent', script, ...(args.length ? ['--', ...args] : [])], {
    cwd: repositoryRoot,
    env: { ...process.env, ...env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  started.push(child);
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`npm run ${script} was not ready in time:\n${output}`)), 120_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (ready.test(output)) {
        clearTimeout(timer);
        resolve(output);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`npm run ${script} exited with ${code}:\n${output}`));
    });
  });
}

const listProducts = { jsonrpc: '2.0', id: 1, method: 'CatalogService.listProducts' };
/** A JSON-RPC POST as clients send it (the server answers 415 to a body that is not labelled JSON). */
const postJson = (url: string, message: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(message) });

it('npm run playground prints the address and serves the page, /rpc and /openapi.json', async () => {
  const port = await freePort();
  const output = await runScript(
    'playground',
    ['--host', '127.0.0.1', '--port', String(port), '--strictPort'],
    playgroundEnv(), // in memory: the folder's first start (a few seconds) is paid by playground:server below
    /OpenAPI document:/,
  );
  const base = `http://127.0.0.1:${port}/`;
  expect(output).toContain(`Checkout playground: open ${base}`);

  const page = await fetch(base);
  expect(await page.text()).toContain('data-testid="product-grid"');
  const rpc = await postJson(`${base}rpc`, listProducts);
  expect(((await rpc.json()) as { result: unknown[] }).result).toHaveLength(12);
  const openapi = await fetch(`${base}openapi.json`);
  expect(((await openapi.json()) as { openapi: string }).openapi).toMatch(/^3\./);
  expect(output).toContain(`API reference:       ${base}__idl/docs`);
  expect(await (await fetch(`${base}__idl/docs`)).text()).toContain('data-rpc-path="/rpc"');
});

it('npm run playground:server builds and starts the standalone server on SERVER_PORT, with CORS for CORS_ORIGINS', async () => {
  const port = await freePort();
  const output = await runScript(
    'playground:server',
    [],
    { ...playgroundEnv(dataDir), SERVER_PORT: String(port), CORS_ORIGINS: 'http://localhost:5173, https://shop.test' },
    /Data: .*\n/,
  );
  expect(output).toContain(`listening on http://localhost:${port}/`);
  expect(output).toContain(`Data: PGlite in ${dataDir}`);
  expect(output).toContain('Pages on http://localhost:5173, https://shop.test may call it (CORS_ORIGINS)');
  const preflight = (origin: string) =>
    fetch(`http://127.0.0.1:${port}/rpc`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST' } });
  const allowed = await preflight('https://shop.test');
  expect(allowed.status).toBe(204);
  expect(allowed.headers.get('access-control-allow-origin')).toBe('https://shop.test');
  expect((await preflight('https://evil.test')).status).toBe(405);

  const rpc = await postJson(`http://127.0.0.1:${port}/rpc`, listProducts);
  expect(((await rpc.json()) as { result: unknown[] }).result).toHaveLength(12);
  expect((await postJson(`http://127.0.0.1:${port}/some/path`, listProducts)).status).toBe(404);
  expect(await (await fetch(`http://127.0.0.1:${port}/__idl/docs`)).text()).toContain('data-rpc-path="/"');
});
