/**
 * The built plugin runs its shell (for esbuild among others; for the webpack family another) and its
 * compiler part as scripts with V8's code cache (src/plugin/shell-script-runner.ts,
 * compiler-part-loader.ts, code-cache.ts): a build's process leaves a cache of each that V8 takes for
 * the script, and the next process uses them rather than writing them again. Each build is a build
 * of the fixture app with the published entry, in a fresh Node process whose temporary folder is the
 * test's own.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Script } from 'node:vm';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { codeCacheFolder, commonJsWrapped } from '../../src/plugin/code-cache.js';
import { checkoutIdlFile, copyBrokenFixtureApp, copyFixtureApp, repoRoot } from './harness/workspace.js';

const scripts = ['shell.cjs', 'compiler-part.cjs'];
const temporary = mkdtempSync(path.join(tmpdir(), 'idl-compiler-part-'));
let app: string;

beforeAll(async () => {
  app = await copyFixtureApp('compiler-part-script');
});
afterAll(() => rmSync(temporary, { recursive: true, force: true }));

/** Builds `dir`'s main.js with esbuild and the plugin (no compile cache: every build compiles); the bundle's text. */
async function buildInNewProcess(dir: string): Promise<string> {
  const script = `
    const { build } = await import('esbuild');
    const { default: idlRpc } = await import('unplugin-idl-rpc/esbuild');
    const result = await build({ entryPoints: ['main.js'], bundle: true, format: 'esm', write: false, plugins: [idlRpc({ cache: false })], logLevel: 'silent' });
    process.stdout.write(result.outputFiles[0].text);`;
  const { IDLRPC_CACHE: _, ...env } = process.env;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
    cwd: dir,
    env: { ...env, TMPDIR: temporary },
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout;
}

/** What runs a build of the app in the current folder with each bundler, writing into `out/`; `loaders`: those its rules name. */
const WEBPACK_FAMILY_BUILDS = {
  rspack: (url: (specifier: string) => string) => `
    const { rspack } = await import(${url('@rspack/core')});
    const { default: idlRpc } = await import(${url('unplugin-idl-rpc/rspack')});
    ${runCompiler('rspack')}`,
  webpack: (url: (specifier: string) => string) => `
    const { default: webpack } = await import(${url('webpack')});
    const { default: idlRpc } = await import(${url('unplugin-idl-rpc/webpack')});
    ${runCompiler('webpack')}`,
  rsbuild: (url: (specifier: string) => string) => `
    const { createRsbuild } = await import(${url('@rsbuild/core')});
    const { default: idlRpc } = await import(${url('unplugin-idl-rpc/rsbuild')});
    const rsbuild = await createRsbuild({ cwd: process.cwd(), rsbuildConfig: { plugins: [idlRpc({ cache: false })], logLevel: 'silent',
      source: { entry: { app: './main.js' } }, output: { distPath: { root: 'out', js: '' }, filenameHash: false, minify: false },
      tools: { htmlPlugin: false } } });
    const result = await rsbuild.build();
    await result.close?.();
    const loaders = undefined;`,
};

/** A webpack or Rspack compiler's run of main.js into out/app.js, and the loader files of its rules. */
function runCompiler(make: string): string {
  return `
    const compiler = ${make}({ mode: 'development', context: process.cwd(), entry: './main.js', devtool: false,
      output: { path: process.cwd() + '/out', filename: 'app.js' }, plugins: [idlRpc({ cache: false })] });
    await new Promise((resolve, reject) => compiler.run((error, stats) =>
      error ? reject(error) : stats.hasErrors() ? reject(new Error(stats.toString('errors-only'))) : resolve()));
    await new Promise((resolve) => compiler.close(resolve));
    const loaders = compiler.options.module.rules.flatMap((rule) => (Array.isArray(rule.use) ? rule.use : []).map((use) => use.loader));`;
}

/**
 * Builds `dir`'s main.js with `bundler` (webpack, Rspack or Rsbuild) and the plugin in a fresh
 * process; the bundle's text and (webpack and Rspack) the loader files the plugin's rules name.
 */
async function buildWithWebpackFamily(
  bundler: keyof typeof WEBPACK_FAMILY_BUILDS,
  dir: string,
): Promise<{ bundle: string; loaders?: string[] }> {
  // Resolved here, in the repository: the app's folder may have no node_modules above it.
  const fromRepo = createRequire(path.join(repoRoot, 'package.json'));
  const url = (specifier: string) => JSON.stringify(pathToFileURL(fromRepo.resolve(specifier)).href);
  const script = `${WEBPACK_FAMILY_BUILDS[bundler](url)}
    const { readdirSync, readFileSync } = await import('node:fs');
    // Every JavaScript file written: Rsbuild puts packages in chunks of their own.
    const files = readdirSync('out', { recursive: true }).filter((file) => file.endsWith('.js'));
    process.stdout.write(JSON.stringify({ bundle: files.map((file) => readFileSync('out/' + file, 'utf8')).join('\\n'), loaders }));`;
  const { IDLRPC_CACHE: _, ...env } = process.env;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
    cwd: dir,
    env: { ...env, TMPDIR: temporary },
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(stdout);
}

const cacheFiles = () => readdirSync(codeCacheFolder(temporary)).map((name) => path.join(codeCacheFolder(temporary), name));

test('a build leaves a code cache of each script that V8 takes; the next build uses them and leaves them as they were', async () => {
  const first = await buildInNewProcess(app);
  expect(first).toContain('OrderServiceClient');
  const caches = cacheFiles().sort();
  expect(caches.map((file) => path.basename(file).split('.cjs.')[0]).sort()).toEqual(['compiler-part', 'shell']);
  for (const name of scripts) {
    const cache = caches.find((file) => path.basename(file).startsWith(`${name}.`))!;
    // Compiled here under another name, so that V8 cannot answer from a compile of the same script in this process.
    const script = new Script(commonJsWrapped(readFileSync(path.join(repoRoot, 'dist/src/plugin', name), 'utf8')), {
      filename: path.join(temporary, name),
      cachedData: readFileSync(cache),
    });
    expect(script.cachedDataRejected, name).toBe(false);
  }

  const written = caches.map((file) => statSync(file).mtimeMs);
  const second = await buildInNewProcess(app);
  expect(second).toBe(first);
  expect(cacheFiles().sort()).toEqual(caches);
  expect(caches.map((file) => statSync(file).mtimeMs)).toEqual(written);
});

test.each(['rspack', 'webpack', 'rsbuild'] as const)(
  "a %s build runs the webpack family's shell script; unplugin's loader files are its own, where it is installed",
  async (bundler) => {
    // An app outside the repository, with no node_modules above it: the runtime and TypeBox that
    // the generated module imports resolve only through the plugin (webpack-family-resolve.ts).
    const dir = path.join(temporary, `app-${bundler}`);
    mkdirSync(dir);
    copyFileSync(checkoutIdlFile, path.join(dir, 'checkout.idl'));
    writeFileSync(
      path.join(dir, 'main.js'),
      "import { OrderServiceClient, validators } from './checkout.idl';\nglobalThis.app = { OrderServiceClient, validators };\n",
    );
    const { bundle, loaders } = await buildWithWebpackFamily(bundler, dir);
    expect(bundle).toContain('OrderServiceClient');
    expect(bundle).toContain('TypeBox.Kind'); // the validators' schemas: TypeBox was bundled
    if (loaders !== undefined) {
      const unpluginFolder = path.dirname(createRequire(path.join(repoRoot, 'package.json')).resolve('unplugin'));
      expect(loaders).toContain(path.join(unpluginFolder, bundler, 'loaders', 'load.mjs'));
      for (const loader of loaders) expect(existsSync(loader), loader).toBe(true);
    }
    expect(cacheFiles().some((file) => path.basename(file).startsWith('webpack-shell.cjs.'))).toBe(true);
  },
);

test("an error in an .idl, thrown by the compiler part, is reported as the plugin's own: file, line and column", async () => {
  const { dir, line, column } = await copyBrokenFixtureApp('compiler-part-script-broken');
  const failure = await buildInNewProcess(dir).then(
    () => undefined,
    (error: { stderr: string }) => error.stderr,
  );
  // esbuild's own location (its columns count from 0) comes only from the plugin's report of an
  // `IdlModuleError`: an error the shell did not know as one would be thrown on as it is.
  expect(failure).toContain(`checkout.idl:${line}:${column - 1}: ERROR: [plugin: unplugin-idl-rpc]`);
});
