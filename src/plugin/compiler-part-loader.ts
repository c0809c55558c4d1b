/**
 * Loading the compiler part (compiler-part.ts) on first use. Built, it is one CommonJS script,
 * dist/src/plugin/compiler-part.cjs (src/build/bundle-plugin.mjs), run with V8's code cache
 * (code-cache.ts): a cold build's process then neither parses the compiler nor compiles its
 * functions again. The modules it shares with the shell are the shell's (shell-modules.ts). From the
 * sources (the unit tests, or `tsc`'s output before the build bundles it) it is imported as modules.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runCommonJsScript } from './code-cache.js';
import type * as CompilerPartModule from './compiler-part.js';
import { SHELL_MODULE_PREFIX, SHELL_MODULES } from './shell-modules.js';

export type CompilerPart = typeof CompilerPartModule;

let loading: Promise<CompilerPart> | undefined;

/** The compiler part, loaded once per process. */
export function loadCompilerPart(): Promise<CompilerPart> {
  loading ??= load().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

async function load(): Promise<CompilerPart> {
  const script = fileURLToPath(new URL('./compiler-part.cjs', import.meta.url));
  if (!existsSync(script)) return import('./compiler-part.js');
  const { exports, codeCache, saveCodeCache } = runCommonJsScript(script, shellModule);
  // At exit the cache holds every function the process ran, not only those loading compiled.
  if (codeCache !== 'accepted' && codeCache !== 'off') process.once('exit', saveCodeCache);
  return exports as CompilerPart;
}

/** A module the script asks the shell for, or undefined for one Node resolves (a Node built-in). */
function shellModule(specifier: string): unknown {
  if (!specifier.startsWith(SHELL_MODULE_PREFIX)) return undefined;
  const module = SHELL_MODULES[specifier.slice(SHELL_MODULE_PREFIX.length)];
  if (module === undefined) throw new Error(`the compiler part needs ${specifier}, which src/plugin/shell-modules.ts does not list`);
  return module;
}
