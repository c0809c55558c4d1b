/**
 * A client method's type names its declared errors by IDL name (for `settle`); errors of two
 * namespaces that share a name become one kind whose error is either class (two keys of one name
 * would not compile).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { compileIdlSource } from '../../src/codegen/idl-module.js';

test('errors of two namespaces with one name share a kind in the RpcPromise type', () => {
  const dir = path.join(import.meta.dirname, '../../test-output/generator/declared-errors-type');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'common.idl'), 'namespace common\n\nerrors {\n    3001 NotFound "not found"\n}\n');
  const shop = [
    'namespace shop',
    '',
    'import "common.idl"',
    '',
    'errors {',
    '    4001 NotFound "no such shop"',
    '    4002 Closed   "closed"',
    '}',
    '',
    'interface ShopService {',
    '    open(shopId string) bool raises(common.NotFound, NotFound, Closed)',
    '}',
    '',
  ].join('\n');
  writeFileSync(path.join(dir, 'shop.idl'), shop);
  const { dts } = compileIdlSource(shop, path.join(dir, 'shop.idl'));
  expect(dts).toContain('RpcPromise<boolean, { NotFound: common.NotFoundError | NotFoundError; Closed: ClosedError }>');
});
