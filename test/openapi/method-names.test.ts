/**
 * How `openApiToIdl` names methods: by default the IDL family's `<http method><OperationId>`; with
 * `methodNames: 'operation-id'`, the operationId alone where it is unique in its interface, the
 * default rule for the others (docs/openapi.md, "Names").
 */
import { describe, expect, test } from 'vitest';
import { compileIdl } from '../../src/idl/compile.js';
import { idlToOpenApi, openApiToIdl } from '../../src/openapi/index.js';
import { expectChecksClean, openApiDocument } from './helpers.js';

const noContent = { responses: { '204': { description: '' } } };
const petId = { name: 'petId', in: 'path', required: true, schema: { type: 'string' } };

const document = openApiDocument({
  paths: {
    '/pets/{petId}': {
      get: { operationId: 'getPetById', parameters: [petId], ...noContent },
      delete: { operationId: 'delete-pet', parameters: [petId], ...noContent },
    },
    '/pets': {
      // Two operationIds that make the same identifier: both keep the default rule.
      get: { operationId: 'list-pets', ...noContent },
      post: { operationId: 'listPets', ...noContent },
      // No operationId: the default rule, on the path's words.
      put: noContent,
    },
    // An operationId that is a reserved word: made an identifier as by the default rule.
    '/kinds': { get: { operationId: 'string', ...noContent } },
  },
});

function methodsOf(idl: string): Record<string, string[]> {
  const model = compileIdl(idl, 'converted.idl');
  return Object.fromEntries(model.interfaces.map((i) => [i.name.text, i.methods.map((m) => m.name.text)]));
}

describe('method names', () => {
  test("default: <http method><OperationId>, and which methods it named so, for the CLI's hint", () => {
    const result = openApiToIdl({ document });
    expect(methodsOf(result.idl)).toEqual({
      pets: ['getGetPetById', 'deleteDeletePet', 'getListPets', 'postListPets', 'putPets'],
      kinds: ['getString_'],
    });
    expect(result.prefixedMethods).toEqual({ count: 5, first: { operationId: 'getPetById', method: 'getGetPetById' } });
    expect(openApiToIdl({ document }, { methodNames: 'http-method-prefix' }).idl).toBe(result.idl);
  });

  test('operation-id: the operationId alone where unique in its interface; shared or missing ones keep the default rule', () => {
    const result = openApiToIdl({ document }, { methodNames: 'operation-id' });
    expectChecksClean(result.idl);
    expect(methodsOf(result.idl)).toEqual({
      pets: ['getPetById', 'deletePet', 'getListPets', 'postListPets', 'putPets'],
      kinds: ['string_'],
    });
    expect(result.prefixedMethods).toBeUndefined();
  });

  test('operation-id: the same operationId in two interfaces is unique in each', () => {
    const twice = openApiDocument({
      paths: {
        '/a': { get: { operationId: 'list', tags: ['A'], ...noContent } },
        '/b': { get: { operationId: 'list', tags: ['B'], ...noContent } },
      },
    });
    expect(methodsOf(openApiToIdl({ document: twice }, { methodNames: 'operation-id' }).idl)).toEqual({ A: ['list'], B: ['list'] });
  });

  test('operation-id: a name the default rule gives another operation is still made unique (_2), with a warning', () => {
    const clash = openApiDocument({
      paths: {
        '/pets': { get: { operationId: 'getPets', ...noContent } },
        '/pets/': { get: noContent },
      },
    });
    const result = openApiToIdl({ document: clash }, { methodNames: 'operation-id' });
    expect(methodsOf(result.idl)).toEqual({ pets: ['getPets', 'getPets_2'] });
    expect(result.warnings.map((w) => w.message)).toContain('method name getPets is used twice in its interface; written as getPets_2');
  });

  test("operation-id leaves the names of this package's own documents as they are", () => {
    const idl = 'namespace shop\n\ninterface Carts {\n    getCart(id string) string\n}\n';
    const { document: own } = idlToOpenApi([compileIdl(idl, 'shop.idl')]);
    expect(openApiToIdl({ document: own }, { methodNames: 'operation-id' }).idl).toBe(idl);
  });
});
