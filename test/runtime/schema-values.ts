/**
 * Random values for a TypeBox schema of the IDL mapping: mostly shaped like the schema, with wrong
 * values, holes, gaps and extras mixed in. Shared by the tests of `errors()` (explain.test.ts,
 * generated-problems.test.ts).
 */
import { Kind, type TSchema } from '@sinclair/typebox';
import fc from 'fast-check';
import { MAX_SAFE_INT } from '../../runtime/schema.js';

/** Values a client might send by mistake, including the edge cases of each rule. */
const oddValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    undefined,
    NaN,
    Infinity,
    -Infinity,
    2 ** 53,
    -(2 ** 53),
    MAX_SAFE_INT,
    1.5,
    0,
    -0,
    '',
    'x',
    '3',
    true,
    false,
    [],
    {},
  ),
  fc.constantFrom('pending', 'paypal', 'red', 'small', 'black', 'Pending'),
  fc.anything({ maxDepth: 2 }),
);

/** An arbitrary of values for `schema`: right most of the time, wrong anywhere with some chance. */
export function valuesOf(schema: TSchema, byId: Map<string, TSchema>, depth = 0): fc.Arbitrary<unknown> {
  const right = shapedLike(schema, byId, depth);
  return fc.oneof({ weight: 5, arbitrary: right }, { weight: 1, arbitrary: oddValue });
}

function shapedLike(schema: TSchema, byId: Map<string, TSchema>, depth: number): fc.Arbitrary<unknown> {
  const deeper = (child: TSchema) => valuesOf(child, byId, depth + 1);
  // Past this depth, containers come out empty and only scalar fields are filled in, so that
  // recursive structs stay finite.
  const shallow = depth > 4;
  switch (schema[Kind]) {
    case 'Ref': {
      const target = byId.get(schema.$ref);
      return target ? shapedLike(target, byId, depth) : oddValue;
    }
    case 'String':
      return fc.string({ maxLength: 3 });
    case 'RegExp':
      // A string with constraints: short and long ones, lone surrogates and pairs (a length counts
      // code points), and some that pass or nearly pass a checked format.
      return fc.oneof(
        fc.string({ maxLength: 5, unit: 'binary' }),
        fc.string({ minLength: 20, maxLength: 40 }),
        fc.constantFrom(
          'ab',
          'b',
          'a@b.co',
          'ab@example.com',
          'x:y',
          'http://a',
          '123e4567-e89b-12d3-a456-426614174000',
          '1.2.3.4',
          '300.1.1.1',
          '::1',
          '1::',
          'host.example',
          '-bad',
          '\ud83d\ude00\ud83d\ude00',
          '\ud800a',
        ),
      );
    case 'Boolean':
      return fc.boolean();
    case 'Null':
      return fc.constant(null);
    case 'Number':
      return fc.oneof(fc.double(), fc.integer());
    case 'Integer':
      return fc.oneof(fc.integer(), fc.constantFrom(MAX_SAFE_INT, -MAX_SAFE_INT, 2 ** 53, -(2 ** 60)));
    case 'Literal':
      return fc.constant(schema.const);
    case 'Array':
      if (shallow) return fc.constant([]);
      return fc.oneof(fc.array(deeper(schema.items), { maxLength: 4 }), fc.sparseArray(deeper(schema.items), { maxLength: 6 }));
    case 'Record': {
      if (shallow) return fc.constant({});
      const valueSchema = Object.values(schema.patternProperties as Record<string, TSchema>)[0];
      return fc.dictionary(fc.string({ maxLength: 3 }), deeper(valueSchema), { maxKeys: 4 });
    }
    case 'Object': {
      const properties = schema.properties as Record<string, TSchema>;
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, child] of Object.entries(properties)) {
        model[key] = shallow && !['String', 'Number', 'Integer', 'Boolean'].includes(child[Kind]) ? fc.constant(undefined) : deeper(child);
      }
      return fc
        .tuple(
          fc.oneof({ weight: 4, arbitrary: fc.record(model) }, { weight: 1, arbitrary: fc.record(model, { requiredKeys: [] }) }),
          fc.dictionary(fc.constantFrom('extra', 'constructor', 'toString', '__proto__'), oddValue, { maxKeys: 2 }),
        )
        .map(([fields, extras]) => ({ ...extras, ...fields }));
    }
    case 'Union': {
      const members = schema.anyOf as TSchema[];
      return fc.oneof(...members.map((member) => shapedLike(member, byId, depth)));
    }
    default:
      return oddValue;
  }
}
