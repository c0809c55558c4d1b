/**
 * Plugin start-up in a fresh process: importing the plugin and creating it, as a bundler config does.
 *   node plugin-startup-process.mjs <ours|noop> time
 *   node plugin-startup-process.mjs <ours|noop> count <log file>
 * `ours` imports `unplugin-idl-rpc/vite` (dist/src/plugin/vite.js) and calls it; `noop` imports
 * unplugin and creates a plugin with no hooks through `createUnplugin(...).vite()`.
 * `time` prints `{"ms":N}`: import + create, from just before the import to just after the call.
 * `count` prints `{"modules":N}`: module files loaded until the plugin is created (ES modules seen by
 * a `module.register` load hook, CommonJS ones in `require.cache`; Node's built-in modules and this
 * script not counted). Counting slows loading down, so it has a process of its own.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const [kind, mode, logFile] = process.argv.slice(2);
const here = fileURLToPath(import.meta.url);
const repoRoot = path.resolve(path.dirname(here), '..', '..');

/** Imports and creates the plugin of `kind`; returns it. */
async function createPlugin() {
  if (kind === 'ours') {
    const { default: idlRpc } = await import(pathToFileURL(path.join(repoRoot, 'dist', 'src', 'plugin', 'vite.js')).href);
    return idlRpc();
  }
  const { createUnplugin } = await import('unplugin');
  return createUnplugin(() => ({ name: 'noop' })).vite();
}

if (!['ours', 'noop'].includes(kind) || !['time', 'count'].includes(mode) || (mode === 'count' && !logFile)) {
  console.error('usage: plugin-startup-process.mjs <ours|noop> time | count <log file>');
  process.exit(2);
}
if (mode === 'time') {
  const start = performance.now();
  const plugin = await createPlugin();
  const ms = performance.now() - start;
  if (!plugin) throw new Error(`the ${kind} plugin factory returned nothing`);
  console.log(JSON.stringify({ ms }));
} else {
  writeFileSync(logFile, '');
  register(pathToFileURL(path.join(repoRoot, 'bench', 'lib', 'count-loads-hooks.mjs')), { data: { logFile } });
  const plugin = await createPlugin();
  if (!plugin) throw new Error(`the ${kind} plugin factory returned nothing`);
  const files = new Set();
  for (const url of readFileSync(logFile, 'utf8').split('\n')) if (url.startsWith('file:')) files.add(fileURLToPath(url));
  for (const file of Object.keys(createRequire(import.meta.url).cache)) files.add(file);
  files.delete(here);
  console.log(JSON.stringify({ modules: files.size }));
}
