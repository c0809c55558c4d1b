/**
 * Imports a TypeScript module that is not part of dist/ (test helpers, the playground) by bundling
 * it with esbuild into bench/.cache/ (gitignored); packages stay external and resolve as usual.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { repoRoot } from './checkout.mjs';

export const cacheDir = path.join(repoRoot, 'bench', '.cache');

/** Bundles `tsFile` (absolute) and imports the result; `define` replaces expressions, as esbuild does. */
export async function importTypeScript(tsFile, plugins = [], define = undefined) {
  mkdirSync(cacheDir, { recursive: true });
  const outfile = path.join(cacheDir, `${path.relative(repoRoot, tsFile).replaceAll(/[\\/]/g, '__')}.mjs`);
  await build({
    entryPoints: [tsFile],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    plugins,
    define,
    logLevel: 'error',
  });
  return import(`${pathToFileURL(outfile).href}?t=${Date.now()}`);
}
