/**
 * Built, the plugin's shell for Vite, Rollup, Rolldown, esbuild and Farm is one CommonJS script,
 * dist/src/plugin/shell.cjs (src/build/bundle-plugin.mjs), that for webpack, Rspack and Rsbuild
 * another, webpack-shell.cjs, and each of those entries an ES module of a few lines that runs its
 * script through here, with V8's code cache (code-cache.ts): Node's ES module loader costs per file,
 * and making the plugin took 15-17 ms from the shell's ES modules against 4-7 ms from one script
 * (28-30 ms against 15-17 for the webpack family, which imported unplugin's package). What the script must not carry a copy of it takes from here, as ES
 * modules (`require('shell:<path>')`): the runtime's files, which an app's server in the Vite dev
 * server shares with the plugin (one `RpcError` class), and `importModule`, since an `import()` in
 * a script would need Node's experimental loader hook. The build fails when this list and the
 * modules the bundled script asks for differ.
 */
import { fileURLToPath } from 'node:url';
import * as runtimeCors from '../../runtime/cors.js';
import * as runtimeErrors from '../../runtime/errors.js';
import * as runtimeMockError from '../../runtime/mock/mock-error.js';
import { lentModules, runCachedScriptOnce } from './code-cache.js';
import * as importModule from './import-module.js';

/** The ES modules the script takes from here, by their path in the package's dist/. */
export const SCRIPT_MODULES: Readonly<Record<string, unknown>> = {
  'runtime/cors.js': runtimeCors,
  'runtime/errors.js': runtimeErrors,
  'runtime/mock/mock-error.js': runtimeMockError,
  'src/plugin/import-module.js': importModule,
};

const scripts = new Map<string, Record<string, unknown>>();

/**
 * The exports of the shell script `name` (each entry's default export under its host's name): run
 * once per process. `shell.cjs` holds the Vite, Rollup, Rolldown, esbuild and Farm entries,
 * `webpack-shell.cjs` the webpack, Rspack and Rsbuild ones.
 */
export function shellScript(name: 'shell.cjs' | 'webpack-shell.cjs'): Record<string, unknown> {
  let shell = scripts.get(name);
  if (shell === undefined) {
    const script = fileURLToPath(new URL(`./${name}`, import.meta.url));
    shell = runCachedScriptOnce(script, lentModules(SCRIPT_MODULES, 'src/plugin/shell-script-runner.ts')) as Record<string, unknown>;
    scripts.set(name, shell);
  }
  return shell;
}
