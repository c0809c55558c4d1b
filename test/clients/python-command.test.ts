/**
 * `idlrpc -plugin py-client -dir <out> [-py-package <name>] <file.idl>`: the files it writes (one
 * module per namespace), byte-identical runs, and failing runs that exit non-zero, say why and
 * leave the output directory as it was.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { checkoutIdl, freshDir, idlrpc, multiFileIdl, readTree } from '../generator/helpers.js';

describe('idlrpc -plugin py-client', () => {
  test('writes the package of the checkout IDL, the same bytes on every run', async () => {
    const dir = freshDir('py-client');
    const first = await idlrpc(['-plugin', 'py-client', '-dir', dir, checkoutIdl]);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^Wrote 3 files to .*checkout \(Python package checkout\) from /);
    expect(readdirSync(path.join(dir, 'checkout')).sort()).toEqual(['__init__.py', 'py.typed', 'rpc_runtime.py']);
    const before = readTree(dir);
    expect((await idlrpc(['--plugin=py-client', '--dir', dir, checkoutIdl])).code).toBe(0);
    expect(readTree(dir)).toEqual(before);
    const module = readFileSync(path.join(dir, 'checkout/__init__.py'), 'utf8');
    expect(module).toContain('    def get_product(self, product_id: str) -> Optional[Product]:');
    expect(module).toContain('"CatalogService.getProduct"');
  });

  test('writes one module per namespace of a multi-file IDL, and takes -py-package', async () => {
    const dir = freshDir('py-client-multi');
    expect((await idlrpc(['-plugin', 'py-client', '-dir', dir, '-py-package', 'my_shop', multiFileIdl])).code).toBe(0);
    expect(readdirSync(path.join(dir, 'my_shop')).sort()).toEqual([
      '__init__.py',
      'common.py',
      'inventory.py',
      'py.typed',
      'rpc_runtime.py',
    ]);
    const root = readFileSync(path.join(dir, 'my_shop/__init__.py'), 'utf8');
    expect(root).toContain('from . import common as _ns_common');
    expect(root).toContain('"OrderService.place"');
    expect(readFileSync(path.join(dir, 'my_shop/inventory.py'), 'utf8')).toContain('"inventory.InventoryService.');
  });

  async function expectUntouched(args: string[], message: RegExp, code: number) {
    const dir = freshDir('py-client-failing');
    writeFileSync(path.join(dir, 'notes.txt'), 'mine');
    const before = readTree(dir);
    const result = await idlrpc(['-plugin', 'py-client', '-dir', dir, ...args]);
    expect(result.stderr).toMatch(message);
    expect(result.code).toBe(code);
    expect(readTree(dir)).toEqual(before);
  }

  test('bad IDL, a package name Python cannot import, a TypeScript flag', async () => {
    const bad = path.join(freshDir('py-client-bad-idl'), 'bad.idl');
    writeFileSync(bad, 'namespace bad\n\nstruct A {\n    b Missing\n}\n');
    await expectUntouched([bad], /bad\.idl:4:7: error: .*Missing/, 1);
    await expectUntouched(['-py-package', 'class', checkoutIdl], /-py-package 'class' is not a Python package name/, 2);
    await expectUntouched(['-ts-module', 'cjs', checkoutIdl], /unknown flag -ts-module/, 2);
  });
});
