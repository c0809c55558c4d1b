/**
 * The problem lists of generated validators (walkers generated ahead of time, see
 * src/codegen/emit-problem-walkers.ts) against the runtime's explainer, which builds its walkers
 * from the schema at run time (`typeboxValidator` with the named checks, as `compileValidators`
 * gives): for every validator of IDLs that use every type form, random valid and invalid values,
 * plain or not (inherited fields, holes, odd keys), give exactly the same list.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateModule } from '../../src/codegen/index.js';
import { compileIdl, toIdlJson } from '../../src/idl/index.js';
import { idlSchemas } from '../../runtime/schema.js';
import { MAX_ISSUES, type NamedChecks, typeboxValidator, type Validator, type ValidatorTable } from '../../runtime/validation.js';
import { valuesOf } from './schema-values.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');

/** An IDL file of the repository, its generated module (imported) and the runtime's validators of the same schemas. */
async function loadIdl(relative: string) {
  const file = path.join(repoRoot, relative);
  const name = path.basename(file, '.idl');
  const model = compileIdl(readFileSync(file, 'utf8'), path.basename(file));
  const { js } = generateModule(model, {
    runtimeImport: path.join(repoRoot, 'runtime/index.ts'),
    runtimeClientImport: path.join(repoRoot, 'runtime/client.ts'),
    sourceFile: path.basename(file),
  });
  const dir = path.join(repoRoot, 'test-output/runtime/generated-problems');
  mkdirSync(dir, { recursive: true });
  const out = path.join(dir, `${name}-${process.pid}.mjs`);
  writeFileSync(out, js);
  const generated = ((await import(pathToFileURL(out).href)) as { validators: ValidatorTable }).validators;
  const { references, methods } = idlSchemas(toIdlJson(model));
  const namedChecks: NamedChecks = Object.fromEntries(
    references.map((reference) => {
      const compiled = TypeCompiler.Compile(reference, references);
      return [String(reference.$id), (value: unknown) => compiled.Check(value)];
    }),
  );
  const cases: { name: string; schema: TSchema; generated: Validator; runtime: Validator }[] = [];
  for (const [method, schemas] of Object.entries(methods)) {
    const pair = (schema: TSchema, validator: Validator, label: string) => {
      const compiled = TypeCompiler.Compile(schema, references);
      const runtime = typeboxValidator((value) => compiled.Check(value), schema, references, namedChecks);
      cases.push({ name: `${name} ${method} ${label}`, schema, generated: validator, runtime });
    };
    schemas.params.forEach((schema, index) => {
      pair(schema, generated[method].params[index], `param ${index}`);
    });
    pair(schemas.result, generated[method].result, 'result');
  }
  return { references, cases, js };
}

/**
 * `value` with some of its objects made not plain: a field moved to a prototype, or the object
 * given a prototype of its own (`choice` picks which, for each object met, deterministically).
 */
function exotic(value: unknown, choice: number): unknown {
  let n = choice;
  const visit = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(visit);
    if (typeof v !== 'object' || v === null) return v;
    const entries = Object.entries(v).map(([key, item]) => [key, visit(item)] as const);
    n = (n * 31 + 7) % 97;
    if (n % 5 === 0 && entries.length > 0) {
      // The first field inherited, the rest own.
      const [[key, item], ...rest] = entries;
      return Object.assign(Object.create({ [key]: item }) as object, Object.fromEntries(rest));
    }
    if (n % 5 === 1) return Object.assign(Object.create({ extra: 1 }) as object, Object.fromEntries(entries));
    if (n % 5 === 2) return Object.assign(Object.create(null) as object, Object.fromEntries(entries));
    return Object.fromEntries(entries);
  };
  return visit(value);
}

const idls = await Promise.all(
  [
    'test/runtime/fixtures/walkers.idl',
    'test/runtime/fixtures/wire-forms.idl',
    'test/runtime/fixtures/constraints.idl',
    'test/generator/fixtures/everything.idl',
    'playground/checkout.idl',
  ].map(loadIdl),
);

describe('generated problem walkers list exactly what the runtime explainer lists', () => {
  const cases = idls.flatMap(({ references, cases }) => cases.map((c) => ({ ...c, references })));

  it.each(cases.map((c) => [c.name, c] as const))(
    '%s: random values, plain and not',
    (_name, { schema, references, generated, runtime }) => {
      const byId = new Map(references.map((r) => [String(r.$id), r]));
      fc.assert(
        fc.property(valuesOf(schema, byId), fc.nat(96), (value, choice) => {
          expect(generated.errors(value)).toStrictEqual(runtime.errors(value));
          const odd = exotic(value, choice);
          expect(generated.errors(odd)).toStrictEqual(runtime.errors(odd));
          expect(generated.check(value)).toBe(runtime.check(value));
        }),
        { numRuns: 200 },
      );
    },
  );

  const find = (name: string) => cases.find((c) => c.name === name)!;

  it('agrees at MAX_ISSUES (arrays, maps, missing fields, the " or null" rule at the edge) and on odd map keys', () => {
    const leaf = find('walkers Api.leaf param 0');
    const colors = find('walkers Api.colors param 1');
    const tree = find('walkers Api.tree param 0');
    const badLeaf = { id: 1, level: 'x', color: 'pink', ratio: 'r', enabled: 0, tags: [1, 2], grid: [[{ a: 'x' }]], one: 'two' };
    const values: [typeof leaf, unknown][] = [
      [tree, Array.from({ length: 30 }, () => badLeaf)],
      [
        tree,
        Array.from({ length: 99 }, () => ({
          ...badLeaf,
          id: 'ok',
          level: 1,
          color: 'red',
          ratio: 1,
          enabled: true,
          tags: [],
          grid: [],
          one: 'only',
          size: 5,
        })),
      ],
      [colors, Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`k${i}\n${i}`, 'pink']))],
      [colors, { '\n': 'pink', '': 'red', 'a.b': 'x', '0': 1, __proto__: 'green', constructor: 'blue', toString: 7 }],
      [leaf, { ...badLeaf, tags: Array.from({ length: 200 }, () => 3) }],
      [leaf, { ...badLeaf, parent: { ...badLeaf, parent: { id: 'deep' } } }],
    ];
    for (const [{ generated, runtime }, value] of values) {
      const expected = runtime.errors(value);
      expect(generated.errors(value)).toStrictEqual(expected);
      expect(expected.length).toBeGreaterThan(0);
      expect(expected.length).toBeLessThanOrEqual(MAX_ISSUES);
    }
  });

  it('agrees on values that are not plain data (inherited, hidden, getters, holes, no prototype)', () => {
    const { generated, runtime } = find('checkout CartService.addToCart result');
    const item = { productId: 'p', quantity: 1, price: 2 };
    class Item {
      productId = 'p';
      get quantity() {
        return 'many';
      }
      price = 1;
    }
    const sparse: unknown[] = [item];
    sparse[3] = { ...item, quantity: 'q' };
    const values = [
      { cartId: 'c', items: [Object.assign(Object.create({ price: 'x' }) as object, { productId: 5, quantity: 1 })], subtotal: 1 },
      { cartId: 'c', items: [new Item(), { ...item, price: 'x' }], subtotal: 1 },
      { cartId: 'c', items: sparse, subtotal: 1 },
      { cartId: 'c', items: [item], subtotal: 'x', __proto__: { cartId: 1 } },
      Object.assign(Object.create({ subtotal: 3 }) as object, { cartId: 1, items: [] }),
      Object.assign(Object.create(null) as object, { cartId: 1, items: [{ ...item, quantity: 2 ** 53 }], subtotal: NaN }),
      Object.defineProperty({ cartId: 'c', items: [], subtotal: 'x' }, 'cartId', { value: 3, enumerable: false }),
    ];
    for (const value of values) expect(generated.errors(value)).toStrictEqual(runtime.errors(value));
  });

  it('lists the problems of a plain value in order, one per wrong or missing field', () => {
    const { generated } = find('checkout OrderService.createOrder param 0');
    const value = { cartId: 1, shippingAddress: { street: 's', city: 'c', state: 'st', country: 7 }, paymentMethod: 'cash' };
    expect(generated.errors(value)).toStrictEqual([
      { path: ['cartId'], message: 'expected string' },
      { path: ['shippingAddress'], message: "missing required field 'zipCode'" },
      { path: ['shippingAddress', 'country'], message: 'expected string' },
      { path: ['paymentMethod'], message: 'expected one of: credit_card, debit_card, paypal, apple_pay' },
    ]);
    expect(
      generated.errors({
        cartId: 'c',
        shippingAddress: { street: 's', city: 'c', state: 'st', zipCode: 'z', country: 'x' },
        paymentMethod: 'paypal',
      }),
    ).toStrictEqual([]);
  });

  it('generates readable code: one function per named type, without eval', () => {
    const { js } = idls[0];
    for (const name of [
      'problems_Leaf',
      'problems_Middle',
      'problems_Base',
      'problems_Color',
      'problems_toString',
      'problems_constructor',
    ]) {
      expect(js).toContain(`function ${name}(`);
    }
    expect(js).not.toMatch(/\bnew Function\b|\beval\(/);
  });
});
