/**
 * Client size: a browser bundle (esbuild, bundle + minify, platform browser) whose whole job is one
 * getProduct call, made with our generated client and with each peer's browser client; and ours
 * with BatchingTransport and one interceptor (the issue-24 goal: under 2.5 KB). The size
 * that counts is gzip (level 9) of the minified bundle.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { cacheDir } from '../lib/load-ts.mjs';
import { ourClientEntry } from '../lib/ours.mjs';

/** The same call everywhere: CatalogService.getProduct('kettle') POSTed to /rpc, result logged. */
const peerEntries = {
  jayson: `
import ClientBrowser from 'jayson/lib/client/browser/index.js';
const client = new ClientBrowser((request, callback) => {
  fetch('/rpc', { method: 'POST', headers: { 'content-type': 'application/json' }, body: request })
    .then((response) => response.text())
    .then((text) => callback(null, text), callback);
});
client.request('CatalogService.getProduct', ['kettle'], (error, response) => console.log(error ?? response.result));
`,
  'json-rpc-2.0': `
import { JSONRPCClient } from 'json-rpc-2.0';
const client = new JSONRPCClient((request) =>
  fetch('/rpc', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(request) })
    .then((response) => response.json())
    .then((response) => client.receive(response)),
);
client.request('CatalogService.getProduct', ['kettle']).then(console.log);
`,
};

/** Minified and gzipped bytes of the bundle of `entryFile`. */
async function bundleSize(entryFile, plugins) {
  const result = await build({
    entryPoints: [entryFile],
    bundle: true,
    minify: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    write: false,
    outdir: path.join(cacheDir, 'client-size', 'out'),
    plugins,
    logLevel: 'error',
  });
  const js = result.outputFiles.find((f) => f.path.endsWith('.js'));
  return { minified: js.contents.byteLength, gzipped: gzipSync(js.contents, { level: 9 }).byteLength };
}

/** Returns table rows: gzipped size of ours against each peer. */
export async function runClientSizeSuite() {
  const dir = path.join(cacheDir, 'client-size');
  mkdirSync(dir, { recursive: true });
  const sizes = {};
  for (const [name, source] of Object.entries(peerEntries)) {
    const file = path.join(dir, `${name}.js`);
    writeFileSync(file, source);
    sizes[name] = await bundleSize(file, []);
  }
  const ours = await ourClientEntry(dir);
  sizes.ours = await bundleSize(ours.entryFile, ours.plugins);
  const batching = await ourClientEntry(dir, 'batching');
  sizes.oursBatching = await bundleSize(batching.entryFile, batching.plugins);
  const rows = Object.keys(peerEntries).map((peer) => ({
    group: 'client',
    metric: 'client bundle, one getProduct call, minified + gzipped',
    unit: 'bytes',
    ours: sizes.ours.gzipped,
    peerName: peer,
    peer: sizes[peer].gzipped,
    higherIsBetter: false,
  }));
  rows.push({
    group: 'client',
    metric: 'client bundle, one getProduct call, minified + gzipped, against the 3 KB goal',
    unit: 'bytes',
    ours: sizes.ours.gzipped,
    peerName: 'goal',
    peer: 3072,
    higherIsBetter: false,
  });
  rows.push({
    group: 'client',
    metric: 'client bundle, BatchingTransport + one interceptor, two calls, minified + gzipped, against the 2.5 KB goal',
    unit: 'bytes',
    ours: sizes.oursBatching.gzipped,
    peerName: 'goal',
    peer: 2560,
    higherIsBetter: false,
  });
  return { rows, info: { sizes } };
}
