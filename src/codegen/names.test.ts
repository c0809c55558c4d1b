import { describe, expect, test } from 'vitest';
import { compileIdl } from '../idl/index.js';
import { generateModule } from './module.js';
import { camelCase, CodegenError, constantCase, errorClassName, parameterName, pascalCase, uniqueName } from './names.js';

test('case conversions', () => {
  expect(pascalCase('pet_store')).toBe('PetStore');
  expect(camelCase('Checkout')).toBe('checkout');
  expect(constantCase('CartNotFound')).toBe('CART_NOT_FOUND');
  expect(constantCase('HTTPError')).toBe('HTTP_ERROR');
  expect(errorClassName('CartNotFound')).toBe('CartNotFoundError');
  expect(parameterName('default')).toBe('default_');
  expect(parameterName('cartId')).toBe('cartId');
  const taken = new Set(['options']);
  expect(uniqueName('options', taken)).toBe('options2');
  expect(uniqueName('options', taken)).toBe('options3');
});

describe('an IDL whose generated names clash fails with a CodegenError naming the clash', () => {
  const generate = (idl: string) => () =>
    generateModule(compileIdl(idl, 'clash.idl'), { runtimeImport: 'r', runtimeClientImport: 'rc', sourceFile: 'clash.idl' });

  test('a struct named like a generated client class', () => {
    const idl = 'namespace n\n\nstruct ShopClient {\n    a string\n}\n\ninterface Shop {\n    get() ShopClient\n}\n';
    expect(generate(idl)).toThrow(CodegenError);
    expect(generate(idl)).toThrow(/the generated class and the generated type are both named 'ShopClient'/);
  });

  test('an enum that would hide a global the validators use', () => {
    expect(generate('namespace n\n\nenum Number {\n    one\n}\n')).toThrow(/would hide the global 'Number'/);
  });

  test('a struct named like an import', () => {
    expect(generate('namespace n\n\nstruct Transport {\n    a string\n}\n')).toThrow(/'Transport' clashes with 'Transport' imported/);
  });
});
