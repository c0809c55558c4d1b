/**
 * The compile cache under real builds: two esbuild builds of one app at once, each in a process of
 * its own (the published entry, dist/), on one cache folder, both succeed and leave whole entries,
 * which a later build (a new process, as far as the cache can tell) reads instead of compiling (and
 * the finished documents, instead of converting). The Vite dev server writes an edited file's entry
 * after serving it, at the latest when it closes.
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, expect, test } from 'vitest';
import { compileCacheStats, compileIdlFileCached, resetCompileCache } from '../../src/plugin/compile-cache.js';
import { documentCacheStats, resetDocumentCache } from '../../src/plugin/document-cache.js';
import { resolveOptions } from '../../src/plugin/options.js';
import { buildWith, type BuildRequest } from './harness/bundlers.js';
import { startViteDevServer } from './harness/vite-dev.js';
import { copyFixture, repoRoot } from './harness/workspace.js';

let app: string;
let cacheDir: string;

beforeAll(async () => {
  app = await copyFixture('imports', 'compile-cache');
  cacheDir = path.join(app, 'idl-cache');
});

function request(outName: string): BuildRequest {
  return { root: app, entry: 'namespaced.js', outDir: path.join(app, outName), plugin: { cacheDir } };
}

/** An esbuild build of the app in a new Node process, with the built plugin. */
async function buildInChildProcess(outName: string): Promise<void> {
  const { root, entry, outDir, plugin } = request(outName);
  const script = `
    import { build } from 'esbuild';
    import idlRpc from 'unplugin-idl-rpc/esbuild';
    await build({
      entryPoints: [${JSON.stringify(path.join(root, entry))}], bundle: true, format: 'esm', platform: 'browser', minify: true,
      outfile: ${JSON.stringify(path.join(outDir, 'app.js'))}, logLevel: 'silent', plugins: [idlRpc(${JSON.stringify(plugin)})],
    });
  `;
  await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { cwd: repoRoot });
}

test('two builds at once on one cache folder both succeed; the next build compiles nothing', async () => {
  await Promise.all([buildInChildProcess('out-a'), buildInChildProcess('out-b')]);
  const bundleA = await readFile(path.join(app, 'out-a', 'app.js'), 'utf8');
  expect(await readFile(path.join(app, 'out-b', 'app.js'), 'utf8')).toBe(bundleA);
  // orders.idl and common.idl (loaded by the app, and compiled on its own for its .d.ts), and the
  // openapi.json and openrpc.json of the build: no temporary file left.
  const entries = await readdir(cacheDir);
  expect(entries.filter((name) => name.endsWith('.json') && !name.startsWith('doc-'))).toHaveLength(2);
  expect(entries.filter((name) => name.startsWith('doc-') && name.endsWith('.json'))).toHaveLength(2);
  expect(entries.filter((name) => !name.endsWith('.json'))).toEqual([]);
  for (const entry of entries) expect(() => JSON.parse(readFileSync(path.join(cacheDir, entry), 'utf8'))).not.toThrow();

  resetCompileCache();
  resetDocumentCache();
  await buildWith('esbuild', request('out-c'));
  expect(compileCacheStats.misses).toBe(0);
  expect(documentCacheStats).toEqual({ memoryHits: 0, diskHits: 2, misses: 0 });
  expect(compileCacheStats.diskHits).toBeGreaterThanOrEqual(2);
  expect(await readFile(path.join(app, 'out-c', 'app.js'), 'utf8')).toBe(bundleA);
  expect(JSON.parse(await readFile(path.join(app, 'out-c', 'openapi.json'), 'utf8'))).toEqual(
    JSON.parse(await readFile(path.join(app, 'out-a', 'openapi.json'), 'utf8')),
  );
});

test('the Vite dev server writes the entry of an edited .idl by the time it closes', async () => {
  const devApp = await copyFixture('imports', 'compile-cache-dev');
  const devCache = path.join(devApp, 'idl-cache');
  const orders = path.join(devApp, 'orders.idl');
  const { server, base } = await startViteDevServer(devApp, { cacheDir: devCache });
  try {
    expect((await fetch(`${base}/orders.idl?import`)).status).toBe(200);
    writeFileSync(orders, `${readFileSync(orders, 'utf8')}\nstruct EditedInDev {\n    at  int\n}\n`);
    await expect.poll(async () => (await fetch(`${base}/orders.idl?import`)).text(), { timeout: 30_000 }).toContain('EditedInDev');
  } finally {
    await server.close();
  }
  resetCompileCache();
  const compiled = await compileIdlFileCached(orders, resolveOptions({}).maxIdlBytes, devCache);
  expect(compiled.js).toContain('EditedInDev');
  expect(compileCacheStats).toEqual({ memoryHits: 0, diskHits: 1, misses: 0 });
});
