/**
 * What the esbuild plugin asks esbuild to call it for. Each hook esbuild calls is a round trip
 * from esbuild's Go process into JavaScript, paid per module: a plugin that asks to load every file
 * makes every module of the app (TypeBox alone is about 200) cross twice (docs/benchmarks.md,
 * "Warm builds"). A real build of the fixture app, each hook call recorded on its way in.
 */
import path from 'node:path';
import type { Plugin } from 'esbuild';
import { build } from 'esbuild';
import { expect, test, vi } from 'vitest';
import { configs } from './harness/bundlers.js';
import { aroundEsbuildHooks } from './harness/esbuild-hooks.js';
import { copyFixtureApp, freshDir } from './harness/workspace.js';

vi.setConfig({ testTimeout: 60_000 });

interface Call {
  hook: 'load' | 'resolve';
  path: string;
  namespace: string;
}

/** `plugin` with every load and resolve call esbuild makes into it recorded in `calls`. */
function recorded(plugin: Plugin, calls: Call[]): Plugin {
  return aroundEsbuildHooks(plugin, {
    load: (args) => void calls.push({ hook: 'load', path: args.path, namespace: args.namespace }),
    resolve: (args) => void calls.push({ hook: 'resolve', path: args.path, namespace: args.namespace }),
  });
}

test('esbuild calls the plugin to load .idl files only, and to resolve only the imports of generated code', async () => {
  const app = await copyFixtureApp('esbuild-hooks');
  const outDir = await freshDir('esbuild-hooks-out');
  const config = configs.esbuild({ root: app, entry: 'main.js', outDir, plugin: { dts: false, openapi: false, openrpc: false } });
  const calls: Call[] = [];
  const result = await build({ ...config, metafile: true, plugins: config.plugins.map((plugin) => recorded(plugin, calls)) });

  const inputs = Object.keys(result.metafile.inputs);
  expect(inputs.length).toBeGreaterThan(50); // the app, the runtime and TypeBox: many modules went through the build
  // The .idl twice: its facade (esbuild-module-facade.ts), then the generated module.
  const loads = calls.filter((call) => call.hook === 'load').map((call) => `${call.namespace}:${path.basename(call.path)}`);
  expect(loads).toEqual(['idl-rpc-facade:checkout.idl', 'file:checkout.idl']);
  // The app's import of the .idl, the facade's of the generated module, and the generated code's imports.
  const idl = path.join(app, 'checkout.idl');
  const resolves = new Set(calls.filter((call) => call.hook === 'resolve').map((call) => call.path));
  expect([...resolves].sort()).toEqual(
    ['./checkout.idl', idl, '@sinclair/typebox', 'unplugin-idl-rpc/runtime/client', 'unplugin-idl-rpc/runtime/core'].sort(),
  );
});
