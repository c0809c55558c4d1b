/**
 * The largest real document: GitHub's REST API description (811 paths, 969 schemas) converts to IDL
 * that checks clean. Fetched on demand (see github-document.ts); in CI a failed fetch fails the test.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { expectOutputDirectoryCompiles } from '../generator/helpers.js';
import { BinaryDataError, idlToOpenApi, openApiToIdl } from '../../src/openapi/index.js';
import { GITHUB_PACKAGE, githubDocumentOrSkip } from './github-document.js';
import { comparableModel, counts, expectChecksClean, strictProblems } from './helpers.js';

describe(`GitHub REST API description (${GITHUB_PACKAGE})`, () => {
  it('converts to IDL that checks clean', { timeout: 600_000 }, (context) => {
    const path = githubDocumentOrSkip(context);
    if (path === undefined) return;
    const text = readFileSync(path, 'utf8');
    // By default binary data (release asset uploads) fails the conversion, naming every place ...
    const uploadBody =
      '/paths/~1repos~1{owner}~1{repo}~1releases~1{release_id}~1assets/post/requestBody/content/application~1octet-stream/schema';
    expect(() => openApiToIdl({ text, fileName: path })).toThrow(BinaryDataError);
    try {
      openApiToIdl({ text, fileName: path });
    } catch (error) {
      expect((error as BinaryDataError).locations).toEqual([
        { pointer: uploadBody, member: 'operation POST /repos/{owner}/{repo}/releases/{release_id}/assets', action: 'dropped' },
      ]);
    }
    // ... and with binary: 'drop' those operations are dropped with warnings.
    const started = performance.now();
    const result = openApiToIdl({ text, fileName: path }, { binary: 'drop' });
    const elapsed = performance.now() - started;
    // Informational only (no timed assertions): docs/openapi.md has a measurement in a fresh process.
    console.info(
      `GitHub document converted in ${Math.round(elapsed)} ms; peak RSS of the test worker ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`,
    );
    expectChecksClean(result.idl);
    // [structs, enums, interfaces, methods, warnings] (116 of the warnings: examples that are not values of their IDL type, dropped;
    // 250 oneOf/anyOf whose first alternative is used, 256 before unions: 6 are unions, whose tag constants are no enums any more)
    expect(counts(result)).toEqual([3505, 3099, 47, 1222, 6332]);
    expect(result.idl.match(/^union /gm)).toHaveLength(6);
    // Title "GitHub's official OpenAPI spec + Octokit extension" by the namespace rule.
    expect(result.idl).toContain('\nnamespace github_s_official_openapi_spec___octokit_extension\n');
    // Every warning points into the document, and none is repeated.
    expect(result.warnings.every((w) => w.pointer.startsWith('/'))).toBe(true);
    expect(new Set(result.warnings.map((w) => `${w.pointer} ${w.message}`)).size).toBe(result.warnings.length);
    expect(result.warnings.filter((w) => w.message.includes('binary data')).map((w) => w.pointer)).toEqual([uploadBody]);
  });

  it('gives IDL that, written back as OpenAPI 3.1, validates strictly and converts back to the same model', {
    timeout: 600_000,
  }, async (context) => {
    const path = githubDocumentOrSkip(context);
    if (path === undefined) return;
    const model = expectChecksClean(openApiToIdl({ text: readFileSync(path, 'utf8'), fileName: path }, { binary: 'drop' }).idl);
    const { document, warnings } = idlToOpenApi([model]);
    // Parameters named `default`, `in`, ... of the GitHub API.
    expect(warnings.length).toBe(4);
    expect(await strictProblems(document, false, ['no-unused-components'])).toEqual([]);
    const back = openApiToIdl({ document });
    expect(back.warnings).toEqual([]);
    expect(comparableModel(expectChecksClean(back.idl))).toEqual(comparableModel(model));
  });

  // 3,504 structs: the generated TypeScript used to fail with TS2590 ("union type that is too
  // complex") from about 1,100. This run takes tsc about a minute and 1.8 GB.
  it('gives IDL whose generated TypeScript compiles under tsc --strict', { timeout: 600_000 }, async (context) => {
    const source = githubDocumentOrSkip(context);
    if (source === undefined) return;
    const { idl } = openApiToIdl({ text: readFileSync(source, 'utf8'), fileName: source }, { binary: 'drop' });
    await expectOutputDirectoryCompiles('github', idl);
  });
});
