/**
 * IDL -> OpenRPC (docs/openrpc.md): what each IDL construct becomes in the document.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileIdl } from '../../src/idl/compile.js';
import { idlToOpenApi } from '../../src/openapi/index.js';
import { idlToOpenRpc } from '../../src/openrpc/index.js';

type Json = Record<string, any>;

function documentOf(idl: string, options: Parameters<typeof idlToOpenRpc>[1] = {}): Json {
  const { document, warnings } = idlToOpenRpc(compileIdl(idl, 'test.idl'), options);
  expect(warnings).toEqual([]);
  return document;
}

function method(document: Json, name: string): Json {
  return document.methods.find((m: Json) => m.name === name);
}

const shop = `// The shop.
namespace shop

struct Product {
    id    string
    // What it costs, in cents.
    price int [min=0]
}

errors {
    // Unknown product.
    1001 NotFound "no such product"
    1002 SoldOut  "sold out"
}

// The catalog.
interface Catalog {
    // One product.
    // Raises NotFound for an unknown id.
    get(id string, withStock bool [optional]) Product raises(NotFound, SoldOut)
    // The product or null.
    find(id string) Product [optional]
    count() int
}
`;

describe('idlToOpenRpc', () => {
  it('writes openrpc 1.3.2 and the same info as the OpenAPI document, without servers by default', () => {
    const model = compileIdl(shop, 'test.idl');
    const document = idlToOpenRpc(model).document;
    expect(document.openrpc).toBe('1.3.2');
    expect(document.info).toEqual((idlToOpenApi([model]).document as Json).info);
    expect(document.servers).toBeUndefined();
    expect(documentOf(shop, { infoVersion: '2.1.0' }).info.version).toBe('2.1.0');
  });

  it('names each method as on the wire, in IDL order, by position or by name', () => {
    const document = documentOf(shop);
    expect(document.methods.map((m: Json) => m.name)).toEqual(['Catalog.get', 'Catalog.find', 'Catalog.count']);
    for (const m of document.methods) expect(m.paramStructure).toBe('either');
  });

  it('lists the parameters in IDL order with their schemas and required flags; [] when there are none', () => {
    const document = documentOf(shop);
    expect(method(document, 'Catalog.get').params).toEqual([
      { name: 'id', schema: { type: 'string' }, required: true },
      { name: 'withStock', schema: { type: 'boolean' }, required: false },
    ]);
    expect(method(document, 'Catalog.count').params).toEqual([]);
  });

  it('names the result, nullable for an [optional] return', () => {
    const document = documentOf(shop);
    expect(method(document, 'Catalog.get').result).toEqual({
      name: 'result',
      schema: { $ref: '#/components/schemas/Product' },
      required: true,
    });
    expect(method(document, 'Catalog.find').result).toEqual({
      name: 'result',
      schema: { oneOf: [{ $ref: '#/components/schemas/Product' }, { type: 'null' }] },
      required: false,
    });
    // No `format: int64`: draft-07 has no such format, and ajv refuses one it does not know.
    expect(method(document, 'Catalog.count').result.schema).toEqual({
      type: 'integer',
      minimum: -Number.MAX_SAFE_INTEGER,
      maximum: Number.MAX_SAFE_INTEGER,
    });
  });

  it('lists the raised errors as references to components.errors, with their codes and messages', () => {
    const document = documentOf(shop);
    expect(method(document, 'Catalog.get').errors).toEqual([
      { $ref: '#/components/errors/NotFound' },
      { $ref: '#/components/errors/SoldOut' },
    ]);
    expect(method(document, 'Catalog.find').errors).toBeUndefined();
    expect(document.components.errors).toEqual({
      NotFound: { code: 1001, message: 'no such product' },
      SoldOut: { code: 1002, message: 'sold out' },
    });
  });

  it('tags each method with its interface, and makes summary and description of doc comments', () => {
    const document = documentOf(shop);
    const get = method(document, 'Catalog.get');
    expect(get.tags).toEqual([{ name: 'Catalog', description: 'The catalog.' }]);
    expect(get.summary).toBe('One product.');
    expect(get.description).toBe('One product.\nRaises NotFound for an unknown id.');
    expect(get['x-idl-comment']).toBe('One product.\nRaises NotFound for an unknown id.');
    expect(method(document, 'Catalog.find').description).toBeUndefined();
    expect(method(document, 'Catalog.count').summary).toBeUndefined();
  });

  it('writes components.schemas with the OpenAPI mapping, a described $ref wrapped in allOf (draft-07 ignores its siblings)', () => {
    const idl = `namespace t
struct Money {
    cents int
}
struct Item {
    // The price, tax included.
    price Money
    // When it was added.
    added timestamp
    photo bytes [optional]
    day   date
}
interface S {
    put(item Item, total Money [optional, default={"cents": 0}]) Item
}
`;
    const document = documentOf(idl);
    const item = document.components.schemas.Item;
    expect(item.properties.price).toEqual({ allOf: [{ $ref: '#/components/schemas/Money' }], description: 'The price, tax included.' });
    expect(item.properties.added).toEqual({ type: 'string', format: 'date-time', description: 'When it was added.' });
    expect(item.properties.photo).toEqual({ oneOf: [{ type: 'string', contentEncoding: 'base64' }, { type: 'null' }] });
    expect(item.properties.day).toEqual({ type: 'string', format: 'date' });
    expect(method(document, 'S.put').params[1].schema).toEqual({ allOf: [{ $ref: '#/components/schemas/Money' }], default: { cents: 0 } });
    // No `$ref` with a sibling anywhere in the document.
    const refsWithSiblings: string[] = [];
    JSON.stringify(document, (_key, value) => {
      if (value && typeof value === 'object' && '$ref' in value && Object.keys(value).length > 1)
        refsWithSiblings.push(JSON.stringify(value));
      return value;
    });
    expect(refsWithSiblings).toEqual([]);
  });

  it('writes unions, constraints, defaults and examples as the OpenAPI 3.1 mapping does', () => {
    const idl = `namespace t
struct Card {
    number string [pattern="^[0-9]{16}$"]
}
struct Cash {
    // @example 5
    amount int [min=1, max=100, optional, default=10]
}
union Payment [discriminator=kind] {
    card Card
    cash Cash
}
interface S {
    // @example {"kind": "cash", "amount": 5}
    pay(payment Payment, tags []string [maxItems=3]) Payment
}
`;
    const document = documentOf(idl);
    const schemas = document.components.schemas;
    expect(schemas.Payment.oneOf).toEqual([{ $ref: '#/components/schemas/Payment_card' }, { $ref: '#/components/schemas/Payment_cash' }]);
    expect(schemas.Payment_cash.allOf[1].properties.kind).toEqual({ type: 'string', const: 'cash' });
    expect(schemas.Card.properties.number.pattern).toBe('^[0-9]{16}$');
    expect(schemas.Cash.properties.amount).toMatchObject({
      oneOf: [{ type: 'integer', minimum: 1, maximum: 100 }, { type: 'null' }],
      default: 10,
      examples: [5],
    });
    const pay = method(document, 'S.pay');
    expect(pay.params[1].schema).toEqual({ type: 'array', items: { type: 'string' }, maxItems: 3 });
    expect(pay.result.schema).toEqual({ allOf: [{ $ref: '#/components/schemas/Payment' }], examples: [{ kind: 'cash', amount: 5 }] });
  });

  it('marks a stream method with x-idlrpc-stream; its result is the schema of each item', () => {
    const idl = `namespace t
struct Tick {
    n int
}
interface Clock {
    ticks(every int) stream Tick
    now() Tick
}
`;
    const document = documentOf(idl);
    expect(method(document, 'Clock.ticks')).toMatchObject({
      'x-idlrpc-stream': true,
      result: { name: 'result', schema: { $ref: '#/components/schemas/Tick' }, required: true },
    });
    expect(method(document, 'Clock.now')['x-idlrpc-stream']).toBeUndefined();
  });

  it('marks deprecated and @readonly methods', () => {
    const idl = `namespace t
interface S {
    // @deprecated use b
    a() string
    // @readonly
    b() string
}
// @deprecated
interface Old {
    c() string
}
`;
    const document = documentOf(idl);
    expect(method(document, 'S.a').deprecated).toBe(true);
    expect(method(document, 'S.b').deprecated).toBeUndefined();
    expect(method(document, 'S.b')['x-readonly']).toBe(true);
    expect(method(document, 'Old.c').deprecated).toBe(true);
  });

  it('writes servers only for an absolute address, and warns about a relative one', () => {
    expect(documentOf(shop, { serverUrl: 'https://api.example.com/rpc' }).servers).toEqual([{ url: 'https://api.example.com/rpc' }]);
    const { document, warnings } = idlToOpenRpc(compileIdl(shop, 'test.idl'), { serverUrl: '/rpc' });
    expect(document.servers).toBeUndefined();
    expect(warnings).toEqual([{ pointer: '/servers', message: expect.stringContaining('"/rpc" is not an absolute URI') }]);
  });

  it('names the methods of imported interfaces by their qualified names', () => {
    const file = join(import.meta.dirname, '..', 'idl', 'fixtures', 'multi-file', 'shop.idl');
    const document = idlToOpenRpc(compileIdl(readFileSync(file, 'utf8'), file)).document as Json;
    const names: string[] = document.methods.map((m: Json) => m.name);
    expect(names.some((n) => n.startsWith('inventory.'))).toBe(true);
    for (const name of names) expect(name).toMatch(/^([a-z_]+\.)?[A-Z]\w*\.\w+$/);
  });

  it('writes the playground document as reviewed (test/openrpc/fixtures/checkout.openrpc.json)', async () => {
    const file = join(import.meta.dirname, '..', '..', 'playground', 'checkout.idl');
    const { document, warnings } = idlToOpenRpc(compileIdl(readFileSync(file, 'utf8'), file));
    expect(warnings).toEqual([]);
    await expect(`${JSON.stringify(document, null, 2)}\n`).toMatchFileSnapshot('./fixtures/checkout.openrpc.json');
  });

  it('takes several models: clashing declarations get the namespace as a prefix, a wire name two models share a suffix, with warnings', () => {
    const a = compileIdl('namespace a\nstruct Item {\n    id string\n}\ninterface Store {\n    get() Item\n}\n', 'a.idl');
    const b = compileIdl('namespace b\nstruct Item {\n    n int\n}\ninterface Store {\n    get() Item\n}\n', 'b.idl');
    const { document, warnings } = idlToOpenRpc([a, b]);
    expect(document.methods).toMatchObject([
      { name: 'Store.get', tags: [{ name: 'a_Store' }], result: { schema: { $ref: '#/components/schemas/a_Item' } } },
      { name: 'Store.get_2', tags: [{ name: 'b_Store' }], result: { schema: { $ref: '#/components/schemas/b_Item' } } },
    ]);
    expect(Object.keys((document as Json).components.schemas)).toEqual(['a_Item', 'b_Item']);
    expect(warnings.map((w) => w.pointer)).toEqual([
      '/components/schemas/a_Item',
      '/methods',
      '/components/schemas/b_Item',
      '/methods',
      '/methods/1/name',
    ]);
  });

  it('is deterministic: the same model gives the same text', () => {
    const text = () => JSON.stringify(idlToOpenRpc(compileIdl(shop, 'test.idl')).document);
    expect(text()).toBe(text());
  });
});
