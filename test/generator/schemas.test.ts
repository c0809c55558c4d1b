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
import { syntheticIdl } from '../idl/synthetic.js';
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
  ['unions', path.join(repoRoot, 'test/runtime/fixtures/unions.idl')],
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
    'Everything.sum': [
      [[1, 2], { a: 1 }],
      [[1, '2'], {}],
      [[], { a: Infinity }],
      [[NaN], {}],
    ],
    'Everything.flags': [
      [true, false],
      [1, 0],
      ['true', false],
    ],
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

test('in a module of many types reaching each other, each check is declared once and validators decide like the runtime', async () => {
  // G<n>Item.previous refers to G<n-1>Item, so the check of the last item reaches every earlier one.
  const dir = freshDir('synthetic-idl');
  const idlFile = path.join(dir, 'synthetic.idl');
  writeFileSync(idlFile, syntheticIdl(400));
  const { js, idl, module } = await importGenerated(idlFile, 'synthetic');
  const declared = [...js.matchAll(/^function (check_\w+)\(/gm)].map((match) => match[1]);
  // Every named type a method reaches (the G<n>Base parents too: an item's check calls its parent's).
  const reached = module.schemaReferences.map((schema) => schema.$id!);
  expect([...declared].sort()).toEqual(reached.map((id) => `check_${id}`).sort());

  const groups = module.schemaReferences.filter((schema) => /^G\d+Item$/.test(schema.$id!)).length;
  expect(groups).toBeGreaterThan(5);
  const item = (group: number): Record<string, unknown> => ({
    id: `i${group}`,
    createdAt: group,
    quantity: 1,
    price: 2.5,
    status: 'done',
    labels: { a: 'b' },
    tags: ['t'],
    ...(group > 0 ? { previous: item(group - 1) } : {}),
  });
  const last = groups - 1;
  const deepest = (value: Record<string, unknown>): Record<string, unknown> =>
    value.previous ? deepest(value.previous as Record<string, unknown>) : value;
  const withDeepest = (change: Record<string, unknown>) => {
    const value = item(last);
    Object.assign(deepest(value), change);
    return value;
  };
  const compiled = compileValidators(idl);
  const cases: [string, 'param' | 'result', unknown][] = [
    [`G${last}Service.put`, 'param', item(last)],
    [`G${last}Service.put`, 'param', withDeepest({ status: 'unknown' })],
    [`G${last}Service.put`, 'param', withDeepest({ labels: { a: 1 } })],
    [`G${last}Service.put`, 'param', withDeepest({ createdAt: 1.5 })],
    [`G${last}Service.put`, 'param', withDeepest({ previous: null })],
    [`G${last}Service.get`, 'result', null],
    [`G${last}Service.get`, 'result', item(last)],
    [`G${last}Service.get`, 'result', withDeepest({ tags: [1] })],
    [`G${last}Service.list`, 'result', { items: [item(last), item(2)], total: 2 }],
    [`G${last}Service.list`, 'result', { items: [item(last), withDeepest({ price: 'free' })], total: 2 }],
    ['G0Service.counts', 'result', { a: 1, b: 2 }],
    ['G0Service.counts', 'result', { a: 1, b: 2.5 }],
  ];
  const decisions = cases.map(([method, kind, value]) => {
    const expected = kind === 'param' ? compiled[method].params[0].check(value) : compiled[method].result.check(value);
    const generated = kind === 'param' ? module.validators[method].params[0].check(value) : module.validators[method].result.check(value);
    expect(generated, `${method} ${kind}: ${JSON.stringify(value)}`).toBe(expected);
    return expected;
  });
  // The samples include both answers, so the comparison means something.
  expect(decisions).toEqual([true, false, false, false, true, true, true, false, true, false, true, false]);
});

test('a bundle that imports only a client leaves out schemas, validators and the server', async () => {
  await importGenerated(checkoutIdl, 'treeshake');
  const dir = path.join(repoRoot, 'test-output/generator/module-treeshake');
  writeFileSync(
    path.join(dir, 'entry.mjs'),
    "import { CatalogServiceClient } from './treeshake.mjs';\nconsole.log(CatalogServiceClient);\n",
  );
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
