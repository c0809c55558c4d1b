/**
 * Loading a bundler plugin costs little: importing `unplugin-idl-rpc/<bundler>` and making the
 * plugin loads neither the compiler nor its heavy dependencies (TypeBox, whose compiler the
 * generator runs; yaml, which only OpenAPI input needs). They load when the first `.idl` is compiled,
 * from the bundles the build makes of the plugin (src/build/bundle-plugin.mjs): the compiler part
 * is one script, which the plugin runs with `vm.Script` (src/plugin/compiler-part-loader.ts).
 * Checked in a fresh Node process (the published entries, dist/) with a module hook that records
 * every module loaded, and every script compiled with `vm.Script`.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, expect, test } from 'vitest';
import { BUNDLERS } from './harness/bundlers.js';
import { repoRoot } from './harness/workspace.js';

const folder = mkdtempSync(path.join(tmpdir(), 'idl-start-up-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/**
 * `--import` module: registers a load hook that appends every module URL to LOADED_LOG, and has
 * `vm.Script` append the URL of each script it compiles.
 */
const recorder = `data:text/javascript,${encodeURIComponent(`
import { register, syncBuiltinESMExports } from 'node:module';
import { appendFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';
register('data:text/javascript,' + encodeURIComponent(\`
  import { appendFileSync } from 'node:fs';
  export async function load(url, context, next) {
    appendFileSync(process.env.LOADED_LOG, url + '\\\\n');
    return next(url, context);
  }
\`));
vm.Script = class extends vm.Script {
  constructor(code, options) {
    appendFileSync(process.env.LOADED_LOG, pathToFileURL(options.filename).href + '\\n');
    super(code, options);
  }
};
syncBuiltinESMExports();
`)}`;

/**
 * What ran `script` loaded: `files`, the module files Node loaded, and `code`, the modules whose code
 * they hold: a file itself, or for the plugin's bundles (dist/src/plugin/) the modules bundled into
 * it, which esbuild names in a comment line before each (`// dist/src/idl/parser.js`).
 */
async function modulesLoadedBy(script: string, log: string): Promise<{ files: string[]; code: string[] }> {
  await promisify(execFile)(process.execPath, ['--import', recorder, '--input-type=module', '-e', script], {
    cwd: repoRoot,
    env: { ...process.env, LOADED_LOG: log },
  });
  const files = readFileSync(log, 'utf8').split('\n').filter(Boolean);
  const code = files.flatMap((url) => {
    if (!url.includes('/dist/src/plugin/')) return [url];
    return [...readFileSync(fileURLToPath(url), 'utf8').matchAll(/^\/\/ ((?:dist|node_modules)\/\S+\.m?js)$/gm)].map((match) => match[1]);
  });
  return { files, code };
}

const heavy = [
  { what: "TypeBox's compiler", pattern: /@sinclair\/typebox\/build\/(?:esm|cjs)\/compiler\// },
  { what: 'TypeBox', pattern: /@sinclair\/typebox\// },
  { what: 'yaml', pattern: /node_modules\/yaml\// },
  { what: 'the code generator', pattern: /dist\/src\/codegen\/(?!idl-module-error|source-text|declaration-files)/ },
  { what: 'the OpenAPI converter', pattern: /dist\/src\/openapi\// },
  // levels.ts (the option's level names) is all the plugin's shell needs of it; the check loads with the compiler.
  { what: 'the breaking-change check', pattern: /dist\/src\/breaking\/(?!levels\.js)/ },
];

test.each(BUNDLERS)('making the %s plugin loads neither the compiler nor TypeBox nor yaml', async (bundler) => {
  const log = path.join(folder, `${bundler}.log`);
  const { files, code } = await modulesLoadedBy(`const { default: make } = await import('unplugin-idl-rpc/${bundler}'); make();`, log);
  expect(files.some((url) => url.includes('/dist/src/plugin/'))).toBe(true);
  for (const { what, pattern } of heavy)
    expect(
      code.filter((module) => pattern.test(module)),
      what,
    ).toEqual([]);
});

test.each(BUNDLERS)("the %s plugin carries its host's part of unplugin rather than importing unplugin's package", async (bundler) => {
  const log = path.join(folder, `${bundler}-unplugin.log`);
  const { files, code } = await modulesLoadedBy(`const { default: make } = await import('unplugin-idl-rpc/${bundler}'); make();`, log);
  // Importing all of unplugin's package was some 20 ms of every bundler process's start. (The
  // loader files of its webpack and Rspack parts are loaded from its package by the bundler, as a
  // build runs them: compiler-part-script.test.ts.)
  expect(files.filter((url) => url.includes('/node_modules/unplugin/'))).toEqual([]);
  expect(code.some((module) => module.startsWith('node_modules/unplugin/'))).toBe(true);
});

/** A script that has the Rollup plugin load checkout.idl with `options`, as a build does. */
function loadCheckout(options: object): string {
  const idl = path.join(repoRoot, 'playground', 'checkout.idl');
  return `
    const { default: make } = await import('unplugin-idl-rpc/rollup');
    const plugin = make(${JSON.stringify(options)});
    const context = { addWatchFile() {}, error(e) { throw new Error(String(e.message ?? e)); }, warn() {} };
    const result = await plugin.load.handler.call(context, ${JSON.stringify(idl)});
    if (!result.code.includes('CatalogServiceClient')) throw new Error('no module generated');
  `;
}

test('compiling the first .idl loads the compiler and TypeBox, bundled (src/build/bundle-plugin.mjs)', async () => {
  const { files, code } = await modulesLoadedBy(loadCheckout({ dts: false, cache: false }), path.join(folder, 'compile.log'));
  expect(code.some((module) => heavy[0].pattern.test(module))).toBe(true);
  expect(code.some((module) => heavy[3].pattern.test(module))).toBe(true);
  // File by file, the compiler and TypeBox are some 300 modules and most of a cold build's wait.
  for (const { what, pattern } of heavy)
    expect(
      files.filter((url) => pattern.test(url)),
      what,
    ).toEqual([]);
  expect(files.filter((url) => url.includes('/dist/src/plugin/')).length).toBeLessThan(30);
});

test('a module from the disk cache loads neither the compiler nor TypeBox', async () => {
  const options = { dts: false, cacheDir: path.join(folder, 'cache') };
  const first = await modulesLoadedBy(loadCheckout(options), path.join(folder, 'cache-miss.log'));
  expect(first.code.some((module) => heavy[3].pattern.test(module))).toBe(true);
  const second = await modulesLoadedBy(loadCheckout(options), path.join(folder, 'cache-hit.log'));
  for (const { what, pattern } of heavy)
    expect(
      second.code.filter((module) => pattern.test(module)),
      what,
    ).toEqual([]);
});
