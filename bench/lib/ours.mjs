/**
 * Everything the benchmarks need from our own package, in one place: the built compiler, code
 * generator, runtime, OpenAPI converter and plugin entries from dist/ (run `npm run build` first).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { checkoutIdlPath, repoRoot } from './checkout.mjs';
import { cacheDir } from './load-ts.mjs';

const dist = path.join(repoRoot, 'dist');

/** Imports a built module of ours, with a clear message when the build is missing. */
export async function importBuilt(relative) {
  const file = path.join(dist, relative);
  if (!existsSync(file)) throw new Error(`${path.relative(repoRoot, file)} is missing: run \`npm run build\` first`);
  return import(pathToFileURL(file).href);
}

/** The checkout IDL (the playground's). */
export function checkoutIdl() {
  return { file: checkoutIdlPath, text: readFileSync(checkoutIdlPath, 'utf8') };
}

/** Options for generateModule, the same the plugin passes. */
export const generateOptions = (sourceFile) => ({
  runtimeImport: 'unplugin-idl-rpc/runtime/core',
  runtimeClientImport: 'unplugin-idl-rpc/runtime/client',
  sourceFile,
});

/**
 * compileIdl and generateModule, as the plugin runs them for one `.idl` in a build (without
 * `reuse`, so each generation is from scratch: src/codegen/phase-memo.ts).
 */
export async function compilerApi() {
  const { compileIdl } = await importBuilt('src/idl/index.js');
  const { generateModule } = await importBuilt('src/codegen/index.js');
  return { compileIdl, generateModule };
}

/** Browser entries of the client-size suite: the plain client, and batching with one interceptor. */
const clientEntries = {
  http: `import { CatalogServiceClient } from './checkout.idl';
import { HttpTransport } from 'unplugin-idl-rpc/runtime/client';
const client = new CatalogServiceClient(new HttpTransport('/rpc'));
client.getProduct('kettle').then(console.log);
`,
  batching: `import { CatalogServiceClient } from './checkout.idl';
import { BatchingTransport } from 'unplugin-idl-rpc/runtime/client';
const auth = (next) => (call) => next({ ...call, headers: { ...call.headers, authorization: 'Bearer t' } });
const client = new CatalogServiceClient(new BatchingTransport('/rpc', { interceptors: [auth] }));
Promise.all([client.getProduct('kettle'), client.listProducts()]).then(console.log);
`,
};

/**
 * The generated checkout module (what `import ... from './checkout.idl'` gives), written to
 * bench/.cache/ inside this package so its `unplugin-idl-rpc/runtime` imports resolve to dist/.
 * Returns `{ file, module }`.
 */
export async function importGeneratedCheckout() {
  const { compileIdl, generateModule } = await compilerApi();
  const { file, text } = checkoutIdl();
  const { js } = generateModule(compileIdl(text, file), generateOptions('checkout.idl'));
  mkdirSync(cacheDir, { recursive: true });
  const out = path.join(cacheDir, 'checkout.idl.generated.mjs');
  writeFileSync(out, js);
  return { file: out, module: await import(pathToFileURL(out).href) };
}

/** The generated module of an IDL given as text (`name`: its cache file's name). */
export async function importGeneratedIdl(name, text) {
  const { compileIdl, generateModule } = await compilerApi();
  const { js } = generateModule(compileIdl(text, `${name}.idl`), generateOptions(`${name}.idl`));
  mkdirSync(cacheDir, { recursive: true });
  const out = path.join(cacheDir, `${name}.idl.generated.mjs`);
  writeFileSync(out, js);
  return import(pathToFileURL(out).href);
}

/** Our validator table for the checkout IDL: the generated one (checks compiled ahead of time). */
export async function loadOurValidatorTable() {
  const { module } = await importGeneratedCheckout();
  return { table: module.validators, source: 'generated module (validators compiled ahead of time)' };
}

/**
 * The checkout server core as a user builds it from the generated module, validation on both ways;
 * `options` adds server options (the in-process suite's middleware rows pass `middleware`).
 */
export async function createOurCheckoutCore(handlers, options = {}) {
  const { module } = await importGeneratedCheckout();
  return module.createCheckoutServer(handlers, { validateRequests: true, validateResponses: true, ...options });
}

/** That core behind our Node adapter. */
export async function createOurCheckoutServer(handlers) {
  const { createNodeListener } = await importBuilt('runtime/index.js');
  return http.createServer(createNodeListener(await createOurCheckoutCore(handlers)));
}

/**
 * Writes the entry of a client-size bundle (`http`: one getProduct call through the generated
 * client; `batching`: two calls through BatchingTransport with one interceptor) into `dir` and returns it with the esbuild plugin that turns `./checkout.idl` into JavaScript.
 */
export async function ourClientEntry(dir, variant = 'http') {
  const { default: idlRpc } = await importBuilt('src/plugin/esbuild.js');
  writeFileSync(path.join(dir, 'checkout.idl'), checkoutIdl().text);
  const entryFile = path.join(dir, `ours-${variant}.js`);
  writeFileSync(entryFile, clientEntries[variant]);
  return { entryFile, plugins: [idlRpc({ dts: false, openapi: false })] };
}
