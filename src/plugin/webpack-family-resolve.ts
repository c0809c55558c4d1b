/**
 * Under webpack, Rspack and Rsbuild the bare imports of generated code (runtime, TypeBox) resolve
 * through the bundler's own aliases, on a rule for `.idl` modules, rather than through a `resolveId`
 * hook: unplugin makes that hook a call into JavaScript for every module the app resolves (TypeBox
 * alone is some 200), which cost every Rspack and Rsbuild build of the checkout app 15-23 ms even
 * with a filter that no module matched (docs/benchmarks.md).
 */
import {
  RUNTIME_CLIENT_IMPORT,
  RUNTIME_CORE_IMPORT,
  RUNTIME_IMPORT,
  resolveTypeBox,
  runtimePaths,
  TYPEBOX_IMPORT,
} from './runtime-paths.js';

/** The frameworks (unplugin's `meta.framework`) that resolve generated imports by {@link generatedImportsRule}. */
export const WEBPACK_FAMILY: readonly string[] = ['webpack', 'rspack', 'rsbuild'];

/** A module rule as webpack and Rspack read it: its resolve options apply to the imports of the modules it matches. */
export interface GeneratedImportsRule {
  test: RegExp;
  resolve: { alias: Record<string, string> };
}

/**
 * The rule that resolves the imports of `.idl` modules to this package's runtime files and TypeBox
 * (as `resolveGeneratedImport` does for the other bundlers); `$` keys match the exact specifier.
 */
export function generatedImportsRule(): GeneratedImportsRule {
  const { files } = runtimePaths();
  const alias: Record<string, string> = {};
  for (const specifier of [RUNTIME_IMPORT, RUNTIME_CLIENT_IMPORT, RUNTIME_CORE_IMPORT]) alias[`${specifier}$`] = files[specifier];
  alias[`${TYPEBOX_IMPORT}$`] = resolveTypeBox();
  // The resource is the path without its query: every `.idl` module (a `?raw` one imports nothing).
  return { test: /\.idl$/, resolve: { alias } };
}
