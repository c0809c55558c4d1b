/**
 * Loading the compiler part (compiler-part.ts) on first use. Built, it is one CommonJS script,
 * dist/src/plugin/compiler-part.cjs (src/build/bundle-plugin.mjs), run with V8's code cache
 * (code-cache.ts): a cold build's process then neither parses the compiler nor compiles its
 * functions again. The modules it shares with the shell are the shell's (shell-modules.ts). From the
 * sources (the unit tests, or `tsc`'s output before the build bundles it) it is imported as modules.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { lentModules, runCachedScriptOnce } from './code-cache.js';
import type * as CompilerPartModule from './compiler-part.js';
import { SHELL_MODULES } from './shell-modules.js';

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
  return runCachedScriptOnce(script, lentModules(SHELL_MODULES, 'src/plugin/shell-modules.ts')) as CompilerPart;
}
