/**
 * IDL -> OpenAPI: the document for checkout.idl and the all-constructs IDL passes strict validation
 * in 3.1 and 3.0, follows docs/protocol.md §3, matches the runtime's binding, and converts back to the
 * same model.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { httpStatusOfError } from '../../runtime/index.js';
import { compileIdl } from '../../src/idl/compile.js';
import { printIdl } from '../../src/idl/format.js';
import { ERROR_STATUS } from '../../src/openapi/error-binding.js';
import { idlToOpenApi, openApiToIdl, type OpenApiVersion } from '../../src/openapi/index.js';
import { comparableModel, expectChecksClean, strictProblems } from './helpers.js';

const root = join(import.meta.dirname, '..', '..');
// The reference checkout.idl of the spec (a copy, so edits of the playground's copy do not move these tests).
const checkoutSource = readFileSync(join(root, 'test', 'idl', 'fixtures', 'family', 'checkout.idl'), 'utf8');
const everythingSource = readFileSync(join(root, 'test', 'generator', 'fixtures', 'everything.idl'), 'utf8');

const fixtures = [
  ['checkout.idl', checkoutSource],
  ['everything.idl', everythingSource],
] as const;
const versions: OpenApiVersion[] = ['3.1', '3.0'];

type Json = Record<string, any>;

/** `int`: an int64 the runtime bounds to ±(2^53−1). */
const INT = { type: 'integer', format: 'int64', minimum: -9007199254740991, maximum: 9007199254740991 };

function documentFor(source: string, version: OpenApiVersion, name = 'file.idl'): Json {
  return idlToOpenApi([compileIdl(source, name)], { version }).document as Json;
}

describe('IDL -> OpenAPI', () => {
  describe.each(versions)('OpenAPI %s', (version) => {
    it.each(fixtures)('%s passes strict validation', async (name, source) => {
      expect(await strictProblems(documentFor(source, version, name))).toEqual([]);
    });

    it.each(fixtures)('%s with a server and a license passes the full recommended-strict ruleset', async (name, source) => {
      const { document } = idlToOpenApi([compileIdl(source, name)], {
        version,
        serverUrl: 'http://127.0.0.1:8080',
        license: { name: 'MIT', url: 'https://opensource.org/license/mit' },
      });
      expect(await strictProblems(document, true)).toEqual([]);
      expect((document as Json).servers).toEqual([{ url: 'http://127.0.0.1:8080' }]);
    });

    it.each(fixtures)('%s converts back to the same model', (name, source) => {
      const model = compileIdl(source, name);
      const back = openApiToIdl({ document: idlToOpenApi([model], { version }).document });
      expect(back.warnings).toEqual([]);
      expect(comparableModel(expectChecksClean(back.idl))).toEqual(comparableModel(model));
    });

    it('checkout.idl converts back to the same text', () => {
      const model = compileIdl(checkoutSource, 'checkout.idl');
      expect(openApiToIdl({ document: idlToOpenApi([model], { version }).document }).idl).toBe(printIdl(model.file));
    });
  });

  it('writes info, tags and operations as docs/protocol.md §3 says', () => {
    const document = documentFor(checkoutSource, '3.1');
    expect(document.openapi).toBe('3.1.0');
    expect(documentFor(checkoutSource, '3.0').openapi).toBe('3.0.3');
    expect(document.info.title).toBe('Checkout');
    expect(document.info.description).toBe('Namespace: checkout\nInterfaces: 3\nStructs: 8\nEnums: 2');
    expect(document.tags.map((t: Json) => [t.name, t.description])).toEqual([
      ['CatalogService', 'IDL interface: CatalogService'],
      ['CartService', 'IDL interface: CartService'],
      ['OrderService', 'IDL interface: OrderService'],
    ]);
    expect(Object.keys(document.paths)).toEqual([
      '/CatalogService/listProducts',
      '/CatalogService/getProduct',
      '/CartService/addToCart',
      '/CartService/getCart',
      '/CartService/clearCart',
      '/OrderService/createOrder',
      '/OrderService/getOrder',
    ]);
    const listProducts = document.paths['/CatalogService/listProducts'].post;
    expect(listProducts.operationId).toBe('CatalogService_listProducts');
    expect(listProducts.tags).toEqual(['CatalogService']);
    expect(listProducts.summary).toBe('All available products.');
    expect(listProducts.description).toBe('All available products.');
    expect(listProducts['x-idl-comment']).toBe('All available products.');
    expect(listProducts.requestBody).toEqual({
      required: true,
      description: 'No parameters: an empty object.',
      content: { 'application/json': { schema: { type: 'object', additionalProperties: false } } },
    });
    expect(listProducts.responses['200'].content['application/json'].schema).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/Product' },
    });
    const getProduct = document.paths['/CatalogService/getProduct'].post;
    expect(getProduct.requestBody).toEqual({
      required: true,
      description: 'The named parameters of the call.',
      content: {
        'application/json': {
          schema: { type: 'object', properties: { productId: { type: 'string' } }, required: ['productId'], additionalProperties: false },
        },
      },
    });
  });

  it('writes nullable results and fields as 3.1 type arrays / oneOf, and as 3.0 nullable types (a $ref: to a nullable component)', () => {
    const v31 = documentFor(checkoutSource, '3.1');
    const v30 = documentFor(checkoutSource, '3.0');
    const result = (d: Json, path: string) => d.paths[path].post.responses['200'].content['application/json'].schema;
    expect(result(v31, '/CatalogService/getProduct')).toEqual({ oneOf: [{ $ref: '#/components/schemas/Product' }, { type: 'null' }] });
    // Product is also returned plain (listProducts): the nullable result is a nullable copy of it.
    expect(result(v30, '/CatalogService/getProduct')).toEqual({ $ref: '#/components/schemas/ProductNullable' });
    const { type, ...product } = v30.components.schemas.Product;
    expect(v30.components.schemas.ProductNullable).toEqual({ type, nullable: true, ...product, 'x-idl-nullable-of': 'Product' });
    // Order is only ever returned nullable (getOrder): its component is nullable itself, no copy.
    expect(result(v30, '/OrderService/getOrder')).toEqual({ $ref: '#/components/schemas/Order' });
    expect(v30.components.schemas.Order).toMatchObject({ type: 'object', nullable: true });
    expect(Object.keys(v30.components.schemas)).toEqual([
      ...['OrderStatus', 'PaymentMethod', 'Product', 'ProductNullable', 'CartItem', 'Cart', 'CartNullable', 'Address', 'Order'],
      ...['AddToCartRequest', 'CreateOrderRequest', 'CheckoutResponse', 'RpcError'],
    ]);
    expect(v31.components.schemas.Product.properties.imageUrl).toEqual({ type: ['string', 'null'] });
    expect(v30.components.schemas.Product.properties.imageUrl).toEqual({ type: 'string', nullable: true });
    expect(v31.components.schemas.Product.required).toEqual(['productId', 'name', 'description', 'price', 'stock']);
    expect(JSON.stringify(v30)).not.toContain('"null"');
    expect(JSON.stringify(v30)).not.toMatch(/"anyOf"|"oneOf"|"nullable":true,"allOf"/);
    expect(JSON.stringify(v31)).not.toContain('"nullable"');
  });

  it('writes a 3.0 nullable copy with inherited fields written out, enums with null among the values, names that do not clash', () => {
    const source = `namespace n
// Shades.
enum Color {
    // The first.
    red
    green
}
struct Product {
    id     string
    note   string [optional]
}
struct Special extends Product {
    extra  int
}
struct ProductNullable {
    taken  bool
}
struct Holder {
    product   Product [optional]
    // Commented.
    commented Product [optional]
    color     Color [optional]
    special   Special [optional]
    plain     Product
    colors    []Color
    own       ProductNullable
}
interface S {
    get(id string) Holder
    special(id string) Special [optional]
}
`;
    const model = compileIdl(source, 'n.idl');
    const document = idlToOpenApi([model], { version: '3.0' }).document as Json;
    const schemas = document.components.schemas;
    const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
    expect(Object.keys(schemas)).toEqual([
      ...['Color', 'ColorNullable', 'Product', 'ProductNullable_2', 'Special', 'SpecialNullable', 'ProductNullable', 'Holder'],
      'RpcError',
    ]);
    expect(schemas.Holder.properties).toMatchObject({
      product: ref('ProductNullable_2'),
      commented: { allOf: [ref('ProductNullable_2')], description: 'Commented.' },
      color: ref('ColorNullable'),
      special: ref('SpecialNullable'),
      plain: ref('Product'),
      own: ref('ProductNullable'),
    });
    expect(schemas.ColorNullable).toEqual({
      type: 'string',
      nullable: true,
      description: 'Shades.',
      enum: ['red', 'green', null],
      'x-enum-descriptions': ['The first.', null, null],
      'x-idl-nullable-of': 'Color',
    });
    // An allOf of the parent would forbid null again (3.0.3: `nullable` does not reach into allOf).
    expect(schemas.SpecialNullable).toEqual({
      type: 'object',
      nullable: true,
      properties: { id: { type: 'string' }, note: { type: 'string', nullable: true }, extra: INT },
      required: ['id', 'extra'],
      'x-idl-nullable-of': 'Special',
    });
    expect(document.paths['/S/special'].post.responses['200'].content['application/json'].schema).toEqual(ref('SpecialNullable'));
    const back = openApiToIdl({ document });
    expect(back.warnings).toEqual([]);
    expect(comparableModel(expectChecksClean(back.idl))).toEqual(comparableModel(model));
    // A mark that names no component, or another copy, is no copy: the schema is read as it is.
    schemas.SpecialNullable['x-idl-nullable-of'] = 'Missing';
    schemas.ColorNullable['x-idl-nullable-of'] = 'SpecialNullable';
    const tampered = expectChecksClean(openApiToIdl({ document }).idl);
    const holder = tampered.types.get('Holder');
    const fieldTypes =
      holder?.kind === 'struct' ? holder.fields.map((f) => [f.name.text, f.type.kind === 'named' && f.type.name, f.optional]) : [];
    expect(fieldTypes).toContainEqual(['special', 'SpecialNullable', true]);
    expect(fieldTypes).toContainEqual(['color', 'ColorNullable', true]);
    expect(fieldTypes).toContainEqual(['product', 'Product', true]);
  });

  it('maps types, enums, maps and extends per docs/openapi.md', () => {
    const document = documentFor(everythingSource, '3.1');
    const schemas = document.components.schemas;
    expect(schemas.Color).toEqual({
      type: 'string',
      description: 'Colours with a */ inside the comment.',
      enum: ['red', 'green', 'blue'],
      'x-enum-descriptions': ['The "red" one.', null, 'Backtick `blue`.'],
    });
    expect(schemas.Middle).toEqual({
      type: 'object',
      allOf: [
        { $ref: '#/components/schemas/Base' },
        {
          type: 'object',
          properties: { level: INT, color: { $ref: '#/components/schemas/Color' } },
          required: ['level', 'color'],
        },
      ],
    });
    expect(schemas.Leaf.allOf[1].properties.grid).toEqual({
      description: 'Nested arrays of maps: */ "quoted" `ticked`.',
      type: 'array',
      items: { type: 'array', items: { type: 'object', additionalProperties: INT } },
    });
    expect(schemas.Leaf.allOf[1].properties.ratio).toEqual({ type: 'number', format: 'double' });
    expect(schemas.Empty).toEqual({ type: 'object' });
    // 3.0 cannot put a description beside a $ref: it is wrapped in allOf.
    const v30 = documentFor(everythingSource, '3.0');
    expect(v30.components.schemas.Tree.properties.parent).toEqual({ $ref: '#/components/schemas/TreeNullable' });
  });

  it('describes declared errors with their codes, and uses the statuses the runtime answers with', () => {
    const document = documentFor(checkoutSource, '3.1');
    const responses = document.paths['/OrderService/createOrder'].post.responses;
    expect(Object.keys(responses)).toEqual(['200', '400', '422', '500']);
    expect(responses['422'].description).toBe(
      [
        'A declared error:',
        '- 1001 CartNotFound: cart does not exist',
        '- 1002 CartEmpty: cart has no items',
        '- 1003 PaymentFailed: payment method rejected',
        '- 1004 OutOfStock: insufficient inventory',
        '- 1005 InvalidAddress: shipping address validation failed',
      ].join('\n'),
    );
    expect(responses['422'].content['application/json'].schema.allOf[1].properties.code.enum).toEqual([1001, 1002, 1003, 1004, 1005]);
    expect(document.paths['/OrderService/createOrder'].post['x-idl-raises']).toEqual([
      'CartNotFound',
      'CartEmpty',
      'PaymentFailed',
      'OutOfStock',
      'InvalidAddress',
    ]);
    expect(Object.keys(document.paths['/CartService/getCart'].post.responses)).toEqual(['200', '400', '500']);
    expect(document.components.schemas.RpcError.required).toEqual(['code', 'message']);
    expect(String(httpStatusOfError(-32602))).toBe(ERROR_STATUS.invalidRequest);
    expect(String(httpStatusOfError(-32700))).toBe(ERROR_STATUS.invalidRequest);
    expect(String(httpStatusOfError(1001))).toBe(ERROR_STATUS.declared);
    expect(String(httpStatusOfError(-32603))).toBe(ERROR_STATUS.internal);
  });

  it('warns about parameters named like OpenAPI reserved words, naming them', () => {
    const source = `namespace words
interface Api {
    call(class string, Default int, plain bool, authorization string) string
}
`;
    const { warnings } = idlToOpenApi([compileIdl(source, 'words.idl')]);
    expect(warnings.map((w) => w.message)).toEqual([
      'parameter class (1 of Api.call) is an OpenAPI reserved word; clients generated from this document may rename it',
      'parameter Default (2 of Api.call) is an OpenAPI reserved word; clients generated from this document may rename it',
      'parameter authorization (4 of Api.call) is an OpenAPI reserved word; clients generated from this document may rename it',
    ]);
    expect(warnings[0].pointer).toBe('/paths/~1Api~1call/post/requestBody/content/application~1json/schema/properties/class');
  });

  it('renames an RpcError struct of the IDL instead of clashing with the error body schema', async () => {
    const source = `namespace clash
struct RpcError {
    reason string
}
interface Api {
    fail() RpcError
}
`;
    const { document } = idlToOpenApi([compileIdl(source, 'clash.idl')]);
    const schemas = (document as Json).components.schemas;
    expect(Object.keys(schemas)).toEqual(['RpcError', 'RpcError_2']);
    expect(schemas.RpcError_2['x-idl-rpc-error']).toBe(true);
    expect(await strictProblems(document)).toEqual([]);
    expect(openApiToIdl({ document }).idl).toBe(printIdl(compileIdl(source, 'clash.idl').file));
  });

  it('puts several models in one document, prefixing names declared twice', async () => {
    const shop = `namespace shop
struct Item {
    id string
}
struct Cart {
    items []Item
}
interface Store {
    get(id string) Item
    cart() Cart
}
`;
    const depot = `namespace depot
struct Item {
    sku string
}
interface Store {
    count(item Item) int
}
interface Depot {
    list() []Item
}
`;
    const { document, warnings } = idlToOpenApi([compileIdl(shop, 'shop.idl'), compileIdl(depot, 'depot.idl')]);
    const json = document as Json;
    expect(json.info.title).toBe('Shop, Depot');
    expect(json.info.description).toBe(
      'Namespace: shop\nInterfaces: 1\nStructs: 2\nEnums: 0\n\nNamespace: depot\nInterfaces: 2\nStructs: 1\nEnums: 0',
    );
    expect(Object.keys(json.components.schemas)).toEqual(['shop_Item', 'Cart', 'depot_Item', 'RpcError']);
    expect(json.components.schemas.Cart.properties.items.items).toEqual({ $ref: '#/components/schemas/shop_Item' });
    expect(Object.keys(json.paths)).toEqual(['/shop_Store/get', '/shop_Store/cart', '/depot_Store/count', '/Depot/list']);
    expect(warnings.map((w) => w.message)).toEqual([
      'type Item is declared in several namespaces; namespace shop writes it as shop_Item',
      'interface Store is declared in several namespaces; namespace shop writes it as shop_Store',
      'type Item is declared in several namespaces; namespace depot writes it as depot_Item',
      'interface Store is declared in several namespaces; namespace depot writes it as depot_Store',
    ]);
    expect(warnings.map((w) => w.pointer)).toEqual([
      '/components/schemas/shop_Item',
      '/paths/~1shop_Store~1get',
      '/components/schemas/depot_Item',
      '/paths/~1depot_Store~1count',
    ]);
    expect(json.info['x-idl-namespace']).toBeUndefined();
    expect(await strictProblems(document)).toEqual([]);
  });
});
