/**
 * Built, the plugin's shell for Vite, Rollup, Rolldown, esbuild and Farm is one CommonJS script,
 * dist/src/plugin/shell.cjs (src/build/bundle-plugin.mjs), and each of those entries an ES module
 * of a few lines that runs it through here, with V8's code cache (code-cache.ts): Node's ES module
 * loader costs per file, and making the plugin took 15-17 ms from the shell's ES modules against
 * 4-7 ms from one script. What the script must not carry a copy of it takes from here, as ES
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

let shell: Record<string, unknown> | undefined;

/** The shell script's exports (each entry's default export under its host's name), run once per process. */
export function shellScript(): Record<string, unknown> {
  const script = fileURLToPath(new URL('./shell.cjs', import.meta.url));
  shell ??= runCachedScriptOnce(script, lentModules(SCRIPT_MODULES, 'src/plugin/shell-script-runner.ts')) as Record<string, unknown>;
  return shell;
}
