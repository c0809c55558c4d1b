/**
 * The built plugin runs its compiler part as one script with V8's code cache (src/plugin/
 * compiler-part-loader.ts, code-cache.ts): a build's process leaves a cache that V8 takes for the
 * script, and the next process uses it rather than writing it again. Each build is an esbuild
 * build of the fixture app with the published entry, in a fresh Node process whose temporary
 * folder is the test's own.
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

const compilerPartScript = path.join(repoRoot, 'dist/src/plugin/compiler-part.cjs');
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

test('a build leaves a code cache of the compiler part that V8 takes; the next build uses it and leaves it as it was', async () => {
  const first = await buildInNewProcess(app);
  expect(first).toContain('OrderServiceClient');
  const [cache, ...others] = cacheFiles();
  expect(others).toEqual([]);
  // Compiled here under another name, so that V8 cannot answer from a compile of the same script in this process.
  const script = new Script(commonJsWrapped(readFileSync(compilerPartScript, 'utf8')), {
    filename: path.join(temporary, 'compiler-part.cjs'),
    cachedData: readFileSync(cache),
  });
  expect(script.cachedDataRejected).toBe(false);

  const written = statSync(cache).mtimeMs;
  const second = await buildInNewProcess(app);
  expect(second).toBe(first);
  expect(cacheFiles()).toEqual([cache]);
  expect(statSync(cache).mtimeMs).toBe(written);
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
