/**
 * IDL -> OpenAPI -> IDL gives the same model for random valid IDL files (every construct, Unicode
 * comments and messages), in both OpenAPI versions, and the document validates strictly.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { checkIdl } from '../../src/idl/checker.js';
import { idlToOpenApi, openApiToIdl } from '../../src/openapi/index.js';
import { randomIdlFile } from '../idl/random-idl.js';
import { comparableModel, expectChecksClean, strictProblems } from './helpers.js';

describe('IDL -> OpenAPI -> IDL (property)', () => {
  test.each(['3.1', '3.0'] as const)('random models come back the same through OpenAPI %s', (version) => {
    fc.assert(
      fc.property(fc.gen(), (g) => {
        const { model } = checkIdl(randomIdlFile(g));
        expect(model).toBeDefined();
        const { document } = idlToOpenApi([model!], { version });
        const back = openApiToIdl({ document: JSON.parse(JSON.stringify(document)) });
        expect(back.warnings).toEqual([]);
        expect(comparableModel(expectChecksClean(back.idl))).toEqual(comparableModel(model!));
      }),
      { numRuns: 200 },
    );
  });

  test.each(['3.1', '3.0'] as const)('documents of random models pass strict validation (OpenAPI %s)', async (version) => {
    await fc.assert(
      fc.asyncProperty(fc.gen(), async (g) => {
        const { model } = checkIdl(randomIdlFile(g));
        const { document } = idlToOpenApi([model!], { version });
        // Random models declare types no method uses; everything else must pass.
        expect(await strictProblems(document, false, ['no-unused-components'])).toEqual([]);
      }),
      { numRuns: 25 },
    );
  });
});
