/**
 * The schemas in generated code must be exactly the ones the runtime builds from the IDL JSON, and
 * the generated validators must decide like validators the runtime compiles itself.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, test } from 'vitest';
import { generateModule } from '../../src/codegen/index.js';
import { compileIdl, toIdlJson } from '../../src/idl/index.js';
import { compileValidators, idlSchemas, type ValidatorTable } from '../../runtime/index.js';
import type { TSchema } from '@sinclair/typebox';
import { checkoutIdl, everythingIdl, freshDir, repoRoot } from './helpers.js';

interface GeneratedModule {
  schemaReferences: TSchema[];
  methodSchemas: Record<string, { params: TSchema[]; result: TSchema }>;
  validators: ValidatorTable;
}

/** Writes the plugin module of an IDL to disk and imports it (runtime imports point at the sources). */
async function importGenerated(idlFile: string, name: string) {
  const model = compileIdl(readFileSync(idlFile, 'utf8'), path.basename(idlFile));
  const { js } = generateModule(model, {
    runtimeImport: path.join(repoRoot, 'runtime/index.ts'),
    runtimeClientImport: path.join(repoRoot, 'runtime/client.ts'),
    sourceFile: path.basename(idlFile),
  });
  const dir = freshDir(`module-${name}`);
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.mjs`);
  writeFileSync(file, js);
  return { js, idl: toIdlJson(model), module: (await import(pathToFileURL(file).href)) as GeneratedModule };
}

describe.each([
  ['checkout', checkoutIdl],
  ['everything', everythingIdl],
])('%s', (name, idlFile) => {
  test('generated schemas deep-equal the runtime schemas of the IDL JSON', async () => {
    const { idl, module } = await importGenerated(idlFile, name);
    const runtime = idlSchemas(idl);
    expect(module.schemaReferences).toStrictEqual(runtime.references);
    expect(module.methodSchemas).toStrictEqual(runtime.methods);
    expect(Object.keys(module.validators)).toEqual(Object.keys(runtime.methods));
  });

  test('the embedded IDL JSON equals toIdlJson of the model', async () => {
    const { idl, module } = await importGenerated(idlFile, name);
    const embedded = Object.entries(module).find(([key]) => key.endsWith('Idl'))?.[1];
    expect(embedded).toStrictEqual(idl);
  });

  test('the plugin module is plain JavaScript with no eval or new Function', async () => {
    const { js } = await importGenerated(idlFile, name);
    expect(js).not.toMatch(/\bnew Function\b|\beval\(|\bFunction\(/);
    expect(js).not.toMatch(/:\s*(string|number|boolean|any)\b[,)]/);
  });
});

test('generated validators decide like the validators the runtime compiles from the IDL JSON', async () => {
  const { idl, module } = await importGenerated(everythingIdl, 'everything-decide');
  const compiled = compileValidators(idl);
  const leaf = { id: 'x', level: 1, color: 'red', ratio: 0.5, enabled: true, tags: [], grid: [[{ a: 1 }]] };
  const samples: Record<string, unknown[][]> = {
    'Everything.echoLeaf': [
      [leaf],
      [{ ...leaf, note: null, lookup: { k: [leaf] }, size: 'small' }],
      [{ ...leaf, color: 'purple' }],
      [{ ...leaf, level: 1.5 }],
      [{ ...leaf, level: 2 ** 53 }],
      [{ ...leaf, grid: [[{ a: 'one' }]] }],
      [{ ...leaf, note: 3 }],
      [{ ...leaf, extra: 'unknown fields pass' }],
      [{ id: 'x' }],
      [null],
      ['leaf'],
    ],
    'Everything.sum': [[[1, 2], { a: 1 }], [[1, '2'], {}], [[], { a: Infinity }], [[NaN], {}]],
    'Everything.flags': [[true, false], [1, 0], ['true', false]],
    'Everything.tree': [
      [{ name: 'r', children: [{ name: 'c', children: [] }] }],
      [{ name: 'r', children: [{ name: 'c' }] }],
      [{ name: 'r', children: [], parent: { name: 'p', children: [], parent: null } }],
    ],
  };
  let checked = 0;
  for (const [method, calls] of Object.entries(samples)) {
    for (const params of calls) {
      params.forEach((value, i) => {
        const expected = compiled[method].params[i].check(value);
        expect(module.validators[method].params[i].check(value), `${method} param ${i}: ${JSON.stringify(value)}`).toBe(expected);
        expect(module.validators[method].params[i].errors(value).length === 0).toBe(expected);
        checked++;
      });
    }
  }
  expect(checked).toBeGreaterThan(20);
  const results: [string, unknown, boolean][] = [
    ['Everything.findBase', null, true],
    ['Everything.findBase', { id: 'b' }, true],
    ['Everything.findBase', { note: 'n' }, false],
    ['Everything.maybeCount', null, true],
    ['Everything.maybeCount', 2.5, false],
    ['Everything.colors', { a: 'red' }, true],
    ['Everything.colors', { a: 'RED' }, false],
    ['Everything.nothing', {}, true],
    ['Everything.grid', [[{ a: 1 }], []], true],
    ['Everything.grid', [[[{ a: 1 }]]], false],
    ['Second.lastError', { message: 'm', local_0: 3, details: { a: 'b' } }, true],
    ['Second.lastError', { message: 'm', local_0: 'three' }, false],
    ['Second.lastError', { message: 'm', details: { a: 1 } }, false],
  ];
  for (const [method, value, valid] of results) {
    expect(compiled[method].result.check(value), `${method} result (runtime)`).toBe(valid);
    expect(module.validators[method].result.check(value), `${method} result ${JSON.stringify(value)}`).toBe(valid);
  }
});

test('a bundle that imports only a client leaves out schemas, validators and the server', async () => {
  await importGenerated(checkoutIdl, 'treeshake');
  const dir = path.join(repoRoot, 'test-output/generator/module-treeshake');
  writeFileSync(path.join(dir, 'entry.mjs'), "import { CatalogServiceClient } from './treeshake.mjs';\nconsole.log(CatalogServiceClient);\n");
  const result = await build({
    entryPoints: [path.join(dir, 'entry.mjs')],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    logLevel: 'silent',
  });
  const bundle = result.outputFiles[0].text;
  expect(bundle).toContain('CatalogService.listProducts');
  expect(bundle).not.toMatch(/Type\.Object|ProductSchema|check_Product|typeboxValidator|createRpcServer|checkoutIdl/);
});
