/**
 * Doc tags in generated TypeScript: `@deprecated` reaches the TSDoc of the type, field, enum value,
 * interface and client/server method (editors strike them through); the other tag lines leave the text.
 */
import { expect, test } from 'vitest';
import { generateModule } from '../../src/codegen/index.js';
import { compileIdl } from '../../src/idl/index.js';

const IDL = `namespace shop

// A product.
// @deprecated use Item
// @example {"id": "p1"}
struct Product {
    // @deprecated always empty
    id  string
}

enum Size {
    small
    // @deprecated
    large
}

// @deprecated use Shop2
interface Shop {
    // Finds one.
    // @readonly
    // @deprecated call list
    find(id string) Product
}
`;

test('@deprecated reaches the TSDoc; @readonly and @example stay out of it', () => {
  const { dts } = generateModule(compileIdl(IDL, 'shop.idl'), { runtimeImport: 'r', runtimeClientImport: 'rc', sourceFile: 'shop.idl' });
  expect(dts).toContain('/**\n * A product.\n *\n * @deprecated use Item\n */\nexport interface Product');
  expect(dts).toContain('  /** @deprecated always empty */\n  id: string;');
  expect(dts).toContain('  /** @deprecated */\n  readonly large:');
  expect(dts).toMatch(/ \* @deprecated use Shop2\n \*\/\nexport declare class ShopClient/);
  expect(dts).toContain('   * Finds one.\n   *\n   * @deprecated call list\n   */\n  find(');
  expect(dts).not.toMatch(/@readonly|@example/);
});

test('a @readonly method passes its parameter names, by which a transport with reads: readOverGet sends it as GET', () => {
  const idl = `namespace shop

struct Product {
    id  string
}

interface Shop {
    // @readonly
    find(id string, when timestamp [optional]) Product

    // @readonly
    watch(id string) stream Product

    put(id string) Product
}
`;
  const { js } = generateModule(compileIdl(idl, 'shop.idl'), { runtimeImport: 'r', runtimeClientImport: 'rc', sourceFile: 'shop.idl' });
  expect(js).toMatch(
    /callConvertingMethod\(this\.#transport, 'Shop\.find', params, \[\], options, ShopClient\.contract, \{.*\}, \["id","when"\]\);/,
  );
  expect(js).toContain("callMethodWithoutRaises(this.#transport, 'Shop.put', [id], options, ShopClient.contract);");
  expect(js).toContain("streamMethod(this.#transport, 'Shop.watch', [id], [], options, ShopClient.contract);");
});
