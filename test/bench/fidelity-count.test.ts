/**
 * The counting of `npm run bench:fidelity` (bench/lib/fidelity-count.ts) on tiny hand-written
 * documents: a keyword kept, changed or lost; names mapped as the converter makes them (camelCase,
 * rename warnings, interfaces and methods); `$ref`s followed; nothing matched by a guess.
 */
import { describe, expect, it } from 'vitest';
import { type ExplainedKeyword, measureFidelity, totalOf } from '../../bench/lib/fidelity-count.js';
import { tryCompileIdl } from '../../src/idl/compile.js';
import { idlToOpenApi, openApiToIdl } from '../../src/openapi/index.js';

/** A source document with one component schema and one operation. */
function sourceDocument(petProperties: Record<string, unknown>, parameters: unknown[] = []): Record<string, unknown> {
  return {
    openapi: '3.0.3',
    info: { title: 'Shop', version: '1' },
    paths: { '/pets': { get: { operationId: 'listPets', tags: ['pets'], parameters, responses: { '200': { description: 'ok' } } } } },
    components: {
      schemas: { Pet: { type: 'object', properties: petProperties }, Size: { type: 'integer', maximum: 100 } },
      parameters: { PageSize: { name: 'page_size', in: 'query', schema: { $ref: '#/components/schemas/Size' } } },
    },
  };
}

/** What the writer gives back: component `Pet` and `POST /pets/getListPets` with these body properties. */
function outputDocument(petProperties: Record<string, unknown>, bodyProperties: Record<string, unknown> = {}): Record<string, unknown> {
  const body = { type: 'object', properties: bodyProperties };
  return {
    openapi: '3.0.3',
    paths: { '/pets/getListPets': { post: { requestBody: { content: { 'application/json': { schema: body } } } } } },
    components: { schemas: { Pet: { type: 'object', properties: petProperties }, Size: { type: 'integer', maximum: 100 } } },
  };
}

describe('fidelity count', () => {
  it('counts a keyword kept, one changed and one lost, per keyword and in total', () => {
    const source = sourceDocument({
      age: { type: 'integer', minimum: 0, maximum: 30 },
      name: { type: 'string', pattern: '^[a-z]+$' },
    });
    const output = outputDocument({ age: { type: 'integer', minimum: 0, maximum: 99 }, name: { type: 'string' } });
    const count = measureFidelity(source, output, []);
    expect(count.keywords.minimum).toEqual({ source: 1, kept: 1, changed: 0, lost: 0 });
    expect(count.keywords.maximum).toEqual({ source: 1, kept: 0, changed: 1, lost: 0 });
    expect(count.keywords.pattern).toEqual({ source: 1, kept: 0, changed: 0, lost: 1 });
    expect(totalOf(count)).toEqual({ source: 3, kept: 1, changed: 1, lost: 1 });
  });

  it('compares values as JSON: a default object with its keys in another order is the same', () => {
    const source = sourceDocument({ size: { type: 'object', default: { w: 1, h: 2 } }, tags: { type: 'array', default: ['a', 'b'] } });
    const output = outputDocument({ size: { default: { h: 2, w: 1 } }, tags: { default: ['b', 'a'] } });
    expect(measureFidelity(source, output, []).keywords.default).toEqual({ source: 2, kept: 1, changed: 1, lost: 0 });
  });

  it('follows a $ref to a parameter and from it to a schema; matches it by method and camelCase name', () => {
    const source = sourceDocument({}, [{ $ref: '#/components/parameters/PageSize' }]);
    expect(measureFidelity(source, outputDocument({}, { pageSize: { type: 'integer', maximum: 100 } }), []).keywords.maximum).toEqual({
      source: 1,
      kept: 1,
      changed: 0,
      lost: 0,
    });
    // The writer's `$ref` and its 3.0 `allOf` wrapper are followed the same way.
    const wrapped = outputDocument({}, { pageSize: { allOf: [{ $ref: '#/components/schemas/Size' }], description: 'rows' } });
    expect(measureFidelity(source, wrapped, []).keywords.maximum.kept).toBe(1);
    // Under its raw name, or in another method, it is not found.
    expect(measureFidelity(source, outputDocument({}, { page_size: { maximum: 100 } }), []).keywords.maximum.lost).toBe(1);
  });

  it("reads a parameter's deprecated from the parameter; does not count deprecated: false", () => {
    const source = sourceDocument({ old: { type: 'string', deprecated: false } }, [
      { name: 'q', in: 'query', deprecated: true, schema: { type: 'string' } },
    ]);
    const count = measureFidelity(source, outputDocument({ old: {} }, { q: { type: 'string', deprecated: true } }), []);
    expect(count.keywords.deprecated).toEqual({ source: 1, kept: 1, changed: 0, lost: 0 });
  });

  it('counts header and cookie parameters as lost, and says how many keywords they hold', () => {
    const source = sourceDocument({}, [{ name: 'X-Trace', in: 'header', schema: { type: 'string', maxLength: 40 } }]);
    const count = measureFidelity(source, outputDocument({}, { xTrace: { maxLength: 40 } }), []);
    expect(count.keywords.maxLength).toEqual({ source: 1, kept: 0, changed: 0, lost: 1 });
    expect(count.onHeaderOrCookie).toBe(1);
  });

  it('maps a renamed field by the warning at its pointer, and matches no field two source properties map to', () => {
    const source = sourceDocument({ ID: { type: 'string', format: 'uuid' }, id: { type: 'string', format: 'uri' } });
    const output = outputDocument({ id: { format: 'uuid' }, id_2: { format: 'uri' } });
    const renamed = [
      {
        pointer: '/components/schemas/Pet/properties/id',
        message: 'property "id" of struct Pet is written as field id_2 (a valid unique identifier)',
      },
    ];
    expect(measureFidelity(source, output, renamed).keywords.format.kept).toBe(2);
    // Without the warning both map to `id`: neither is matched, even the one whose value is there.
    expect(measureFidelity(source, output, []).keywords.format).toEqual({ source: 2, kept: 0, changed: 0, lost: 2 });
  });

  it('counts a discriminator as kept when it names the same property and keeps every tag of the mapping', () => {
    const discriminated = (discriminator: unknown) => ({
      openapi: '3.1.0',
      components: { schemas: { Payment: { oneOf: [{ $ref: '#/components/schemas/Card' }], discriminator }, Card: { type: 'object' } } },
    });
    const source = discriminated({ propertyName: 'kind', mapping: { card: '#/components/schemas/card-payment' } });
    const same = discriminated({ propertyName: 'kind', mapping: { card: '#/components/schemas/Card', cash: '#/components/schemas/Cash' } });
    expect(measureFidelity(source, same, []).keywords.discriminator.kept).toBe(1);
    const otherProperty = discriminated({ propertyName: 'type', mapping: { card: '#/components/schemas/Card' } });
    expect(measureFidelity(source, otherProperty, []).keywords.discriminator.changed).toBe(1);
    const tagMissing = discriminated({ propertyName: 'kind', mapping: { cash: '#/components/schemas/Cash' } });
    expect(measureFidelity(source, tagMissing, []).keywords.discriminator.changed).toBe(1);
  });

  it('classifies the converter’s own warnings: first alternative used, optional parameter and body made required', () => {
    const source = {
      openapi: '3.0.3',
      info: { title: 'Shop', version: '1' },
      paths: {
        '/pets': {
          post: {
            operationId: 'addPet',
            parameters: [{ name: 'dryRun', in: 'query', schema: { type: 'boolean' } }],
            requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { a: { type: 'string' } } } } } },
            responses: {
              '200': {
                description: 'ok',
                content: { 'application/json': { schema: { oneOf: [{ type: 'string' }, { type: 'integer' }] } } },
              },
            },
          },
        },
      },
    };
    const { warnings } = openApiToIdl({ document: source });
    // Today's converter makes both optional: only the alternative is warned about.
    expect(measureFidelity(source, {}, warnings).warnings).toEqual({
      firstAlternative: 1,
      optionalMadeRequired: 0,
      optionalBodyMadeRequired: 0,
    });
    // The baseline's texts for the same document (before optional parameters existed).
    const baseline = [
      {
        pointer: '/paths/~1pets/post/parameters/0',
        message: 'optional query parameter "dryRun" became a required method parameter (IDL parameters cannot be optional)',
      },
      {
        pointer: '/paths/~1pets/post/requestBody',
        message: 'optional request body became the required parameter addPetBody (IDL parameters cannot be optional)',
      },
      {
        pointer: '/paths/~1pets/post/responses/200/content/application~1json/schema/oneOf',
        message: 'oneOf with 2 alternatives: the IDL has no unions; the first (string) is used',
      },
    ];
    expect(measureFidelity(source, {}, baseline).warnings).toEqual({
      firstAlternative: 1,
      optionalMadeRequired: 1,
      optionalBodyMadeRequired: 1,
    });
  });

  it('finds every item of a document the real converter renamed, through OpenAPI -> IDL -> OpenAPI', () => {
    const size = { type: 'integer', minimum: 1 };
    const source = {
      openapi: '3.1.0',
      info: { title: 'Pet Shop', version: '1' },
      paths: {
        '/pets/{pet-id}': {
          parameters: [{ name: 'pet-id', in: 'path', required: true, schema: size }],
          get: { operationId: 'get-pet', tags: ['Pet Store'], responses: { '200': { description: 'ok' } } },
          delete: {
            operationId: 'get-pet',
            tags: ['Pet Store'],
            parameters: [{ name: 'why', in: 'query', schema: size }],
            responses: { '204': { description: 'gone' } },
          },
        },
        '/pets/{pet-id}/copy': {
          get: {
            operationId: 'get-pet',
            tags: ['Pet Store'],
            parameters: [{ name: 'map', in: 'query', schema: size }],
            responses: { '200': { description: 'ok' } },
          },
        },
        '/owners': { get: { parameters: [{ name: 'page_size', in: 'query', schema: size }], responses: { '200': { description: 'ok' } } } },
      },
      components: {
        schemas: {
          'pet-record': { type: 'object', title: 'Pet Record', properties: { ID: size, id: size, pet_type: size } },
          PetRecord: { type: 'object', properties: { 'owner-name': size } },
          Child: { allOf: [{ $ref: '#/components/schemas/PetRecord' }, { type: 'object', properties: { nick_name: size } }] },
        },
      },
    };
    const converted = openApiToIdl({ document: source });
    const check = tryCompileIdl(converted.idl, 'shop.idl');
    expect(check.model).toBeDefined();
    const { document } = idlToOpenApi([check.model!], { version: '3.1' });
    const items: ExplainedKeyword[] = [];
    const count = measureFidelity(source, document, converted.warnings, (item) => items.push(item));
    expect(items.map((i) => i.item).sort()).toEqual(
      [
        'pet-record.ID -> PetRecord.id',
        'pet-record.id -> PetRecord.id_2',
        'pet-record.pet_type -> PetRecord.petType',
        'PetRecord.owner-name -> PetRecord_2.ownerName',
        'Child.nick_name -> Child.nickName',
        'GET /pets/{pet-id} path pet-id -> /PetStore/getGetPet petId',
        'DELETE /pets/{pet-id} path pet-id -> /PetStore/deleteGetPet petId',
        'DELETE /pets/{pet-id} query why -> /PetStore/deleteGetPet why',
        'GET /owners query page_size -> /owners/getOwners pageSize',
        'GET /pets/{pet-id}/copy query map -> /PetStore/getGetPet_2 map_',
      ].sort(),
    );
    expect(items.filter((i) => !i.matched)).toEqual([]);
    expect(count.keywords.minimum.source).toBe(10);
  });
});
