/**
 * Where the on-disk compile cache lives: `node_modules/.cache/unplugin-idl-rpc` of the nearest
 * folder with a package.json at or above the project root, as `find-cache-dir` (Babel, webpack
 * loaders, ESLint) picks it, so one `rm -rf node_modules/.cache` clears every tool's cache.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { PACKAGE_NAME } from '../own-package.js';

/** The environment variable that turns the disk caches off when set to `0` or `false`. */
export const CACHE_ENV = 'IDLRPC_CACHE';

/** Whether `IDLRPC_CACHE` turns the disk caches off (the compile cache and the code cache, code-cache.ts). */
export function cacheSwitchedOff(env: NodeJS.ProcessEnv = process.env): boolean {
  return ['0', 'false'].includes((env[CACHE_ENV] ?? '').trim().toLowerCase());
}

/**
 * The cache folder for a project rooted at `root`: `cacheDir` (relative to `root`) when given,
 * else the `find-cache-dir` one; undefined (no disk cache) when `enabled` is false, when
 * `IDLRPC_CACHE` is `0` or `false`, or when no package.json is found.
 */
export function cacheFolder(
  root: string,
  enabled: boolean,
  cacheDir: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  if (!enabled || cacheSwitchedOff(env)) return undefined;
  if (cacheDir !== undefined) return path.resolve(root, cacheDir);
  for (let dir = path.resolve(root); ; ) {
    if (existsSync(path.join(dir, 'package.json'))) return path.join(dir, 'node_modules', '.cache', PACKAGE_NAME);
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}
