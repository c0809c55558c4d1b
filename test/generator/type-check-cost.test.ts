/**
 * The generated `types.ts` gives the checker no work that grows with the square of the IDL. A
 * reference to a top-level `const` or a global (`Object`, `Number`) in a top-level expression (or in
 * an immediately invoked or arrow function there), and a reference to anything, even an import such
 * as TypeBox's `Type`, in an immediately invoked function (the checker reads it as part of the
 * module's control flow) makes `tsc` walk the module's control flow back to the declaration, or the
 * file's start, past every `const` between: GitHub's IDL (3,505 structs) took minutes that way. Timings belong to the benchmarks (`npm run bench -- --only types`); this
 * test pins the shapes that avoid the walk.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { generateTypeScriptFiles } from '../../src/codegen/index.js';
import { compileIdl } from '../../src/idl/index.js';
import { checkoutIdl } from './helpers.js';

const typesTs = generateTypeScriptFiles(compileIdl(readFileSync(checkoutIdl, 'utf8'), 'checkout.idl'), {
  moduleStyle: 'esm-node',
  sourceFile: 'checkout.idl',
}).get('types.ts')!;

/** The top-level statements of a generated file that start with `export const` or `const`, whole. */
function topLevelConsts(source: string): string[] {
  return source
    .split(/\n(?=\S)/)
    .map((statement) => statement.trim())
    .filter((statement) => /^(export )?const /.test(statement));
}

test('integer schemas write the safe-integer bounds as digits, not Number.MAX_SAFE_INTEGER', () => {
  expect(typesTs).toContain('Type.Integer({ minimum: -9007199254740991, maximum: 9007199254740991 })');
  expect(typesTs).not.toContain('MAX_SAFE_INTEGER');
});

test('no top-level const calls Object.freeze (enum values are frozen by a function declaration)', () => {
  const statements = topLevelConsts(typesTs);
  expect(statements.some((statement) => statement.includes('export const OrderStatus ='))).toBe(true);
  expect(statements.filter((statement) => statement.includes('Object.'))).toEqual([]);
  expect(typesTs).toMatch(
    /\nfunction frozenValues<T extends object>\(values: T\): Readonly<T> \{\n {2}return Object\.freeze\(values\);\n\}/,
  );
});

test('schemaReferences and validators are built in function declarations, not listed at the top level', () => {
  const statements = topLevelConsts(typesTs);
  const references = statements.find((statement) => statement.startsWith('export const schemaReferences:'));
  const validators = statements.find((statement) => statement.startsWith('export const validators:'));
  expect(references).toMatch(/= \/\*#__PURE__\*\/ everyNamedSchema\(\);$/);
  expect(validators).toMatch(/= \/\*#__PURE__\*\/ validatorTable\(\);$/);
  expect(typesTs).toContain('\nfunction everyNamedSchema(): TSchema[] {\n  return [ProductSchema as TSchema, ');
  expect(typesTs).toContain("\nfunction validatorTable(): ValidatorTable {\n  return {\n    'CatalogService.listProducts': ");
});

test('no top-level const runs an arrow function in place: schemas are built by a helper, validators by function declarations', () => {
  const statements = topLevelConsts(typesTs);
  expect(statements.filter((statement) => /\(\(\) =>[\s\S]*\)\(\)/.test(statement))).toEqual([]);
  expect(typesTs).toMatch(/\nfunction built<T>\(build: \(\) => T\): T \{\n {2}return build\(\);\n\}/);
  const schemas = statements.filter((statement) => /^export const \w+Schema =/.test(statement));
  expect(schemas.length).toBeGreaterThan(5);
  for (const schema of schemas) expect(schema).toMatch(/^export const \w+Schema = \/\*#__PURE__\*\/ built\(\(\) =>\n/);
  const validators = statements.filter((statement) => /^const \w+Validator =/.test(statement));
  expect(validators.length).toBeGreaterThan(5);
  for (const validator of validators) {
    const [, name] = /^const (\w+) =/.exec(validator)!;
    expect(validator).toBe(`const ${name} = /*#__PURE__*/ make_${name}();`);
    expect(typesTs).toContain(`\nfunction make_${name}(): Validator {\n  return generatedValidator(`);
  }
});
