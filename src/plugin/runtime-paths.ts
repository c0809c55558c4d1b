/**
 * Where this package's runtime lives on disk, so bundlers resolve the runtime imports of generated
 * code (`unplugin-idl-rpc/runtime`, `unplugin-idl-rpc/runtime/client`) even when the package cannot
 * reference itself by name (a fixture app inside this repository, a linked checkout, esbuild without
 * the package in node_modules). The paths come from the package's own `exports` map.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const PACKAGE_NAME = 'unplugin-idl-rpc';
export const RUNTIME_IMPORT = `${PACKAGE_NAME}/runtime`;
export const RUNTIME_CLIENT_IMPORT = `${PACKAGE_NAME}/runtime/client`;

/** Matches exactly the two runtime specifiers generated code imports. */
export const RUNTIME_SPECIFIER_FILTER = /^unplugin-idl-rpc\/runtime(?:\/client)?$/;

export interface RuntimePaths {
  /** The package root (the folder holding package.json). */
  packageRoot: string;
  /** Absolute path of the built file behind each runtime specifier. */
  files: Record<string, string>;
}

let cached: RuntimePaths | undefined;

/** Finds the package root from this file (works from `src/plugin` and from `dist/src/plugin`). */
function findPackageRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest)) {
      const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string };
      if (pkg.name === PACKAGE_NAME) return dir;
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`${PACKAGE_NAME}: cannot find the package's own package.json`);
    dir = parent;
  }
}

/** The runtime files of this package, read from its `exports` map (cached). */
export function runtimePaths(): RuntimePaths {
  if (cached) return cached;
  const packageRoot = findPackageRoot();
  const pkg = JSON.parse(readFileSync(path.join(packageRoot, 'package.json'), 'utf8')) as {
    exports: Record<string, { default: string } | string>;
  };
  const files: Record<string, string> = {};
  for (const specifier of [RUNTIME_IMPORT, RUNTIME_CLIENT_IMPORT]) {
    const entry = pkg.exports[`.${specifier.slice(PACKAGE_NAME.length)}`];
    const target = typeof entry === 'string' ? entry : entry.default;
    files[specifier] = path.join(packageRoot, target);
  }
  cached = { packageRoot, files };
  return cached;
}

/**
 * The runtime file for an import of generated code (`importer` is an `.idl` module): the runtime
 * without its Node adapters, see generated-code-runtime.ts. Other importers get the exports map's file.
 */
export function resolveRuntimeImport(specifier: string, importer: string | undefined): string {
  if (specifier === RUNTIME_IMPORT && importer !== undefined && /\.idl(?:\?.*)?$/.test(importer)) {
    const file = path.join(runtimePaths().packageRoot, 'dist/src/plugin/generated-code-runtime.js');
    if (!existsSync(file)) {
      throw new Error(`${PACKAGE_NAME}: ${file} does not exist; run \`npm run build\``);
    }
    return file;
  }
  return resolveRuntimeFile(specifier);
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
