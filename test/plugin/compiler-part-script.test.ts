/**
 * The built plugin runs its shell (for esbuild among others) and its compiler part as two scripts
 * with V8's code cache (src/plugin/shell-script-runner.ts, compiler-part-loader.ts, code-cache.ts):
 * a build's process leaves a cache of each that V8 takes for the script, and the next process uses
 * them rather than writing them again. Each build is an esbuild build of the fixture app with the
 * published entry, in a fresh Node process whose temporary folder is the test's own.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Script } from 'node:vm';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { codeCacheFolder, commonJsWrapped } from '../../src/plugin/code-cache.js';
import { copyBrokenFixtureApp, copyFixtureApp, repoRoot } from './harness/workspace.js';

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
