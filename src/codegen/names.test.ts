import { describe, expect, test } from 'vitest';
import { compileIdl } from '../idl/index.js';
import { generateModule } from './module.js';
import { camelCase, clientMethodNames, constantCase, parameterNames, pascalCase, typeScriptNames, uniqueName } from './names.js';

test('case conversions', () => {
  expect(pascalCase('pet_store')).toBe('PetStore');
  expect(camelCase('Checkout')).toBe('checkout');
  expect(constantCase('CartNotFound')).toBe('CART_NOT_FOUND');
  expect(constantCase('HTTPError')).toBe('HTTP_ERROR');
  const taken = new Set(['options']);
  expect(uniqueName('options', taken)).toBe('options2');
  expect(uniqueName('options', taken)).toBe('options3');
});

const names = (idl: string) => typeScriptNames(compileIdl(idl, 'names.idl'));
const named = (text: string) => ({ name: { text } });

describe('TypeScript names (the rule in docs/idl.md)', () => {
  test('ordinary names are kept', () => {
    const n = names(
      'namespace shop\n\nstruct Cart {\n    a string\n}\n\nerrors {\n    1 CartNotFound "x"\n}\n\ninterface Carts {\n    get() Cart\n}\n',
    );
    expect([n.declared('Cart'), n.schema('Cart'), n.declared('Carts'), n.client('Carts')]).toEqual([
      'Cart',
      'CartSchema',
      'Carts',
      'CartsClient',
    ]);
    expect([n.errorClass('CartNotFound'), n.errorCode('CartNotFound')]).toEqual(['CartNotFoundError', 'CART_NOT_FOUND']);
    expect(n.server).toEqual({ idl: 'shopIdl', handlers: 'ShopHandlers', options: 'ShopServerOptions', create: 'createShopServer' });
  });

  test('reserved words, TypeScript type keywords, globals and imports get an underscore', () => {
    const n = names(
      'namespace n\n\nstruct class {\n    a string\n}\n\nenum Record {\n    a\n}\n\nstruct unknown {\n    a string\n}\n\ninterface Transport {\n    get() class\n}\n\nstruct Error {\n    a string\n}\n',
    );
    expect(['class', 'Record', 'unknown', 'Transport', 'Error'].map(n.declared)).toEqual([
      'class_',
      'Record_',
      'unknown_',
      'Transport_',
      'Error',
    ]);
    // Derived names are built from the IDL name and renamed only when they need it themselves.
    expect([n.schema('class'), n.client('Transport')]).toEqual(['classSchema', 'TransportClient']);
  });

  test('a name the IDL spells keeps it; the derived or renamed name that wants it gets more underscores', () => {
    const n = names(
      'namespace shop\n\nstruct ShopClient {\n    a string\n}\n\ninterface Shop {\n    get() ShopClient\n}\n\nstruct class {\n    a string\n}\n\nstruct class_ {\n    a string\n}\n\nstruct CartSchema {\n    a string\n}\n\nstruct Cart {\n    a string\n}\n\nerrors {\n    1 Type "x"\n    2 Declared "y"\n}\n\nstruct createShopServer {\n    a string\n}\n',
    );
    expect([n.declared('ShopClient'), n.client('Shop')]).toEqual(['ShopClient', 'ShopClient_']);
    expect([n.declared('class_'), n.declared('class')]).toEqual(['class_', 'class__']);
    expect([n.declared('CartSchema'), n.schema('Cart')]).toEqual(['CartSchema', 'CartSchema_']);
    expect([n.errorClass('Type'), n.errorClass('Declared')]).toEqual(['TypeError_', 'DeclaredError_']);
    expect([n.declared('createShopServer'), n.server.create]).toEqual(['createShopServer', 'createShopServer_']);
  });

  test('error code constants that collide get an underscore', () => {
    const n = names('namespace n\n\nerrors {\n    1 Foo "x"\n    2 FOO "y"\n}\n\nenum FOO_ {\n    a\n}\n');
    expect([n.declared('FOO_'), n.errorCode('Foo'), n.errorCode('FOO')]).toEqual(['FOO_', 'FOO', 'FOO__']);
  });

  test('parameters: reserved words and what the method body calls get an underscore', () => {
    expect(
      parameterNames(['default', 'cartId', 'callMethod', 'NotFoundError', 'default_'].map(named), ['callMethod', 'NotFoundError']),
    ).toEqual(['default__', 'cartId', 'callMethod_', 'NotFoundError_', 'default_']);
  });

  test('a client method named constructor becomes constructor_', () => {
    expect(clientMethodNames(['get', 'constructor', 'constructor_'].map(named))).toEqual(['get', 'constructor__', 'constructor_']);
  });
});

test('an IDL that clashed in TypeScript now generates a module', () => {
  const idl =
    'namespace n\n\nstruct ShopClient {\n    a string\n}\n\ninterface Shop {\n    get() ShopClient\n}\n\nenum Number {\n    one\n}\n\nstruct Transport {\n    a string\n}\n';
  const { js, dts } = generateModule(compileIdl(idl, 'clash.idl'), {
    runtimeImport: 'r',
    runtimeClientImport: 'rc',
    sourceFile: 'clash.idl',
  });
  expect(js).toContain('export class ShopClient_ {');
  expect(js).toContain('export const Number_ = ');
  expect(dts).toContain('export interface Transport_ {');
});
