/**
 * The Vite dev server's share of the runtime: generated `.idl` modules import
 * `unplugin-idl-rpc/runtime/client`, `/runtime/core` and `@sinclair/typebox`. Served as raw files,
 * a page that creates one client loads every runtime file and, in an installed package, TypeBox's
 * hundreds of files; and a runtime file reached both through the plugin's own resolution (no query)
 * and through a relative import inside `node_modules` (Vite adds `?v=<hash>`) was served twice, two
 * instances of one module in one page (`instanceof RpcError` failing across them).
 *
 * So in the dev server the runtime and TypeBox go through Vite's dependency optimizer, up front:
 * every import of them, from generated code or from the app, gets the one pre-bundled copy.
 */
import type { UserConfig } from 'vite';
import { PACKAGE_NAME, resolveRuntimeFile, RUNTIME_CLIENT_IMPORT, RUNTIME_CORE_IMPORT, TYPEBOX_IMPORT } from './runtime-paths.js';

/** The browser parts of the runtime (`unplugin-idl-rpc/runtime` itself has the Node adapters). */
const BROWSER_RUNTIME_IMPORTS = [RUNTIME_CLIENT_IMPORT, RUNTIME_CORE_IMPORT] as const;

/**
 * The TypeBox this package depends on, in `optimizeDeps.include`'s nested form: found below this
 * package even where the app cannot resolve TypeBox itself (pnpm).
 */
export const OPTIMIZED_TYPEBOX = `${PACKAGE_NAME} > ${TYPEBOX_IMPORT}`;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/**
 * The configuration the plugin adds to `vite` (dev server only; `vite build` is left as it is):
 * the runtime and TypeBox pre-bundled, and the runtime's specifiers aliased to this package's own
 * files, so that Vite resolves them (and serves their pre-bundled copy) also where the app cannot
 * resolve the package by name (a linked checkout, an app inside this repository).
 */
export function devServerDependencyConfig(): UserConfig {
  return {
    optimizeDeps: { include: [...BROWSER_RUNTIME_IMPORTS, OPTIMIZED_TYPEBOX] },
    resolve: {
      alias: BROWSER_RUNTIME_IMPORTS.map((specifier) => ({
        find: new RegExp(`^${escapeRegExp(specifier)}$`),
        replacement: resolveRuntimeFile(specifier),
      })),
    },
  };
}
