/**
 * GitHub's REST API description (`@octokit/openapi@23.0.2`, 13 MB of JSON) for the large-document
 * test. The package is 29 MB packed and 404 MB installed, so it is not a dependency: it is fetched
 * on demand (package-documents.ts), and only the one JSON file is extracted.
 */
import { cachedPackageFile, fetchPackageFiles } from './package-documents.js';

export const GITHUB_PACKAGE = '@octokit/openapi@23.0.2';
const GITHUB_MEMBER = 'generated/api.github.com.json';
export const githubDocumentPath = cachedPackageFile(GITHUB_PACKAGE, GITHUB_MEMBER);

/** The path of the cached document, fetching it first when needed. Throws when that fails. */
export function fetchGithubDocument(): string {
  return fetchPackageFiles(GITHUB_PACKAGE, [GITHUB_MEMBER])[0];
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
