/**
 * Large modules in parts (src/plugin/module-parts.ts): the fixture app with its checkout.idl grown
 * past MIN_IDL_BYTES_IN_PARTS, built with each bundler and host. Vite, Rolldown, esbuild, Rspack and
 * Rsbuild get the module as an index and three parts (their compile cache entry holds the parts),
 * Rollup, webpack, Farm and Bun in one piece; every bundle calls a real server and gets the typed
 * result and the declared error.
 */
import { open, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import type http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { MIN_IDL_BYTES_IN_PARTS } from '../../src/plugin/module-parts.js';
import { BUNDLERS, buildWith, type Bundler } from './harness/bundlers.js';
import { buildWithHost, HOSTS, type Host, hostBundleOf } from './harness/hosts.js';
import { startFixtureOrderServer } from './harness/order-server.js';
import { loadBundle } from './harness/run-bundle.js';
import type { BuildResult } from './harness/bundlers.js';
import { addressOf, closeServer, copyFixtureApp, freshDir, repoRoot } from './harness/workspace.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const TAKE_PARTS: ReadonlySet<Bundler | Host> = new Set(['vite', 'rolldown', 'esbuild', 'rspack', 'rsbuild']);

let out: string;
let rpc: http.Server;

/** Structs appended to the IDL until it is `bytes` long: what a large API's file holds. */
function fillerStructs(from: number, bytes: number): string {
  let text = '';
  for (let i = 0; from + text.length < bytes; i++) {
    text += `\n// Filler ${i}, so that the file is large.\nstruct Filler${i} {\n    name    string\n    count   int\n    values  []float\n}\n`;
  }
  return text;
}

/**
 * A copy of the fixture app with the large checkout.idl. One per bundler: each file is compiled once
 * in this process (then kept in memory), so each build's cache folder holds what that build asked for.
 */
async function largeApp(name: string): Promise<string> {
  const dir = await copyFixtureApp(`module-parts/${name}`);
  const idlFile = path.join(dir, 'checkout.idl');
  const idl = await readFile(idlFile, 'utf8');
  await writeFile(idlFile, idl + fillerStructs(idl.length, MIN_IDL_BYTES_IN_PARTS + 1024));
  return dir;
}

beforeAll(async () => {
  out = await freshDir('module-parts/out');
  rpc = await startFixtureOrderServer(await largeApp('server'));
});

afterAll(async () => {
  if (rpc) await closeServer(rpc);
});

/**
 * The parts of the module of `idlFile` in a compile cache folder (undefined: in one piece). Entries
 * are found by their file, which each begins with (the hosts' builds share the repository's folder,
 * which may hold entries of earlier runs: the newest is this build's).
 */
async function cachedParts(cacheDir: string, idlFile: string): Promise<string[] | undefined> {
  const found: { file: string; modified: number }[] = [];
  for (const name of await readdir(cacheDir)) {
    if (name.startsWith('doc-') || !name.endsWith('.json')) continue;
    const file = path.join(cacheDir, name);
    const handle = await open(file);
    try {
      const { buffer, bytesRead } = await handle.read(Buffer.alloc(2048), 0, 2048, 0);
      const head = buffer.subarray(0, bytesRead).toString('utf8');
      if (head.includes(`"file":${JSON.stringify(idlFile)},`)) found.push({ file, modified: (await handle.stat()).mtimeMs });
    } finally {
      await handle.close();
    }
  }
  expect(found.length).toBeGreaterThan(0);
  const newest = found.sort((a, b) => b.modified - a.modified)[0];
  const stored = JSON.parse(await readFile(newest.file, 'utf8')) as { entry: { parts?: { part: string }[] } };
  return stored.entry.parts?.map(({ part }) => part);
}

async function expectWorkingBundle(build: BuildResult) {
  const fixture = await loadBundle(build);
  expect(await fixture.runOrders(addressOf(rpc))).toEqual({
    status: 'paid',
    total: 42.5,
    createdAt: 1_700_000_000,
    declaredError: { name: 'CartNotFoundError', code: 1001, message: 'CartNotFound: no cart no-such-cart' },
  });
}

const expectedParts = (name: Bundler | Host) => (TAKE_PARTS.has(name) ? ['types', 'client', 'server'] : undefined);
const title = (name: Bundler | Host) =>
  `a large module ${TAKE_PARTS.has(name) ? 'in parts' : 'in one piece'}: the bundle calls a real server`;

describe.each(BUNDLERS)('%s', (bundler: Bundler) => {
  test(title(bundler), async () => {
    const cacheDir = path.join(out, `${bundler}-cache`);
    const app = await largeApp(bundler);
    const build = await buildWith(bundler, { root: app, entry: 'main.js', outDir: path.join(out, bundler), plugin: { cacheDir } });
    expect(await cachedParts(cacheDir, path.join(app, 'checkout.idl'))).toEqual(expectedParts(bundler));
    await expectWorkingBundle(build);
  });
});

describe.each(HOSTS)('%s', (host: Host) => {
  test(title(host), async () => {
    const app = await largeApp(host);
    await rm(path.join(app, 'two-idl.js')); // imports inventory.idl, which main.js does not build
    const outDir = path.join(out, host);
    const build = await buildWithHost(host, { root: app, entry: 'main.js', outDir });
    expect(build.code, build.output).toBe(0);
    // Built in a process of its own, with the default cache folder (the repository's).
    const cacheDir = path.join(repoRoot, 'node_modules/.cache/unplugin-idl-rpc');
    expect(await cachedParts(cacheDir, path.join(app, 'checkout.idl'))).toEqual(expectedParts(host));
    await expectWorkingBundle(hostBundleOf(host, outDir));
  });
});

test('an esbuild build that does not bundle gets the module in one piece (nothing would load the parts)', async () => {
  const app = await largeApp('esbuild-no-bundle');
  const { build } = await import('esbuild');
  const { default: idlRpc } = await import('../../src/plugin/esbuild.js');
  const result = await build({
    entryPoints: [path.join(app, 'checkout.idl')],
    bundle: false,
    write: false,
    format: 'esm',
    outdir: path.join(out, 'esbuild-no-bundle'),
    logLevel: 'silent',
    plugins: [idlRpc({ cacheDir: path.join(out, 'esbuild-no-bundle-cache'), openapi: false, openrpc: false })],
  });
  const [output] = result.outputFiles;
  expect(output.text).not.toContain('idlrpc-part');
  expect(output.text).toContain('function createCheckoutServer(');
});
