/**
 * Doc tags in OpenAPI, both ways: `deprecated: true`, `examples`/`example`, `x-deprecated` on enum
 * values and `x-readonly` on operations out; `deprecated` and valid examples back in as tag lines.
 */
import { describe, expect, test } from 'vitest';
import { compileIdl } from '../../src/idl/compile.js';
import { idlToOpenApi, openApiToIdl } from '../../src/openapi/index.js';

const IDL = `namespace shop

// A product.
// @deprecated use Item
// @example {"id": "p1"}
struct Product {
    // The id.
    // @deprecated always empty
    // @example "p1"
    id    string
    // @deprecated
    size  Size  [optional]
}

// @example "small"
enum Size {
    small
    // @deprecated sizes are numbers now
    large
}

interface Shop {
    // Finds one.
    // @readonly
    // @example {"id": "p1"}
    find(id string) Product
    // @deprecated call find
    // @example true
    // @example false
    check(id string) bool
}
`;

const schemasOf = (document: Record<string, unknown>) => (document.components as { schemas: Record<string, any> }).schemas;
const operation = (document: Record<string, unknown>, path: string) => (document.paths as Record<string, any>)[path].post;

describe('IDL -> OpenAPI', () => {
  test('3.1: deprecated, examples, x-deprecated, x-readonly; descriptions without tag lines', () => {
    const { document } = idlToOpenApi([compileIdl(IDL, 'shop.idl')]);
    const schemas = schemasOf(document);
    expect(schemas.Product).toMatchObject({ description: 'A product.', deprecated: true, examples: [{ id: 'p1' }] });
    expect(schemas.Product.properties.id).toEqual({
      type: 'string',
      description: 'The id.',
      'x-idl-comment': 'The id.\n@deprecated always empty\n@example "p1"',
      deprecated: true,
      examples: ['p1'],
    });
    expect(schemas.Product.properties.size).toMatchObject({ deprecated: true });
    expect(schemas.Size).toEqual({
      type: 'string',
      enum: ['small', 'large'],
      'x-deprecated': ['large'],
      'x-idl-comment': '@example "small"',
      examples: ['small'],
    });
    const find = operation(document, '/Shop/find');
    expect(find).toMatchObject({ summary: 'Finds one.', description: 'Finds one.', 'x-readonly': true });
    expect(find.deprecated).toBeUndefined();
    expect(find['x-idl-comment']).toBe('Finds one.\n@readonly\n@example {"id": "p1"}');
    expect(find.responses['200'].content['application/json'].example).toEqual({ id: 'p1' });
    const check = operation(document, '/Shop/check');
    expect(check).toMatchObject({ deprecated: true, summary: 'Shop.check', description: 'IDL method: Shop.check' });
    expect(check.responses['200'].content['application/json'].examples).toEqual({ example1: { value: true }, example2: { value: false } });
  });

  test('a @readonly method is also a GET: query parameters of JSON text, ETag, 304; its POST unchanged', () => {
    const idl = IDL.replace('    find(id string) Product', '    find(id string, limit int [optional, default=10, max=50]) Product').replace(
      'interface Shop {',
      'interface Shop {\n    // @readonly\n    watch(id string) stream Product\n',
    );
    for (const version of ['3.1', '3.0'] as const) {
      const { document } = idlToOpenApi([compileIdl(idl, 'shop.idl')], { version });
      const paths = document.paths as Record<string, any>;
      const post = paths['/Shop/find'].post;
      const get = paths['/Shop/find'].get;
      expect(post.operationId).toBe('Shop_find');
      expect(post.requestBody).toBeDefined();
      expect(get).toMatchObject({
        operationId: 'Shop_find_get',
        tags: ['Shop'],
        summary: 'Finds one.',
        'x-readonly': true,
        'x-idlrpc-read': true,
      });
      expect(get.requestBody).toBeUndefined();
      expect(get.parameters).toEqual([
        {
          name: 'id',
          in: 'query',
          required: true,
          description: 'The parameter as JSON text (a string in double quotes), percent-encoded.',
          content: { 'application/json': { schema: { type: 'string' } } },
        },
        {
          name: 'limit',
          in: 'query',
          required: false,
          description: 'The parameter as JSON text (a string in double quotes), percent-encoded.',
          content: {
            'application/json': { schema: { type: 'integer', format: 'int64', minimum: -9007199254740991, maximum: 50, default: 10 } },
          },
        },
      ]);
      expect(Object.keys(get.responses['200'].headers)).toEqual(['ETag', 'Cache-Control']);
      expect(get.responses['304'].headers.ETag.schema).toEqual({ type: 'string' });
      expect(get.responses['400']).toEqual(post.responses['400']);
      // Neither a method without @readonly nor a stream method has a GET.
      expect(paths['/Shop/check'].get).toBeUndefined();
      expect(paths['/Shop/watch'].get).toBeUndefined();
    }
  });

  test('3.0: example (the first) instead of examples; a $ref property keeps its annotations in allOf', () => {
    const idl = IDL.replace('    size  Size  [optional]', '    // @example "large"\n    size2  Size').replaceAll(
      '{"id": "p1"}',
      '{"id": "p1", "size2": "small"}',
    );
    const { document } = idlToOpenApi([compileIdl(idl, 'shop.idl')], { version: '3.0' });
    const schemas = schemasOf(document);
    expect(schemas.Product).toMatchObject({ deprecated: true, example: { id: 'p1', size2: 'small' } });
    expect(schemas.Product.examples).toBeUndefined();
    expect(schemas.Product.properties.size2).toEqual({
      allOf: [{ $ref: '#/components/schemas/Size' }],
      'x-idl-comment': '@deprecated\n@example "large"',
      deprecated: true,
      example: 'large',
    });
  });

  test('an IDL without tags gives the same document as the same IDL before tags', () => {
    const untagged = IDL.split('\n')
      .filter((line) => !/^\s*\/\/ @/.test(line))
      .join('\n');
    const text = JSON.stringify(idlToOpenApi([compileIdl(untagged, 'shop.idl')]).document);
    expect(text).not.toMatch(/deprecated|"examples?"|x-readonly/);
  });
});

describe('OpenAPI -> IDL', () => {
  test('our own document comes back with the same tags (x-idl-comment keeps them; no tag twice)', () => {
    const model = compileIdl(IDL, 'shop.idl');
    const { document } = idlToOpenApi([model]);
    const { idl } = openApiToIdl({ document });
    const back = compileIdl(idl, 'shop.idl');
    expect(JSON.stringify(idlToOpenApi([back]).document)).toBe(JSON.stringify(document));
    // x-idl-comment carries the exact comments, deprecation reasons included.
    expect(idl.match(/@deprecated call find/g)).toHaveLength(1);
    expect(idl.match(/@readonly/g)).toHaveLength(1);
    expect(idl).toContain('// A product.\n// @deprecated use Item\n// @example {"id": "p1"}\nstruct Product {');
    expect(idl).toContain('    // @deprecated always empty\n');
  });

  test('a foreign document: deprecated and valid examples become tags; an example of the wrong type is dropped with a warning', () => {
    const document = {
      openapi: '3.1.0',
      info: { title: 'pets', version: '1' },
      paths: {
        '/pets': {
          get: {
            operationId: 'listPets',
            deprecated: true,
            responses: {
              '200': {
                description: 'ok',
                content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' }, example: { name: 'Rex' } } },
              },
            },
          },
        },
      },
      components: {
        schemas: {
          Pet: {
            type: 'object',
            deprecated: true,
            examples: [{ name: 'Tom', age: 3 }],
            required: ['name'],
            properties: {
              name: { type: 'string', example: 'Tom' },
              age: { type: 'integer', deprecated: true, example: 'three' },
            },
          },
        },
      },
    };
    const { idl, warnings } = openApiToIdl({ document });
    expect(idl).toContain('// @deprecated\n// @example {"name":"Tom","age":3}\nstruct Pet {');
    expect(idl).toMatch(/ {4}\/\/ @example "Tom"\n {4}name +string\n {4}\/\/ @deprecated\n {4}age +int/);
    expect(idl).not.toContain('"three"');
    expect(warnings.map((w) => w.message)).toContainEqual(
      expect.stringMatching(/^the example of Pet\.age is dropped: at \$: expected an integer/),
    );
    expect(idl).toMatch(/\/\/ @deprecated\n {4}\/\/ @example \{"name":"Rex"\}\n {4}getListPets\(/);
    compileIdl(idl, 'pets.idl');
  });
});
