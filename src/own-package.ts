/**
 * This package on disk: its root folder and its manifest, found from this file, so the same code
 * works from the sources (`src/`) and from the build (`dist/src/`). The code generator copies the
 * runtime from the root, the plugin resolves the runtime through the manifest's `exports`, and
 * generated headers and `idlrpc -version` name the manifest's version.
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const PACKAGE_NAME = 'unplugin-idl-rpc';
/** The runtime with its Node adapters. */
export const RUNTIME_IMPORT = `${PACKAGE_NAME}/runtime`;
/** The browser part of the runtime: what generated clients import. */
export const RUNTIME_CLIENT_IMPORT = `${PACKAGE_NAME}/runtime/client`;
/** The runtime without Node adapters: what generated `.idl` modules import. */
export const RUNTIME_CORE_IMPORT = `${PACKAGE_NAME}/runtime/core`;
/** The MCP binding: what the dev server's entry imports when the plugin's `server.mcp` is set. */
export const RUNTIME_MCP_IMPORT = `${PACKAGE_NAME}/runtime/mcp`;

/** The parts of this package's package.json that the compiler reads. */
export interface OwnManifest {
  name: string;
  version: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  exports: Record<string, { types?: string; default: string } | string>;
}

let found: { root: string; manifest: OwnManifest } | undefined;

function findOwnPackage(): { root: string; manifest: OwnManifest } {
  if (found) return found;
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; ) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file)) {
      const manifest = JSON.parse(readFileSync(file, 'utf8')) as OwnManifest;
      if (manifest.name === PACKAGE_NAME) return (found = { root: dir, manifest });
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`${PACKAGE_NAME}: cannot find the package's own package.json`);
    dir = parent;
  }
}

/** The folder holding this package's package.json. */
export function ownPackageRoot(): string {
  return findOwnPackage().root;
}

/** This package's package.json (read once). */
export function ownManifest(): OwnManifest {
  return findOwnPackage().manifest;
}

/** The parts of a dependency's package.json that this package reads. */
export interface DependencyManifest {
  name: string;
  version: string;
  exports?: Record<string, { import?: { default?: string } } | string>;
}

const dependencies = new Map<string, { root: string; manifest: DependencyManifest }>();

/**
 * The root folder and package.json of a dependency, as this package resolves it (so the one
 * installed below it, whatever the user's project has). Found as Node finds a package's folder:
 * the first `node_modules/<name>` with a package.json on the lookup paths from this file (its
 * exports map may hide package.json from `require.resolve`). Resolving the entry and walking up
 * from it, as this did first, read a package.json at every level: about 2 ms of every build.
 */
export function dependencyPackage(name: string): { root: string; manifest: DependencyManifest } {
  const known = dependencies.get(name);
  if (known) return known;
  const require = createRequire(import.meta.url);
  const file = require.resolve
    .paths(name)
    ?.map((modules) => path.join(modules, name, 'package.json'))
    .find((candidate) => existsSync(candidate));
  // The real folder, as bundlers resolve it too (pnpm links packages); without lookup paths (Yarn
  // Plug'n'Play), upwards from the resolved entry.
  const root = file === undefined ? packageRootAbove(require.resolve(name), name) : realpathSync(path.dirname(file));
  const found = { root, manifest: JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as DependencyManifest };
  dependencies.set(name, found);
  return found;
}

/** The folder of the package `name` that holds `entry`: the nearest one above it whose package.json names it. */
function packageRootAbove(entry: string, name: string): string {
  for (let dir = path.dirname(entry); ; ) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file) && (JSON.parse(readFileSync(file, 'utf8')) as DependencyManifest).name === name) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`${PACKAGE_NAME}: cannot find ${name}'s package.json`);
    dir = parent;
  }
}
