/**
 * Which runtime function a generated client method calls: `callMethod` with its declared errors, or,
 * for a method that raises nothing, `callMethodWithoutRaises`, so that a page whose methods raise
 * nothing carries no mapping of errors to declared classes (test/runtime/boundaries.test.ts). The
 * module imports only the functions its methods call.
 */
import { expect, test } from 'vitest';
import { generateModule } from '../../src/codegen/module.js';
import { compileIdl } from '../../src/idl/compile.js';

const options = { runtimeImport: 'rt', runtimeClientImport: 'rt-client', sourceFile: 'shop.idl' };

const shop = (raises: string) =>
  `namespace shop\n\nerrors {\n    1 Closed "closed"\n}\n\ninterface Shop {\n    open(id string) bool${raises}\n    ping() bool\n}\n`;

test('a method that raises errors calls callMethod with their classes; one that raises none, callMethodWithoutRaises', () => {
  const { js } = generateModule(compileIdl(shop(' raises(Closed)'), 'shop.idl'), options);
  expect(js).toContain("return callMethod(this.#transport, 'Shop.open', [id], [ClosedError], options, ShopClient.contract);");
  expect(js).toContain("return callMethodWithoutRaises(this.#transport, 'Shop.ping', [], options, ShopClient.contract);");
  expect(js).toMatch(/^import \{ DeclaredError, callMethod, callMethodWithoutRaises \} from 'rt-client';$/m);
});

test('a client whose methods raise nothing imports only callMethodWithoutRaises', () => {
  const { js } = generateModule(compileIdl(shop(''), 'shop.idl'), options);
  expect(js).not.toMatch(/\bcallMethod\(/);
  expect(js).toMatch(/^import \{ DeclaredError, callMethodWithoutRaises \} from 'rt-client';$/m);
});
