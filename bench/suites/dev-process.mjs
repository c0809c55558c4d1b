/**
 * One Vite dev server in a fresh process, on a fresh copy of a bench app (bench/lib/build-apps.mjs).
 *   node dev-process.mjs '<job as JSON>'
 * The job: `{ mode, variant, appDir, entryUrl, editFile, editedUrl, editKind, edits }` (`editKind`:
 * `idl`, `idl-field` or `ts`, see `edited`).
 *
 * - `timing`: from the start of the process (`performance.now()`, whose origin is the process start:
 *   Node, loading Vite and our plugin, createServer, listen) until `entryUrl` and every module it
 *   imports are served over HTTP (the imports are read from Vite's module graph once a module is
 *   served, as a browser would find them in the code); then `edits` edits of `editFile`, each timed
 *   from the write until `editedUrl` (the module of that file) is served with the edit in it. Prints
 *   `{"startMs":N,"editMs":[...],"modules":N,"restarts":N}`.
 * - `memory`: serves `entryUrl`, makes `edits` edits, each awaited until served, then collects
 *   garbage (the process runs with --expose-gc) and prints the resident memory:
 *   `{"rssMb":N,"rssBeforeEditsMb":N}`.
 * - `page`: loads `entryUrl` (an HTML page) in Chromium and prints the number of JavaScript modules
 *   it loaded: `{"modules":N,"method":"Chromium"}`; without Chromium, crawls the page's entry
 *   module through the module graph instead: `{"modules":N,"method":"module graph"}`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromiumArgs, chromiumAvailable, chromiumPath } from '../lib/chromium.mjs';
import { repoRoot } from '../lib/checkout.mjs';

const job = JSON.parse(process.argv[2] ?? '{}');
if (!['timing', 'memory', 'page'].includes(job.mode) || !job.appDir || !job.entryUrl) {
  console.error(`usage: dev-process.mjs '{"mode":"timing|memory|page","variant":...,"appDir":...,"entryUrl":...}'`);
  process.exit(2);
}

/** The dev server on 127.0.0.1 and a free port, with our plugin (default options) for the plugin variant. */
async function startServer() {
  const { createServer } = await import('vite');
  const plugins = [];
  if (job.variant === 'plugin') {
    const { default: idlRpc } = await import(pathToFileURL(path.join(repoRoot, 'dist', 'src', 'plugin', 'vite.js')).href);
    plugins.push(idlRpc());
  }
  const server = await createServer({
    configFile: false,
    root: job.appDir,
    // In the app folder (Vite would pick the package's node_modules), so every fresh copy starts
    // without pre-bundled dependencies.
    cacheDir: path.join(job.appDir, 'node_modules', '.vite'),
    logLevel: 'silent',
    server: { host: '127.0.0.1', port: 0 },
    plugins,
  });
  await server.listen();
  return { server, base: `http://127.0.0.1:${server.httpServer.address().port}` };
}

/** GETs `url`; resolves with the status and text. */
async function get(base, url) {
  const response = await fetch(base + url);
  return { status: response.status, text: await response.text() };
}

/**
 * Serves `entryUrl` and, breadth first, every module it imports (static and dynamic, as Vite's
 * module graph records them once a module has been transformed). A 504 means Vite re-ran its
 * dependency optimizer and the URLs served so far are stale (a browser reloads the page): the
 * crawl starts over. Resolves with the number of modules and of restarts.
 */
async function serveWithImports(server, base, entryUrl) {
  const graph = server.environments.client.moduleGraph;
  for (let restarts = 0; restarts < 5; restarts++) {
    const seen = new Set();
    const queue = [entryUrl];
    let stale = false;
    while (queue.length > 0 && !stale) {
      const url = queue.shift();
      if (seen.has(url)) continue;
      seen.add(url);
      const { status, text } = await get(base, url);
      if (status === 504) stale = true;
      else if (status !== 200) throw new Error(`${url} answered ${status}: ${text.slice(0, 300)}`);
      else {
        const node = await graph.getModuleByUrl(url);
        if (!node) throw new Error(`${url} was served but is not in Vite's module graph`);
        for (const imported of node.importedModules) queue.push(imported.url);
      }
    }
    if (!stale) return { modules: seen.size, restarts };
  }
  throw new Error(`${entryUrl}: Vite kept re-optimizing dependencies`);
}

/** The edit number `n` of the original text, and the text that shows it was served. */
function edited(original, n) {
  // The .idl gets a struct at its end (`idl`) or a field in the struct nearest its middle
  // (`idl-field`: one the methods reach, in the large IDL); the plugin then generates the module
  // again, reusing what the edit left as it was. The generated TypeScript gets a line (Vite
  // transforms that one file again).
  if (job.editKind === 'idl-field') {
    const marker = `benchEdit${n}`;
    const middle = original.indexOf('\nstruct ', original.length >> 1);
    const body = original.indexOf('{\n', middle) + 2;
    return { text: `${original.slice(0, body)}    ${marker} int [optional]\n${original.slice(body)}`, marker };
  }
  const marker = `BenchEdit${n}`;
  const text =
    job.editKind === 'idl'
      ? `${original}\nstruct ${marker} {\n    value int\n}\n`
      : `${original}\nexport const benchEdit${n} = '${marker}';\n`;
  return { text, marker };
}

/** Writes edit `n` and polls `editedUrl` until it is served with it; resolves with the milliseconds. */
async function editUntilServed(base, original, n) {
  const { text, marker } = edited(original, n);
  // Vite's file watcher drops a change that comes a few milliseconds after the previous one was
  // served, as no editor would; a pause (not timed) between edits keeps every edit seen.
  await new Promise((resolve) => setTimeout(resolve, EDIT_PAUSE_MS));
  const start = performance.now();
  writeFileSync(job.editFile, text);
  for (;;) {
    const served = await get(base, job.editedUrl);
    if (served.status === 200 && served.text.includes(marker)) return performance.now() - start;
    if (performance.now() - start > 60_000) throw new Error(`${job.editedUrl} not served with ${marker} 60 s after the edit`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const EDIT_PAUSE_MS = 100;
const rssMb = () => process.memoryUsage().rss / 2 ** 20;

if (job.mode === 'timing') {
  const { server, base } = await startServer();
  const { modules, restarts } = await serveWithImports(server, base, job.entryUrl);
  const startMs = performance.now();
  const original = readFileSync(job.editFile, 'utf8');
  const editMs = [];
  for (let n = 1; n <= job.edits; n++) editMs.push(await editUntilServed(base, original, n));
  console.log(JSON.stringify({ startMs, editMs, modules, restarts }));
  await server.close();
} else if (job.mode === 'memory') {
  if (typeof globalThis.gc !== 'function') throw new Error('run with --expose-gc');
  const { server, base } = await startServer();
  await serveWithImports(server, base, job.entryUrl);
  globalThis.gc();
  const rssBeforeEditsMb = rssMb();
  const original = readFileSync(job.editFile, 'utf8');
  for (let n = 1; n <= job.edits; n++) await editUntilServed(base, original, n);
  globalThis.gc();
  console.log(JSON.stringify({ rssMb: rssMb(), rssBeforeEditsMb }));
  await server.close();
} else {
  const { server, base } = await startServer();
  if (chromiumAvailable()) {
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
    try {
      const page = await browser.newPage();
      const scripts = new Set();
      page.on('response', (response) => {
        if (response.request().resourceType() === 'script' && response.url().startsWith(base)) scripts.add(response.url());
      });
      const errors = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(base + job.entryUrl, { waitUntil: 'networkidle' });
      const ready = await page.evaluate(() => globalThis.benchClientReady === true);
      if (!ready || errors.length > 0) throw new Error(`the page did not run: ${errors.join('; ') || 'benchClientReady not set'}`);
      console.log(JSON.stringify({ modules: scripts.size, method: 'Chromium' }));
    } finally {
      await browser.close();
    }
  } else {
    const entry = /<script type="module" src="([^"]+)"/.exec(readFileSync(path.join(job.appDir, job.entryUrl), 'utf8'))?.[1];
    if (!entry) throw new Error(`${job.entryUrl} has no module script`);
    const { modules } = await serveWithImports(server, base, entry);
    console.log(JSON.stringify({ modules, method: 'module graph' }));
  }
  await server.close();
}
// Vite's watcher and the optimizer's workers may linger; the figures are printed.
process.exit(0);
