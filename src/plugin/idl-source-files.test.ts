import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { IdlSourceFiles } from './idl-source-files.js';

const root = path.resolve('/project/src');
const shop = path.join(root, 'shop.idl');
const orders = path.join(root, 'orders.idl');
const common = path.join(root, 'common.idl');

describe('IdlSourceFiles', () => {
  it("finds every module whose latest load read a file, but not the file's own module", () => {
    const files = new IdlSourceFiles();
    files.record(shop, [shop, common]);
    files.record(orders, [orders, common]);
    files.record(common, [common]);
    expect(files.modulesImporting(common).sort()).toEqual([orders, shop].sort());
    expect(files.modulesImporting(shop)).toEqual([]);
  });

  it('keeps only the latest load of a module: an import removed no longer counts', () => {
    const files = new IdlSourceFiles();
    files.record(shop, [shop, common]);
    files.record(shop, [shop]);
    expect(files.modulesImporting(common)).toEqual([]);
    expect(files.filesOf(shop)).toEqual([shop]);
  });

  it('compares resolved paths, so a path with `..` names the same file', () => {
    const files = new IdlSourceFiles();
    files.record(shop, [shop, path.join(root, 'nested', '..', 'common.idl')]);
    expect(files.modulesImporting(common)).toEqual([shop]);
    expect(files.filesOf(path.join(root, '.', 'shop.idl'))).toEqual([shop, common]);
    expect(files.filesOf(orders)).toBeUndefined();
  });
});
