/**
 * The plugin's `breaking` option: a build with a breaking change against `git:HEAD` warns with the
 * change's location, fails with `fail: true`, passes when the change is accepted; a baseline that
 * cannot be read is one warning and never fails the build; the Vite dev server only warns.
 * Rollup and esbuild builds (the others share the reporting through unplugin), in a temporary git
 * repository.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { IdlRpcPluginOptions } from '../../src/plugin/options.js';
import idlRpcEsbuild from '../../src/plugin/esbuild.js';
import idlRpcRollup from '../../src/plugin/rollup.js';
import idlRpcVite from '../../src/plugin/vite.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const SHOP = `namespace shop

enum Color {
    red
}

interface Shop {
    put(sku string, count int) bool
}
`;
/** The parameters swapped: a wire break at line 8. */
const SWAPPED = SHOP.replace('put(sku string, count int)', 'put(count int, sku string)');
const OTHER = 'namespace other\n\ninterface Other {\n    ping() bool\n}\n';

let repo: string;
const write = (file: string, text: string) => writeFileSync(path.join(repo, file), text);
const shopFile = () => path.join(repo, 'shop.idl');

beforeAll(() => {
  repo = mkdtempSync(path.join(tmpdir(), 'idl-breaking-plugin-'));
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: repo,
      env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' },
    });
  git('init', '-q');
  write('shop.idl', SHOP);
  write('other.idl', OTHER);
  git('add', '.');
  git('commit', '-q', '-m', 'v1');
  write('main.js', "import { Color } from './shop.idl';\nexport const colors = Object.values(Color);\n");
  write('two.js', "import { Color } from './shop.idl';\nimport { OtherClient } from './other.idl';\nexport { Color, OtherClient };\n");
});
afterAll(() => rmSync(repo, { recursive: true, force: true }));

const pluginOptions = (breaking: IdlRpcPluginOptions['breaking']): IdlRpcPluginOptions => ({
  breaking,
  dts: false,
  openapi: false,
  cache: false,
});

interface RollupWarning {
  message: string;
  loc?: { file?: string; line: number; column: number };
}

/** A Rollup build of `entry` (not written); the warnings it gave, or the error it failed with. */
async function rollupBuild(entry: string, options: IdlRpcPluginOptions) {
  const { rollup } = await import('rollup');
  const warnings: RollupWarning[] = [];
  try {
    const bundle = await rollup({
      input: path.join(repo, entry),
      plugins: [idlRpcRollup(options)],
      external: (id) => !id.startsWith('.') && !path.isAbsolute(id) && !id.startsWith('\0'),
      onwarn: (warning) => {
        if (warning.plugin === 'unplugin-idl-rpc')
          warnings.push({ message: warning.message, ...(warning.loc ? { loc: warning.loc } : {}) });
      },
    });
    await bundle.close();
    return { warnings };
  } catch (error) {
    return { warnings, error: error as Error & { loc?: RollupWarning['loc'] } };
  }
}

describe('breaking: { against: git:HEAD } in a Rollup build', () => {
  test('a breaking change is a warning with its location; the build passes', async () => {
    write('shop.idl', SWAPPED);
    const { warnings, error } = await rollupBuild('main.js', pluginOptions({ against: 'git:HEAD' }));
    expect(error).toBeUndefined();
    expect(warnings).toHaveLength(1);
    expect(warnings[0].message).toContain(
      `breaking change against git:HEAD: ${shopFile()}:8:5: wire: param-reordered: the parameters of Shop.put change order from (sku, count) to (count, sku)`,
    );
    expect(warnings[0].loc).toEqual({ file: shopFile(), line: 8, column: 4 });
  });

  test('with fail: true the build fails, naming the change and its location', async () => {
    write('shop.idl', SWAPPED);
    const { error } = await rollupBuild('main.js', pluginOptions({ against: 'git:HEAD', fail: true }));
    expect(error?.message).toContain('1 breaking change against git:HEAD at level wire:');
    expect(error?.message).toContain(`${shopFile()}:8:5: wire: param-reordered`);
    expect(error?.loc).toEqual({ file: shopFile(), line: 8, column: 4 });
  });

  test('an accepted change, or one below the level, neither warns nor fails', async () => {
    write('shop.idl', `${SWAPPED}\n// idlrpc:accept param-reordered Shop.put\n`);
    expect(await rollupBuild('main.js', pluginOptions({ against: 'git:HEAD', fail: true }))).toEqual({ warnings: [] });
    // A method added breaks handlers (source), not wire clients.
    write('shop.idl', SHOP.replace('    put(', '    get() bool\n    put('));
    expect(await rollupBuild('main.js', pluginOptions({ against: 'git:HEAD', fail: true }))).toEqual({ warnings: [] });
    const { error } = await rollupBuild('main.js', pluginOptions({ against: 'git:HEAD', fail: true, level: 'source' }));
    expect(error?.message).toContain(`${shopFile()}:8:5: source: method-added: method Shop.get is added`);
  });

  test('an unreadable baseline warns once, for two .idl modules, and never fails the build', async () => {
    write('shop.idl', SWAPPED);
    const { warnings, error } = await rollupBuild('two.js', pluginOptions({ against: 'git:no-such-revision', fail: true }));
    expect(error).toBeUndefined();
    expect(warnings.map((w) => w.message)).toEqual([
      expect.stringMatching(
        /breaking-change check skipped: cannot read the baseline git:no-such-revision: revision 'no-such-revision' is not in the repository/,
      ),
    ]);
  });

  test('breaking.idl limits the check to one module; an .idl baseline is read from the root', async () => {
    write('shop.idl', SWAPPED);
    write('old-other.idl', OTHER.replace('ping() bool', 'ping() bool\n    pong() bool'));
    const cwd = process.cwd();
    process.chdir(repo); // the root of a Rollup build is the current folder
    try {
      const { warnings } = await rollupBuild('two.js', pluginOptions({ against: 'old-other.idl', idl: 'other.idl' }));
      expect(warnings.map((w) => w.message)).toEqual([
        expect.stringContaining('old-other.idl:5:5: wire: method-removed: method Other.pong is removed'),
      ]);
    } finally {
      process.chdir(cwd);
    }
  });
});

describe('breaking in esbuild and the Vite dev server', () => {
  test('esbuild: a warning with the location, an error with fail: true', async () => {
    write('shop.idl', SWAPPED);
    const esbuild = await import('esbuild');
    const build = (fail: boolean) =>
      esbuild.build({
        entryPoints: [path.join(repo, 'main.js')],
        bundle: true,
        write: false,
        format: 'esm',
        logLevel: 'silent',
        external: ['unplugin-idl-rpc', '@sinclair/typebox'],
        plugins: [idlRpcEsbuild(pluginOptions({ against: 'git:HEAD', fail }))],
      });
    const passed = await build(false);
    expect(passed.warnings.map((w) => w.text)).toEqual([expect.stringContaining(`${shopFile()}:8:5: wire: param-reordered`)]);
    await expect(build(true)).rejects.toThrow(`${shopFile()}:8:5: wire: param-reordered`);
  });

  test('Vite dev server: a warning even with fail: true, and the module still loads', async () => {
    write('shop.idl', SWAPPED);
    const { createServer, createLogger } = await import('vite');
    const logger = createLogger('silent');
    const warned: string[] = [];
    logger.warn = (message) => void warned.push(message);
    logger.warnOnce = logger.warn;
    const server = await createServer({
      configFile: false,
      root: repo,
      customLogger: logger,
      server: { middlewareMode: true, ws: false },
      plugins: [idlRpcVite(pluginOptions({ against: 'git:HEAD', fail: true }))],
    });
    const overlays: { type: string; err?: { message: string; loc?: object } }[] = [];
    server.ws.send = ((payload: (typeof overlays)[number]) => void overlays.push(payload)) as typeof server.ws.send;
    try {
      const module = await server.transformRequest('/shop.idl');
      expect(module?.code).toContain('red');
      expect(warned.join('\n')).toContain(`${shopFile()}:8:5: wire: param-reordered`);
      expect(overlays).toEqual([
        {
          type: 'error',
          err: expect.objectContaining({
            message: expect.stringMatching(
              /^warning: 1 breaking change against git:HEAD \(level wire\); the dev server goes on:\n.*shop\.idl:8:5: wire: param-reordered/,
            ),
            loc: { file: shopFile(), line: 8, column: 5 },
          }),
        },
      ]);
    } finally {
      await server.close();
    }
  });
});
