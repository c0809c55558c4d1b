/**
 * The facade esbuild gets in front of each `.idl` module (src/plugin/esbuild-module-facade.ts): it
 * lets esbuild read TypeBox while the plugin compiles, and changes nothing else.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Plugin } from 'esbuild';
import { build } from 'esbuild';
import { expect, test, vi } from 'vitest';
import { compileIdl } from '../../src/idl/index.js';
import { generateModule } from '../../src/codegen/module.js';
import { facadeCode } from '../../src/plugin/esbuild-module-facade.js';
import { configs } from './harness/bundlers.js';
import { aroundEsbuildHooks } from './harness/esbuild-hooks.js';
import { copyFixtureApp, freshDir } from './harness/workspace.js';

vi.setConfig({ testTimeout: 60_000 });

/** `plugin`, whose load of a generated `.idl` module first waits (up to 5 s) for `before`, and notes whether it came. */
function loadingAfter(plugin: Plugin, before: Promise<void>, seen: { before?: boolean }): Plugin {
  return aroundEsbuildHooks(plugin, {
    async load(args) {
      if (args.namespace !== 'file' || !args.path.endsWith('.idl')) return;
      const timeout = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5_000));
      seen.before = await Promise.race([before.then(() => true), timeout]);
    },
  });
}

test('esbuild starts reading TypeBox before the generated module is handed over', async () => {
  const app = await copyFixtureApp('esbuild-facade');
  const outDir = await freshDir('esbuild-facade-out');
  const config = configs.esbuild({ root: app, entry: 'main.js', outDir, plugin: { dts: false, openapi: false, openrpc: false } });
  let typeBoxRead!: () => void;
  const typeBoxLoad = new Promise<void>((resolve) => {
    typeBoxRead = resolve;
  });
  const spy: Plugin = {
    name: 'typebox-spy',
    setup(spyBuild) {
      spyBuild.onLoad({ filter: /[\\/]@sinclair[\\/]typebox[\\/]/ }, () => {
        typeBoxRead();
        return undefined;
      });
    },
  };
  const seen: { before?: boolean } = {};
  const result = await build({
    ...config,
    metafile: true,
    plugins: [spy, ...config.plugins.map((plugin) => loadingAfter(plugin, typeBoxLoad, seen))],
  });

  expect(seen.before).toBe(true);
  expect(Object.keys(result.metafile.inputs)).toContain(`idl-rpc-facade:${path.join(app, 'checkout.idl')}`);
  // The app still works: its client class made it into the bundle.
  expect(await readFile(path.join(outDir, 'app.js'), 'utf8')).toContain('OrderService');
});

test('a build that does not bundle gets the generated module itself', async () => {
  const app = await copyFixtureApp('esbuild-facade-transform');
  const outDir = await freshDir('esbuild-facade-transform-out');
  const config = configs.esbuild({ root: app, entry: 'main.js', outDir, plugin: { dts: false, openapi: false, openrpc: false } });
  await build({
    ...config,
    entryPoints: [path.join(app, 'checkout.idl')],
    bundle: false,
    minify: false,
    outfile: path.join(outDir, 'checkout.js'),
  });
  const output = await readFile(path.join(outDir, 'checkout.js'), 'utf8');
  expect(output).toContain('class OrderServiceClient');
  expect(output).not.toContain('export *');
});

test("the facade imports nothing the generated module does not: even an empty IDL's imports TypeBox's Type", () => {
  const { js } = generateModule(compileIdl('namespace empty\n', 'empty.idl'), {
    runtimeImport: 'unplugin-idl-rpc/runtime/core',
    runtimeClientImport: 'unplugin-idl-rpc/runtime/client',
    sourceFile: 'empty.idl',
  });
  expect(js).toContain("import { Type } from '@sinclair/typebox';");
  expect(facadeCode('/app/empty.idl')).toBe(`import { Type as typeBox } from "@sinclair/typebox";\nexport * from "/app/empty.idl";\n`);
});
