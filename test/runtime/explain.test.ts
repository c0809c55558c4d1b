/**
 * `errors()` lists problems with walkers built once per schema. These tests pin its output to the
 * schema interpreter it replaced (kept below, test-only, as the reference): same issues, same
 * order, same messages, over random and mutated values for every IDL type form.
 *
 * Our validators get the compiled checks of the named types (as generated code passes them) and
 * skip every part of a value whose named check passes; the reference explains everything. For
 * plain data that changes nothing, which the random values show. For objects that are not plain
 * data (inherited or getter-only fields, which the checks accept and the walkers do not) the rule is
 * "errors() explains only where a check fails": one test pins that.
 */
import { readFileSync } from 'node:fs';
import { Kind, Type, type TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { Value } from '@sinclair/typebox/value';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
// The IDL compiler turns the generator's everything.idl into IDL JSON.
import { compileIdl, toIdlJson } from '../../src/idl/index.js';
import { calcIdl } from './fixtures/calc-idl.js';
import { valuesOf } from './schema-values.js';
import { checkoutIdl } from './fixtures/checkout-idl.js';
import type { IdlJson } from '../../runtime/idl-json.js';
import { idlSchemas, MAX_SAFE_INT } from '../../runtime/schema.js';
import {
  compileValidators,
  MAX_ISSUES,
  type NamedChecks,
  typeboxValidator,
  type ValidationIssue,
  type Validator,
} from '../../runtime/validation.js';

// ---------------------------------------------------------------------------------------------
// The reference: `errors()` as it was before walkers (a schema interpreter), unchanged.

function referenceValidator(check: (value: unknown) => boolean, schema: TSchema, references: TSchema[]): Validator {
  const byId = new Map<string, TSchema>();
  for (const reference of references) if (typeof reference.$id === 'string') byId.set(reference.$id, reference);
  return {
    check,
    errors(value) {
      if (check(value)) return [];
      const issues: ValidationIssue[] = [];
      explain(schema, value, [], { byId, references, issues });
      if (issues.length === 0) issues.push(...typeboxIssues(schema, references, value));
      if (issues.length === 0) issues.push({ path: [], message: 'value does not match the IDL type' });
      return issues.slice(0, MAX_ISSUES);
    },
  };
}

interface ExplainState {
  byId: Map<string, TSchema>;
  references: TSchema[];
  issues: ValidationIssue[];
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function explain(schema: TSchema, value: unknown, path: (string | number)[], state: ExplainState): void {
  if (state.issues.length >= MAX_ISSUES) return;
  const problem = (message: string) => state.issues.push({ path: path.slice(), message });
  switch (schema[Kind]) {
    case 'Ref': {
      const target = state.byId.get(schema.$ref);
      if (target) explain(target, value, path, state);
      else problem(`unknown type ${schema.$ref}`);
      return;
    }
    case 'String':
      if (typeof value !== 'string') problem('expected string');
      return;
    case 'Boolean':
      if (typeof value !== 'boolean') problem('expected boolean');
      return;
    case 'Null':
      if (value !== null) problem('expected null');
      return;
    case 'Number':
      if (typeof value !== 'number' || !Number.isFinite(value)) problem('expected number');
      return;
    case 'Integer':
      if (typeof value !== 'number' || !Number.isInteger(value)) problem('expected integer');
      else if (Math.abs(value) > MAX_SAFE_INT) problem(`value ${value} is outside the safe integer range ±(2^53−1)`);
      return;
    case 'Literal':
      if (value !== schema.const) problem(`expected ${JSON.stringify(schema.const)}`);
      return;
    case 'Array':
      if (!Array.isArray(value)) return void problem('expected array');
      for (let index = 0; index < value.length && state.issues.length < MAX_ISSUES; index++) {
        if (!(index in value)) continue;
        path.push(index);
        explain(schema.items, value[index], path, state);
        path.pop();
      }
      return;
    case 'Record': {
      if (!isObject(value)) return void problem('expected object');
      const valueSchema = Object.values(schema.patternProperties as Record<string, TSchema>)[0];
      for (const key of Object.keys(value)) {
        if (state.issues.length >= MAX_ISSUES) return;
        path.push(key);
        explain(valueSchema, value[key], path, state);
        path.pop();
      }
      return;
    }
    case 'Object': {
      if (!isObject(value)) return void problem('expected object');
      const required = new Set<string>(schema.required ?? []);
      for (const [key, fieldSchema] of Object.entries(schema.properties as Record<string, TSchema>)) {
        if (!Object.hasOwn(value, key) || value[key] === undefined) {
          if (required.has(key)) problem(`missing required field '${key}'`);
        } else {
          path.push(key);
          explain(fieldSchema, value[key], path, state);
          path.pop();
        }
      }
      return;
    }
    case 'Union': {
      const members = schema.anyOf as TSchema[];
      if (members.every((member) => member[Kind] === 'Literal')) {
        if (!members.map((member) => member.const).includes(value)) {
          problem(`expected one of: ${members.map((member) => String(member.const)).join(', ')}`);
        }
        return;
      }
      const nonNull = members.filter((member) => member[Kind] !== 'Null');
      if (value === null && nonNull.length < members.length) return;
      if (nonNull.length === 1) {
        const before = state.issues.length;
        explain(nonNull[0], value, path, state);
        const first = state.issues[before];
        if (state.issues.length === before + 1 && first.path.length === path.length && first.message.startsWith('expected ')) {
          first.message += ' or null';
        }
        return;
      }
      if (!members.some((member) => Value.Check(member, state.references, value))) problem('value matches none of the allowed types');
      return;
    }
    case 'Never':
      problem('no value is allowed here');
      return;
    case 'Intersect':
      // A struct that extends another: explained as the one object of all its fields, parent first,
      // which is what its schema was before it referred to its parent's.
      return explain(flattenedStruct(schema, state.byId), value, path, state);
    default:
      state.issues.push(...typeboxIssues(schema, state.references, value).map((issue) => ({ ...issue, path: [...path, ...issue.path] })));
  }
}

/** `Type.Intersect([Type.Ref(parent), Type.Object(own)])` as one object of the parent's fields and its own. */
function flattenedStruct(schema: TSchema, byId: Map<string, TSchema>): TSchema {
  const properties: Record<string, TSchema> = {};
  const add = (member: TSchema): void => {
    const target = member[Kind] === 'Ref' ? byId.get(member.$ref)! : member;
    if (target[Kind] === 'Intersect') for (const inner of target.allOf as TSchema[]) add(inner);
    else Object.assign(properties, target.properties);
  };
  add(schema);
  return Type.Object(properties);
}

function typeboxIssues(schema: TSchema, references: TSchema[], value: unknown): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const error of Value.Errors(schema, references, value)) {
    const path =
      error.path === ''
        ? []
        : error.path
            .slice(1)
            .split('/')
            .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    issues.push({ path: path.map((s) => (/^\d+$/.test(s) ? Number(s) : s)), message: error.message });
    if (issues.length >= MAX_ISSUES) break;
  }
  return issues;
}

// ---------------------------------------------------------------------------------------------

interface Case {
  name: string;
  schema: TSchema;
  references: TSchema[];
  /** When TypeBox cannot compile the schema: a check that fails everything. */
  failEverything?: boolean;
}

function methodCases(label: string, idl: IdlJson): Case[] {
  const { references, methods } = idlSchemas(idl);
  const cases: Case[] = references.map((schema) => ({ name: `${label} ${String(schema.$id)}`, schema, references }));
  for (const [method, { params, result }] of Object.entries(methods)) {
    params.forEach((schema, index) => {
      cases.push({ name: `${label} ${method} param ${index}`, schema, references });
    });
    cases.push({ name: `${label} ${method} result`, schema: result, references });
  }
  return cases;
}

function everythingIdl(): IdlJson {
  const file = new URL('../generator/fixtures/everything.idl', import.meta.url);
  return toIdlJson(compileIdl(readFileSync(file, 'utf8'), 'everything.idl'));
}

/** Schemas outside the IDL mapping, for the rules only they reach (fallbacks, unions, Never). */
const handMade: Case[] = (() => {
  const references = [
    Type.Object({ a: Type.String(), b: Type.Optional(Type.Number()) }, { $id: 'Pair' }),
    Type.Union([Type.Literal(1), Type.Literal(2), Type.Literal(true)], { $id: 'OneTwo' }),
  ];
  const schemas: Record<string, TSchema> = {
    'union of two types': Type.Union([Type.String(), Type.Integer()]),
    'nullable union of two types': Type.Object({ u: Type.Optional(Type.Union([Type.Ref('Pair'), Type.Boolean(), Type.Null()])) }),
    'optional literal and enum': Type.Object({
      l: Type.Union([Type.Literal('on'), Type.Null()]),
      e: Type.Union([Type.Ref('OneTwo'), Type.Null()]),
    }),
    'optional of optional': Type.Union([Type.Union([Type.Array(Type.Ref('Pair')), Type.Null()]), Type.Null()]),
    'fields named like Object.prototype members': Type.Object({
      constructor: Type.String(),
      toString: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
      hasOwnProperty: Type.Boolean(),
    }),
    never: Type.Object({ n: Type.Optional(Type.Never()), m: Type.Array(Type.Never()) }),
    'kinds TypeBox explains': Type.Object({ s: Type.String({ minLength: 2 }), t: Type.Tuple([Type.String(), Type.Number()]) }),
    'nested fallback': Type.Array(Type.Union([Type.Integer({ minimum: 0 }), Type.Null()])),
  };
  const unknownReference = Type.Object({ x: Type.Ref('Missing'), y: Type.Array(Type.Ref('Missing')) });
  return [
    ...Object.entries(schemas).map(([name, schema]) => ({ name: `hand-made ${name}`, schema, references })),
    { name: 'hand-made unknown reference', schema: unknownReference, references, failEverything: true },
  ];
})();

const cases: Case[] = [
  ...methodCases('checkout', checkoutIdl),
  ...methodCases('calc', calcIdl),
  ...methodCases('everything', everythingIdl()),
  ...handMade,
];

/** The compiled check of every named schema, as generated code passes them to `typeboxValidator`. */
function namedChecksOf(references: TSchema[]): NamedChecks {
  return Object.fromEntries(
    references.map((reference) => {
      const compiled = TypeCompiler.Compile(reference, references);
      return [String(reference.$id), (value: unknown) => compiled.Check(value)];
    }),
  );
}

/**
 * Our validator (given the named checks, as generated code gives them, unless `withoutNamedChecks`)
 * and the reference, with the same compiled check.
 */
function validatorPair(
  { schema, references, failEverything }: Case,
  withoutNamedChecks = false,
): { ours: Validator; reference: Validator } {
  const compiled = failEverything ? undefined : TypeCompiler.Compile(schema, references);
  const check = (value: unknown) => compiled?.Check(value) ?? false;
  const namedChecks = withoutNamedChecks ? undefined : namedChecksOf(references);
  return { ours: typeboxValidator(check, schema, references, namedChecks), reference: referenceValidator(check, schema, references) };
}

describe('errors() lists exactly what the schema interpreter listed', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s: random and mutated values', (_name, testCase) => {
    const { ours, reference } = validatorPair(testCase);
    const { ours: withoutNamedChecks } = validatorPair(testCase, true);
    const byId = new Map(testCase.references.map((r) => [String(r.$id), r]));
    fc.assert(
      fc.property(valuesOf(testCase.schema, byId), (value) => {
        const expected = reference.errors(value);
        expect(ours.errors(value)).toStrictEqual(expected);
        expect(withoutNamedChecks.errors(value)).toStrictEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('stops at MAX_ISSUES the same way (arrays, maps, missing fields, optional suffix at the edge)', () => {
    const { references } = idlSchemas(checkoutIdl);
    const byName = (name: string) => references.find((r) => r.$id === name)!;
    const badItems = Array.from({ length: 60 }, () => ({ productId: 1, price: 'x' }));
    const values: [TSchema, unknown][] = [
      [Type.Array(Type.Integer()), Array.from({ length: 500 }, () => 'x')],
      [Type.Array(Type.Ref('CartItem')), badItems],
      [Type.Ref('Cart'), { cartId: 1, items: badItems }],
      [Type.Record(Type.String(), Type.Ref('Address')), Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`k${i}`, { street: 1 }]))],
      [
        Type.Array(Type.Union([Type.Ref('PaymentMethod'), Type.Null()])),
        Array.from({ length: 150 }, (_, i) => (i % 3 === 0 ? null : 'cash')),
      ],
      [Type.Array(Type.Ref('AddToCartRequest')), Array.from({ length: 100 }, (_, i) => ({ cartId: i === 49 ? 5 : null, productId: 2 }))],
      [byName('Order'), {}],
    ];
    for (const [schema, value] of values) {
      const { ours, reference } = validatorPair({ name: '', schema, references });
      const expected = reference.errors(value);
      expect(ours.errors(value)).toStrictEqual(expected);
      expect(expected.length).toBeGreaterThan(0);
    }
  });

  it('reads fields of objects that are not plain data the same way (order, hidden, inherited, getters)', () => {
    const { references } = idlSchemas(checkoutIdl);
    const { ours, reference } = validatorPair({ name: '', schema: Type.Ref('CartItem'), references });
    class Item {
      productId = 'p';
      get quantity() {
        return 2;
      }
    }
    const hidden = Object.defineProperty({ productId: 'p', price: 'x' }, 'quantity', { value: 1.5, enumerable: false });
    const bare = Object.assign(Object.create(null) as object, { price: 1, quantity: 'q', productId: 3 });
    const withGetter = {
      productId: 'p',
      get quantity() {
        return 'many';
      },
      price: 2,
    };
    const inherited = Object.assign(Object.create({ productId: 'p', quantity: 1 }) as object, { price: null });
    // Own fields first in schema order, then an inherited one: `for...in` lists all three.
    const inheritedLast = Object.assign(Object.create({ price: 'x' }) as object, { productId: 5, quantity: 'q' });
    const inheritedFine = Object.assign(Object.create({ price: 1 }) as object, { productId: 'p', quantity: 1.5 });
    for (const value of [
      new Item(),
      hidden,
      bare,
      withGetter,
      inherited,
      inheritedLast,
      inheritedFine,
      { price: 1, quantity: 1, productId: 1 },
      { 0: 1, productId: 2 },
    ]) {
      const expected = reference.errors(value);
      expect(ours.errors(value)).toStrictEqual(expected);
      expect(expected.length).toBeGreaterThan(0);
    }
  });

  it('with named checks, skips a part that is not plain data when its check passes (explains only where a check fails)', () => {
    const cart = cases.find((c) => c.name === 'checkout Cart')!;
    const { ours, reference } = validatorPair(cart);
    const { ours: withoutNamedChecks } = validatorPair(cart, true);
    class Item {
      productId = 'p';
      get quantity() {
        return 2;
      }
      price = 1;
    }
    // Each passes check_CartItem (it reads inherited and getter-only fields) but has no own
    // `quantity` or `price`, which the walkers ask for.
    const exotic = [new Item(), Object.assign(Object.create({ productId: 'p', quantity: 1 }) as object, { price: 2 })];
    for (const item of exotic) {
      const value = { cartId: 'c', items: [item, { productId: 'p', quantity: 'q', price: 1 }], subtotal: 3 };
      // New behaviour: only the item whose check fails is explained.
      expect(ours.errors(value)).toStrictEqual([{ path: ['items', 1, 'quantity'], message: 'expected integer' }]);
      // Without named checks (and in the reference), the exotic item is explained too.
      const everything = reference.errors(value);
      expect(everything.length).toBeGreaterThan(1);
      expect(everything.at(-1)).toStrictEqual({ path: ['items', 1, 'quantity'], message: 'expected integer' });
      expect(everything.slice(0, -1).every((issue) => issue.path[1] === 0 && issue.message.startsWith('missing required field'))).toBe(
        true,
      );
      expect(withoutNamedChecks.errors(value)).toStrictEqual(everything);
    }
  });

  it('compileValidators gives its validators the named checks too (compiled when first needed)', () => {
    const { result } = compileValidators(checkoutIdl)['CartService.addToCart'];
    const inherited = Object.assign(Object.create({ productId: 'p', quantity: 1 }) as object, { price: 2 });
    const cart = { cartId: 'c', items: [inherited, { productId: 'p', quantity: 'q', price: 1 }], subtotal: 3 };
    expect(result.errors(cart)).toStrictEqual([{ path: ['items', 1, 'quantity'], message: 'expected integer' }]);
    expect(result.errors({ ...cart, items: [inherited, inherited] })).toStrictEqual([]);
  });

  it('keeps the final fallbacks when the check and the schema disagree', () => {
    const schema = Type.Object({ a: Type.String() });
    const ours = typeboxValidator(() => false, schema, []);
    const reference = referenceValidator(() => false, schema, []);
    for (const value of [{ a: 'fine' }, { a: 1 }, 'text', null]) expect(ours.errors(value)).toStrictEqual(reference.errors(value));
    expect(ours.errors({ a: 'fine' })).toStrictEqual([{ path: [], message: 'value does not match the IDL type' }]);
  });

  it('explains a value of a deeply recursive struct (building walkers does not loop)', () => {
    const tree = cases.find((c) => c.name === 'calc Calc.echoTree param 0')!;
    const { ours, reference } = validatorPair(tree);
    let deep: unknown = { label: 7 };
    for (let i = 0; i < 200; i++) deep = { label: `n${i}`, children: [{ label: 'ok' }, deep] };
    expect(ours.errors(deep)).toStrictEqual(reference.errors(deep));
    expect(ours.errors(deep)).toHaveLength(1);
  });

  it('gives each call its own issues and paths', () => {
    const { ours } = validatorPair(cases.find((c) => c.name === 'checkout OrderService.createOrder param 0')!);
    const first = ours.errors({ cartId: 1, shippingAddress: null, paymentMethod: 'cash' });
    first[0].path.push('mutated');
    first[0].message = 'mutated';
    expect(ours.errors({ cartId: 1, shippingAddress: null, paymentMethod: 'cash' })).toStrictEqual([
      { path: ['cartId'], message: 'expected string' },
      { path: ['shippingAddress'], message: 'expected object' },
      { path: ['paymentMethod'], message: 'expected one of: credit_card, debit_card, paypal, apple_pay' },
    ]);
  });
});
