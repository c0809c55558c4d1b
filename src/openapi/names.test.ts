import { describe, expect, it } from 'vitest';
import { camelCaseName, enumValueName, NameScope, namespaceName, typeName } from './names.js';

describe('IDL names from OpenAPI names', () => {
  it.each([
    ['Pet', 'Pet'],
    ['pet_type', 'pet_type'],
    ['simple-user', 'SimpleUser'],
    ['Simple User', 'SimpleUser'],
    ['nullable-simple-user', 'NullableSimpleUser'],
    ['string', 'string_'],
    ['2fa', 'T2fa'],
    ['---', 'Type'],
    ['café', 'Caf'],
  ])('type name %j -> %s', (raw, expected) => expect(typeName(raw)).toBe(expected));

  it.each([
    ['pet_type', 'petType'],
    ['created-at', 'createdAt'],
    ['Pet Type', 'petType'],
    ['ID', 'id'],
    ['HTMLUrl', 'htmlUrl'],
    ['petType', 'petType'],
    ['+1', 'n1'],
    ['map', 'map_'],
    ['', 'field'],
    ['@type', 'type'],
  ])('field name %j -> %s', (raw, expected) => expect(camelCaseName(raw)).toBe(expected));

  it.each([
    ['available', 'available'],
    ['IN_PROGRESS', 'IN_PROGRESS'],
    ['in-progress', 'in_progress'],
    ['1.0', 'v1_0'],
    ['+1', 'v1'],
    ['a  b', 'a_b'],
    ['_private', 'private'],
    ['bool', 'bool_'],
    ['', 'empty'],
    ['é', 'empty'],
  ])('enum value %j -> %s', (raw, expected) => expect(enumValueName(raw)).toBe(expected));

  it.each([
    ['Swagger Petstore', 'swagger_petstore'],
    ['PetStore3', 'petstore3'],
    ['GitHub v3 REST API', 'github_v3_rest_api'],
    ['(Beta) API', 'beta__api'],
    ['3D API', 'n3d_api'],
    ['Map', 'map_'],
    ['', 'api'],
  ])('namespace from title %j -> %s', (raw, expected) => expect(namespaceName(raw)).toBe(expected));

  it('makes names unique within a scope with _2, _3, ...', () => {
    const scope = new NameScope();
    expect(['a', 'a', 'a_2', 'a', 'b'].map((n) => scope.claim(n))).toEqual(['a', 'a_2', 'a_2_2', 'a_3', 'b']);
  });
});
