/**
 * Where this package's runtime lives on disk, so bundlers resolve the runtime imports of generated
 * code (`unplugin-idl-rpc/runtime/core`, `unplugin-idl-rpc/runtime/client`) and of the dev server's
 * entry (`unplugin-idl-rpc/runtime`, `unplugin-idl-rpc/runtime/mcp`) even when the package cannot
 * reference itself by name (a fixture app inside this repository, a linked checkout, esbuild without
 * the package in node_modules). The paths come from the package's own `exports` map.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  dependencyPackage,
  ownManifest,
  ownPackageRoot,
  PACKAGE_NAME,
  RUNTIME_CLIENT_IMPORT,
  RUNTIME_CORE_IMPORT,
  RUNTIME_IMPORT,
  RUNTIME_MCP_IMPORT,
} from '../own-package.js';
import { isIdlId } from './idl-id.js';

export { PACKAGE_NAME, RUNTIME_CLIENT_IMPORT, RUNTIME_CORE_IMPORT, RUNTIME_IMPORT, RUNTIME_MCP_IMPORT };

/** The mock handlers' entry, which only the mock mode's server entry imports. */
export const RUNTIME_MOCK_IMPORT = `${PACKAGE_NAME}/runtime/mock`;

export const TYPEBOX_IMPORT = '@sinclair/typebox';

/** Matches every bare import of generated code that the plugin resolves itself. */
export const GENERATED_IMPORT_FILTER = /^(?:unplugin-idl-rpc\/runtime(?:\/client|\/core)?|@sinclair\/typebox)$/;

export interface RuntimePaths {
  /** The package root (the folder holding package.json). */
  packageRoot: string;
  /** Absolute path of the built file behind each runtime specifier. */
  files: Record<string, string>;
}

let cached: RuntimePaths | undefined;

/** The runtime files of this package, read from its `exports` map (cached). */
export function runtimePaths(): RuntimePaths {
  if (cached) return cached;
  const packageRoot = ownPackageRoot();
  const pkg = ownManifest();
  const files: Record<string, string> = {};
  for (const specifier of [RUNTIME_IMPORT, RUNTIME_CLIENT_IMPORT, RUNTIME_CORE_IMPORT, RUNTIME_MCP_IMPORT, RUNTIME_MOCK_IMPORT]) {
    const entry = pkg.exports[`.${specifier.slice(PACKAGE_NAME.length)}`];
    const target = typeof entry === 'string' ? entry : entry.default;
    files[specifier] = path.join(packageRoot, target);
  }
  cached = { packageRoot, files };
  return cached;
}

/**
 * The file behind a runtime specifier. Throws a clear error when the runtime was not built yet
 * (a source checkout before `npm run build`).
 */
export function resolveRuntimeFile(specifier: string): string {
  const file = runtimePaths().files[specifier];
  if (!file) throw new Error(`${PACKAGE_NAME}: unknown runtime import ${specifier}`);
  if (!existsSync(file)) {
    throw new Error(`${PACKAGE_NAME}: ${specifier} points to ${file}, which does not exist; run \`npm run build\``);
  }
  return file;
}

let typeBoxEntry: string | undefined;

/**
 * The ES module entry of the TypeBox this package depends on, for the `@sinclair/typebox` import of
 * generated code: the `.idl` file sits in the user's project, where TypeBox need not be resolvable
 * (pnpm installs it only below this package).
 */
export function resolveTypeBox(): string {
  if (typeBoxEntry) return typeBoxEntry;
  const { root, manifest } = dependencyPackage(TYPEBOX_IMPORT);
  const main = manifest.exports?.['.'];
  const entry = typeof main === 'object' ? main.import?.default : undefined;
  if (!entry) throw new Error(`${PACKAGE_NAME}: cannot find the ES module entry of ${TYPEBOX_IMPORT}`);
  typeBoxEntry = path.join(root, entry);
  return typeBoxEntry;
}

/**
 * Where a bare import of generated code goes, or undefined to leave it to the bundler (TypeBox
 * imported by anything but an `.idl` module).
 */
export function resolveGeneratedImport(specifier: string, importer: string | undefined): string | undefined {
  if (specifier === TYPEBOX_IMPORT) return isIdlId(importer) ? resolveTypeBox() : undefined;
  return resolveRuntimeFile(specifier);
}
