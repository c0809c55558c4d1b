/**
 * Shared helpers of the playground tests: Vite servers of the playground config, loading the
 * playground's modules (which import `checkout.idl`, so they need the plugin) through Vite's SSR
 * module runner, free ports, and Chromium.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, createServer, type ViteDevServer } from 'vite';
import { freePort, waitForOutput } from '../child-process.js';

export { freePort };

export const playgroundRoot = fileURLToPath(new URL('../../playground/', import.meta.url));
export const playgroundConfig = path.join(playgroundRoot, 'vite.config.ts');
export const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url));

// The handler module of the dev servers below keeps its data where the environment says: in these
// tests, in memory (one PGlite per test process), never in the developer's playground/.data or
// DATABASE_URL.
process.env.PLAYGROUND_DATA_DIR = ':memory:';
delete process.env.DATABASE_URL;

/** The environment for a playground script or server a test starts: its data in `dataDir` (default: in memory). */
export function playgroundEnv(dataDir = ':memory:'): Record<string, string> {
  return { PLAYGROUND_DATA_DIR: dataDir, DATABASE_URL: '' };
}

/**
 * The two builds of `npm run playground:build` (`page/` and `server/`) into a fresh folder of
 * `test-output/` named `<prefix>-...`: inside the repository, as playground/dist is, because the
 * server bundle imports the database clients from the repository's node_modules.
 */
export async function buildPlayground(prefix: string): Promise<string> {
  const testOutput = path.join(repositoryRoot, 'test-output');
  await mkdir(testOutput, { recursive: true });
  const outDir = await mkdtemp(path.join(testOutput, `${prefix}-`));
  await build({ configFile: playgroundConfig, logLevel: 'warn', build: { outDir: path.join(outDir, 'page') } });
  await build({ configFile: playgroundConfig, logLevel: 'warn', build: { ssr: true, outDir: path.join(outDir, 'server') } });
  return outDir;
}

/** Starts the server bundle `buildPlayground` wrote, on a free port with its data in memory; the caller kills it. */
export async function startBuiltServer(outDir: string): Promise<{ server: ChildProcess; url: string }> {
  const port = await freePort();
  const server = spawn(process.execPath, [path.join(outDir, 'server', 'main.js')], {
    env: { ...process.env, ...playgroundEnv(), SERVER_PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await waitForOutput(server, /listening on/, 20_000, 'the standalone server');
  return { server, url: `http://127.0.0.1:${port}` };
}

/** The generated module of checkout.idl, and the playground modules the tests drive. */
export type CheckoutIdl = typeof import('../../playground/checkout.idl');
export type ServerStart = typeof import('../../playground/server/start.js');
export type CheckoutServiceModule = typeof import('../../playground/service/checkout-service.js');
export type RuntimeClient = typeof import('../../runtime/client.js');

export interface PlaygroundModules {
  vite: ViteDevServer;
  /** Imports a module of the playground (a path from its root, or a package specifier) through Vite. */
  load<T>(id: string): Promise<T>;
  close(): Promise<void>;
}

/** A Vite server of the playground config without HTTP (middleware mode), used to run its modules. */
export async function playgroundModules(): Promise<PlaygroundModules> {
  const vite = await createServer({
    configFile: playgroundConfig,
    logLevel: 'warn',
    appType: 'custom',
    server: { middlewareMode: true, hmr: false, ws: false, watch: null },
  });
  const runner = (vite.environments.ssr as unknown as { runner: { import(id: string): Promise<unknown> } }).runner;
  return {
    vite,
    load: async <T>(id: string) => (await runner.import(id)) as T,
    close: () => vite.close(),
  };
}

/** A Vite dev server of the playground listening on 127.0.0.1 and a free port; resolves to its address. */
export async function playgroundDevServer(): Promise<{ vite: ViteDevServer; url: string }> {
  const port = await freePort();
  const vite = await createServer({
    configFile: playgroundConfig,
    logLevel: 'warn',
    server: { host: '127.0.0.1', port, strictPort: true, watch: null },
  });
  await vite.listen();
  return { vite, url: `http://127.0.0.1:${port}/` };
}
