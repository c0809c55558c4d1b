/**
 * IDL -> OpenAPI for IDL files that import others (docs/openapi.md, "Several IDL files"): imported
 * declarations keep their qualified names as component names, paths and tags; operationIds are
 * valid and unique; the declared errors of an imported namespace are 422 codes; and several models
 * of which one imports another, or two import the same file, describe each declaration once.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileIdl } from '../../src/idl/compile.js';
import type { IdlModel } from '../../src/idl/model.js';
import { idlToOpenApi, type OpenApiVersion } from '../../src/openapi/index.js';
import { openApiAsset } from '../../src/plugin/openapi-asset.js';
import { resolveOptions } from '../../src/plugin/options.js';
import { memoryHost } from '../idl/memory-host.js';
import { strictProblems } from './helpers.js';

const fixtures = join(import.meta.dirname, '..', 'idl', 'fixtures', 'multi-file');
const versions: OpenApiVersion[] = ['3.1', '3.0'];

type Json = Record<string, any>;

/** The checked model of a fixture file, compiled with the files it imports (read from disk). */
function fixtureModel(name: string): IdlModel {
  const file = join(fixtures, name);
  return compileIdl(readFileSync(file, 'utf8'), file);
}

/** Models of files in memory (each compiled as its own root, as a bundler loads each `.idl`). */
function memoryModels(files: Record<string, string>, roots: string[]): IdlModel[] {
  return roots.map((root) => compileIdl(files[root], root, { host: memoryHost(files) }));
}

describe.each(versions)('the document of shop.idl, which imports common.idl and inventory.idl (OpenAPI %s)', (version) => {
  const { document, warnings } = idlToOpenApi([fixtureModel('shop.idl')], { version });
  const json = document as Json;
  const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });

  it('passes strict validation (Redocly recommended-strict, @readme/openapi-parser), without warnings', async () => {
    expect(warnings).toEqual([]);
    expect(await strictProblems(document)).toEqual([]);
  });

  it('names imported types as the IDL does, the root file first, each file in source order', () => {
    expect(Object.keys(json.components.schemas)).toEqual([
      'OrderLine',
      'Order',
      ...(version === '3.0' ? ['OrderNullable'] : []),
      'common.Money',
      'common.Currency',
      'common.Page',
      'inventory.Stock',
      'inventory.ReservableStock',
      'RpcError',
    ]);
    const schemas = json.components.schemas;
    expect(schemas['common.Money'].properties.currency).toEqual(schemaRef('common.Currency'));
    expect(schemas['inventory.Stock'].properties.price).toEqual(schemaRef('common.Money'));
    expect(schemas['inventory.ReservableStock'].allOf[0]).toEqual(schemaRef('inventory.Stock'));
    expect(schemas.OrderLine.properties.stock).toEqual(schemaRef('inventory.Stock'));
  });

  it('serves an imported interface under its qualified name; operationIds have no dot', () => {
    const operations = Object.entries(json.paths).map(([path, item]) => [path, (item as Json).post.operationId, (item as Json).post.tags]);
    expect(operations).toEqual([
      ['/OrderService/place', 'OrderService_place', ['OrderService']],
      ['/OrderService/find', 'OrderService_find', ['OrderService']],
      ['/OrderService/totals', 'OrderService_totals', ['OrderService']],
      ['/inventory.InventoryService/getStock', 'inventory_InventoryService_getStock', ['inventory.InventoryService']],
      ['/inventory.InventoryService/list', 'inventory_InventoryService_list', ['inventory.InventoryService']],
    ]);
    expect(json.tags.map((tag: Json) => tag.name)).toEqual(['OrderService', 'inventory.InventoryService']);
    const list = json.paths['/inventory.InventoryService/list'].post;
    expect(list.requestBody.content['application/json'].schema.properties.page).toEqual(schemaRef('common.Page'));
    expect(list.responses['200'].content['application/json'].schema).toEqual({
      type: 'array',
      items: schemaRef('inventory.ReservableStock'),
    });
  });

  it('declares the codes of imported errors under 422, and lists every error once with its name', () => {
    const declaredCodes = (path: string) =>
      json.paths[path].post.responses['422'].content['application/json'].schema.allOf[1].properties.code.enum;
    expect(declaredCodes('/inventory.InventoryService/getStock')).toEqual([3001]);
    expect(declaredCodes('/OrderService/place')).toEqual([3001, 4001]);
    expect(json.paths['/OrderService/place'].post['x-idl-raises']).toEqual(['common.NotFound', 'OutOfStock']);
    expect(json.paths['/OrderService/find'].post.responses['422']).toBeUndefined();
    expect(json['x-idl-errors'].map((error: Json) => [error.name, error.code])).toEqual([
      ['OutOfStock', 4001],
      ['common.NotFound', 3001],
      ['common.Invalid', 3002],
    ]);
  });

  it('names the imported namespaces in info', () => {
    expect(json.info.title).toBe('Shop');
    expect(json.info['x-idl-namespace']).toBe('shop');
    expect(json.info.description).toBe('Namespace: shop\nImported namespaces: common, inventory\nInterfaces: 2\nStructs: 6\nEnums: 1');
  });
});

describe('several models, one importing another', () => {
  it('leaves out a model whose file another model imports: the importer describes it', () => {
    const alone = idlToOpenApi([fixtureModel('shop.idl')]);
    const all = idlToOpenApi([fixtureModel('inventory.idl'), fixtureModel('common.idl'), fixtureModel('shop.idl')]);
    expect(all).toEqual(alone);
  });

  it("the plugin's document is the same whichever of the three files the build loaded besides shop.idl", () => {
    const options = resolveOptions({ openapi: {} }).openapi;
    if (!options) throw new Error('openapi option expected');
    const expected = openApiAsset([fixtureModel('shop.idl')], options);
    for (const others of [['common.idl'], ['inventory.idl'], ['inventory.idl', 'common.idl']]) {
      const models = [...others.map(fixtureModel), fixtureModel('shop.idl')];
      expect(openApiAsset(models, options)).toEqual(expected);
    }
    // Without shop.idl, inventory.idl describes common.idl: its own names stay plain.
    const inventory = JSON.parse(openApiAsset([fixtureModel('common.idl'), fixtureModel('inventory.idl')], options).source) as Json;
    expect(Object.keys(inventory.paths)).toEqual(['/InventoryService/getStock', '/InventoryService/list']);
    expect(Object.keys(inventory.components.schemas)).toEqual([
      'Stock',
      'ReservableStock',
      'common.Money',
      'common.Currency',
      'common.Page',
      'RpcError',
    ]);
  });

  it('describes a file that two models import once, without warnings', async () => {
    const files = {
      'common.idl': 'namespace common\nstruct Money {\n    amount int\n}\nerrors {\n    3001 NotFound "not found"\n}\n',
      'shop.idl': 'namespace shop\nimport "common.idl"\ninterface Shop {\n    price(sku string) common.Money raises(common.NotFound)\n}\n',
      'billing.idl': 'namespace billing\nimport "common.idl"\ninterface Billing {\n    total(id string) common.Money\n}\n',
    };
    const { document, warnings } = idlToOpenApi(memoryModels(files, ['shop.idl', 'billing.idl']));
    const json = document as Json;
    expect(warnings).toEqual([]);
    expect(Object.keys(json.components.schemas)).toEqual(['common.Money', 'RpcError']);
    expect(Object.keys(json.paths)).toEqual(['/Shop/price', '/Billing/total']);
    expect(json['x-idl-errors']).toEqual([{ code: 3001, name: 'common.NotFound', message: 'not found' }]);
    expect(await strictProblems(document)).toEqual([]);
  });

  it('prefixes different declarations of one qualified name, as for bare names; a shared one keeps one name', async () => {
    const files = {
      'a/common.idl': 'namespace common\nstruct Money {\n    amount int\n}\n',
      'b/common.idl': 'namespace common\nstruct Money {\n    cents int\n}\n',
      'a/shop.idl': 'namespace shop\nimport "common.idl"\ninterface Shop {\n    price() common.Money\n}\n',
      'a/billing.idl': 'namespace billing\nimport "common.idl"\ninterface Billing {\n    total() common.Money\n}\n',
      'b/depot.idl': 'namespace depot\nimport "common.idl"\ninterface Depot {\n    value() common.Money\n}\n',
    };
    const { document, warnings } = idlToOpenApi(memoryModels(files, ['a/shop.idl', 'a/billing.idl', 'b/depot.idl']));
    const json = document as Json;
    const result = (path: string) => json.paths[path].post.responses['200'].content['application/json'].schema;
    expect(Object.keys(json.components.schemas)).toEqual(['shop_common.Money', 'depot_common.Money', 'RpcError']);
    expect(result('/Shop/price')).toEqual({ $ref: '#/components/schemas/shop_common.Money' });
    expect(result('/Billing/total')).toEqual({ $ref: '#/components/schemas/shop_common.Money' });
    expect(result('/Depot/value')).toEqual({ $ref: '#/components/schemas/depot_common.Money' });
    expect(warnings.map((w) => w.message)).toEqual([
      'type common.Money is declared in several namespaces; namespace shop writes it as shop_common.Money',
      'type common.Money is declared in several namespaces; namespace depot writes it as depot_common.Money',
    ]);
    expect(await strictProblems(document)).toEqual([]);
  });
});

it('keeps operationIds unique when a plain interface name spells a qualified one with `_`', async () => {
  const files = {
    'root.idl': 'namespace root\nimport "inventory.idl"\ninterface inventory_InventoryService {\n    getStock() int\n}\n',
    'inventory.idl': 'namespace inventory\ninterface InventoryService {\n    getStock() int\n}\n',
  };
  const { document, warnings } = idlToOpenApi(memoryModels(files, ['root.idl']));
  const json = document as Json;
  expect(Object.values(json.paths).map((item) => (item as Json).post.operationId)).toEqual([
    'inventory_InventoryService_getStock',
    'inventory_InventoryService_getStock_2',
  ]);
  expect(warnings).toEqual([
    {
      pointer: '/paths/~1inventory.InventoryService~1getStock/post/operationId',
      message: 'operationId inventory_InventoryService_getStock is taken; this operation is inventory_InventoryService_getStock_2',
    },
  ]);
  expect(await strictProblems(document)).toEqual([]);
});
