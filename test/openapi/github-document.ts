/**
 * GitHub's REST API description (`@octokit/openapi@23.0.2`, 13 MB of JSON) for the large-document
 * test. The package is 29 MB packed and 404 MB installed, so it is not a dependency: it is fetched
 * on demand with `npm pack` into the git-ignored `.cache/openapi/`, and only the one JSON file is
 * extracted.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';

export const GITHUB_PACKAGE = '@octokit/openapi@23.0.2';
const cacheDir = join(import.meta.dirname, '..', '..', '.cache', 'openapi');
export const githubDocumentPath = join(cacheDir, 'octokit-openapi-23.0.2', 'api.github.com.json');

/** The path of the cached document, fetching it first when needed. Throws when that fails. */
export function fetchGithubDocument(): string {
  if (existsSync(githubDocumentPath)) return githubDocumentPath;
  mkdirSync(cacheDir, { recursive: true });
  const work = mkdtempSync(join(cacheDir, 'fetch-'));
  try {
    const packed = execFileSync('npm', ['pack', GITHUB_PACKAGE, '--pack-destination', work, '--silent'], {
      encoding: 'utf8',
      timeout: 300_000,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
      .trim()
      .split('\n')
      .pop()!;
    const member = 'package/generated/api.github.com.json';
    execFileSync('tar', ['-xzf', join(work, packed), '-C', work, member], { timeout: 120_000, stdio: 'pipe' });
    mkdirSync(join(cacheDir, 'octokit-openapi-23.0.2'), { recursive: true });
    // Renamed into place only when complete, so an interrupted fetch is never mistaken for a cache hit.
    renameSync(join(work, member), githubDocumentPath);
    return githubDocumentPath;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * The document for a test, or undefined after skipping it with the reason. Outside CI a failed fetch
 * (no registry) skips the test; in CI it fails it.
 */
export function githubDocumentOrSkip(context: { skip(note?: string): void }): string | undefined {
  try {
    return fetchGithubDocument();
  } catch (error) {
    if (process.env.CI) throw error;
    context.skip(`cannot fetch ${GITHUB_PACKAGE} (outside CI this test may skip): ${(error as Error).message.split('\n')[0]}`);
    return undefined;
  }
}
