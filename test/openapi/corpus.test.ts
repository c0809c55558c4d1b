/**
 * Real published OpenAPI documents (@readme/oas-examples) convert without a crash to IDL that checks
 * clean. The counts are pinned so that a change of behaviour shows up as a diff to review.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { idlToOpenApi, openApiToIdl, type OpenApiToIdlResult } from '../../src/openapi/index.js';
import { comparableModel, counts, expectChecksClean, strictProblems } from './helpers.js';

const examples = dirname(createRequire(import.meta.url).resolve('@readme/oas-examples/package.json'));

function convert(relativePath: string): OpenApiToIdlResult {
  const path = join(examples, relativePath);
  return openApiToIdl({ text: readFileSync(path, 'utf8'), fileName: path }, { binary: 'drop' });
}

/** [file, structs, enums, interfaces, methods, warnings]. */
const pinned: [string, number, number, number, number, number][] = [
  ['3.0/json/petstore.json', 8, 3, 3, 20, 28],
  ['3.0/yaml/petstore.yaml', 8, 3, 3, 20, 28],
  ['3.1/json/petstore.json', 7, 3, 3, 19, 28],
  ['3.1/yaml/petstore.yaml', 7, 3, 3, 19, 28],
  ['3.0/json/petstore-expanded.json', 3, 0, 1, 4, 4],
  ['3.0/json/schema-circular.json', 33, 0, 3, 3, 12],
  ['3.0/json/circular.json', 1, 1, 1, 1, 1],
  ['3.0/json/circular-request-bodies.json', 5, 1, 4, 4, 2],
  ['3.0/json/discriminators.json', 24, 6, 8, 10, 20],
  ['3.0/json/polymorphism.json', 16, 4, 5, 13, 19],
  ['3.0/json/schema-enums.json', 9, 11, 1, 3, 22],
  ['3.0/json/schema-types.json', 24, 6, 8, 21, 31],
  ['3.0/json/complex-nesting.json', 11, 0, 3, 5, 8],
  ['3.0/json/star-trek.json', 253, 9, 40, 120, 80],
  ['3.1/json/train-travel.json', 21, 2, 4, 7, 70],
  ['3.1/json/readme.json', 528, 246, 15, 54, 100],
];

describe('published OpenAPI documents', () => {
  it.each(pinned)('%s: %i structs, %i enums, %i interfaces, %i methods, %i warnings', (file, ...expected) => {
    const result = convert(file);
    expectChecksClean(result.idl);
    expect(counts(result)).toEqual(expected);
  });

  // The IDL of a real document, written back as OpenAPI, validates strictly and converts back to the
  // same model. (Hoisted structs that only a dropped operation used are unused components.)
  it.each([
    '3.0/json/petstore.json',
    '3.0/json/star-trek.json',
    '3.1/json/readme.json',
    '3.0/json/discriminators.json',
    '3.0/json/schema-circular.json',
  ])('%s -> IDL -> OpenAPI 3.1 and 3.0 validates strictly and gives the same model back', async (file) => {
    const model = expectChecksClean(convert(file).idl);
    for (const version of ['3.1', '3.0'] as const) {
      const { document } = idlToOpenApi([model], { version });
      expect(await strictProblems(document, false, ['no-unused-components'])).toEqual([]);
      const back = openApiToIdl({ document });
      expect(back.warnings).toEqual([]);
      expect(comparableModel(expectChecksClean(back.idl))).toEqual(comparableModel(model));
    }
  });

  it('converts the JSON and YAML forms of a document to the same IDL', () => {
    expect(convert('3.0/yaml/petstore.yaml').idl).toBe(convert('3.0/json/petstore.json').idl);
    expect(convert('3.0/yaml/star-trek.yaml').idl).toBe(convert('3.0/json/star-trek.json').idl);
    expect(convert('3.1/yaml/petstore.yaml').idl).toBe(convert('3.1/json/petstore.json').idl);
  });

  const all = ['3.0/json', '3.0/yaml', '3.1/json', '3.1/yaml'].flatMap((folder) =>
    readdirSync(join(examples, folder))
      .filter((name) => /\.(json|ya?ml)$/.test(name))
      .map((name) => `${folder}/${name}`),
  );

  it.each(all)('%s converts to IDL that checks clean', (file) => {
    expectChecksClean(convert(file).idl);
  });

  it.each(readdirSync(join(examples, '2.0/json')).map((name) => `2.0/json/${name}`))('%s is refused as Swagger 2.0', (file) => {
    expect(() => convert(file)).toThrow(/Swagger 2\.0 documents are not supported/);
  });
});
