/**
 * OpenAPI -> IDL on random documents: hostile names (Unicode, reserved words, digits, clashes),
 * every schema shape (objects, maps, arrays, string and numeric enums, allOf with and without $refs,
 * oneOf/anyOf, nullable forms, $ref cycles) and random operations. The conversion never crashes, the
 * IDL always checks clean, and every warning points at something that exists in the document.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ConversionError, openApiToIdl } from '../../src/openapi/index.js';
import { valueAt } from '../../src/openapi/source-documents.js';
import { expectChecksClean } from './helpers.js';

type Gen = fc.GeneratorValue;
type Json = Record<string, unknown>;

/** Names that stress the identifier rules. */
const nameArbitrary = fc.oneof(
  fc.constantFrom(
    'id',
    'ID',
    'pet_type',
    'pet-type',
    'Pet Type',
    'string',
    'map',
    'errors',
    'namespace',
    '+1',
    '-1',
    '2fa',
    '',
    '_x',
    'a.b',
    'a/b',
    'ünïcode',
    '名前',
    'RpcError',
    'Pet',
    'pet',
  ),
  fc.string({ unit: 'grapheme', maxLength: 8 }),
  fc.string({ unit: fc.constantFrom(...'abAB_-. 09'), minLength: 1, maxLength: 6 }),
);

function schema(g: Gen, componentNames: string[], depth: number): Json {
  const ref = (): Json => ({
    $ref: `#/components/schemas/${componentNames[g(fc.nat, { max: componentNames.length - 1 })].replace(/~/g, '~0').replace(/\//g, '~1')}`,
  });
  const leafKinds = ['string', 'integer', 'number', 'boolean', 'binaryFree', 'stringEnum', 'numericEnum', 'any', 'nullOnly'];
  const kinds = depth <= 0 ? leafKinds : [...leafKinds, 'object', 'object', 'map', 'array', 'allOf', 'oneOf', 'ref', 'ref', 'freeObject'];
  const kind = g(fc.constantFrom, ...kinds);
  const withNull = (s: Json): Json => {
    switch (g(fc.nat, { max: 5 })) {
      case 0:
        return { ...s, nullable: true };
      case 1:
        return typeof s.type === 'string' ? { ...s, type: [s.type, 'null'] } : s;
      case 2:
        return { oneOf: [s, { type: 'null' }] };
      default:
        return s;
    }
  };
  const described = (s: Json): Json => (g(fc.boolean) ? { ...s, description: g(fc.string, { unit: 'grapheme', maxLength: 12 }) } : s);
  const properties = () => {
    const names = g(fc.array, nameArbitrary, { maxLength: 4 });
    const props: Json = {};
    for (const name of names) props[name] = schema(g, componentNames, depth - 1);
    const required = names.filter(() => g(fc.boolean));
    return { properties: props, ...(required.length > 0 ? { required: [...new Set(required)] } : {}) };
  };
  switch (kind) {
    case 'string':
      return withNull(described({ type: 'string', ...(g(fc.boolean) ? { format: g(fc.constantFrom, 'date-time', 'byte', 'uuid') } : {}) }));
    case 'integer':
      return withNull({ type: 'integer', format: g(fc.constantFrom, 'int32', 'int64') });
    case 'number':
      return withNull({ type: 'number' });
    case 'boolean':
      return withNull({ type: 'boolean' });
    case 'binaryFree':
      return { type: 'string', format: 'byte' };
    case 'stringEnum':
      return withNull({ type: 'string', enum: g(fc.array, nameArbitrary, { minLength: 1, maxLength: 4 }) });
    case 'numericEnum':
      return { type: 'integer', enum: g(fc.array, fc.integer({ min: -3, max: 3 }), { minLength: 1, maxLength: 3 }) };
    case 'any':
      return {};
    case 'nullOnly':
      return { type: 'null' };
    case 'object':
      return withNull(described({ type: 'object', ...properties() }));
    case 'freeObject':
      return { type: 'object' };
    case 'map':
      return { type: 'object', additionalProperties: schema(g, componentNames, depth - 1) };
    case 'array':
      return withNull({ type: 'array', items: schema(g, componentNames, depth - 1) });
    case 'allOf': {
      const members = g(fc.array, fc.constantFrom('ref', 'inline'), { minLength: 1, maxLength: 3 }).map((m) =>
        m === 'ref' ? ref() : { type: 'object', ...properties() },
      );
      return { allOf: members };
    }
    case 'oneOf':
      return {
        [g(fc.constantFrom, 'oneOf', 'anyOf')]: g(fc.array, fc.constant(null), { minLength: 1, maxLength: 3 }).map(() =>
          schema(g, componentNames, depth - 1),
        ),
      };
    default:
      return ref();
  }
}

function randomDocument(g: Gen): Json {
  const componentNames = [...new Set(g(fc.array, nameArbitrary, { minLength: 1, maxLength: 6 }))];
  const schemas: Json = {};
  for (const name of componentNames) {
    const s = schema(g, componentNames, 3);
    schemas[name] = g(fc.boolean) && typeof s === 'object' && !('$ref' in s) ? { ...s, title: g(() => nameArbitrary) } : s;
  }
  const paths: Json = {};
  for (const path of g(fc.array, fc.constantFrom('/pets', '/pets/{petId}', '/', '/a-b/{x}/c', '/Store/get', '/ünï'), { maxLength: 4 })) {
    const item: Json = {};
    for (const method of g(fc.subarray, ['get', 'post', 'put', 'delete', 'patch', 'head'], { minLength: 1 })) {
      const operation: Json = { responses: {} };
      if (g(fc.boolean)) operation.operationId = g(() => nameArbitrary);
      if (g(fc.boolean)) operation.tags = [g(() => nameArbitrary)];
      operation.parameters = [
        ...(path.includes('{petId}') ? [{ name: 'petId', in: 'path', required: true, schema: { type: 'string' } }] : []),
        ...(path.includes('{x}') ? [{ name: 'x', in: 'path', required: true, schema: { type: 'integer' } }] : []),
        ...g(fc.array, fc.constant(null), { maxLength: 3 }).map(() => ({
          name: g(() => nameArbitrary) || 'q',
          in: g(fc.constantFrom, 'query', 'header', 'cookie'),
          required: g(fc.boolean),
          schema: schema(g, componentNames, 1),
        })),
      ];
      if (g(fc.boolean))
        operation.requestBody = { required: g(fc.boolean), content: { 'application/json': { schema: schema(g, componentNames, 2) } } };
      const responses = operation.responses as Json;
      for (const code of g(fc.subarray, ['200', '201', '204', '404', 'default'])) {
        responses[code] =
          code === '204' || g(fc.boolean)
            ? { description: '' }
            : { description: 'r', content: { 'application/json': { schema: schema(g, componentNames, 2) } } };
      }
      item[method] = operation;
    }
    paths[path] = item;
  }
  return {
    openapi: g(fc.constantFrom, '3.0.3', '3.1.0'),
    info: { title: g(() => nameArbitrary), version: '1' },
    paths,
    components: { schemas },
  };
}

describe('OpenAPI -> IDL on random documents (property)', () => {
  test('never crashes, always checks clean, warnings point into the document', () => {
    fc.assert(
      fc.property(fc.gen(), (g) => {
        const document = randomDocument(g);
        let result: ReturnType<typeof openApiToIdl>;
        try {
          result = openApiToIdl({ document }, { binary: 'drop' });
        } catch (error) {
          // Only documents that really cannot be converted may fail, and then with a pointer.
          expect(error).toBeInstanceOf(ConversionError);
          expect(valueAt(document, (error as ConversionError).pointer)).toBeDefined();
          return;
        }
        expectChecksClean(result.idl);
        for (const warning of result.warnings) expect(valueAt(document, warning.pointer), warning.pointer).toBeDefined();
      }),
      { numRuns: 500 },
    );
  });
});
