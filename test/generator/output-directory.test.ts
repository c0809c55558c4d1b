/**
 * End to end, for every module style and for checkout.idl, everything.idl and a root importing two
 * other namespaces (test/idl/fixtures/multi-file/shop.idl): `idlrpc -plugin
 * ts-client-server` writes a directory that type-checks with `tsc --strict` and runs with node (a
 * server with simple handlers on a free port and a client calling every method, declared errors
 * included), with code generation from strings disabled.
 */
import path from 'node:path';
import { build } from 'esbuild';
import { describe, expect, test } from 'vitest';
import { checkoutIdl, everythingIdl, freshDir, idlrpc, multiFileIdl, runNode, typeCheck, writeTemplate } from './helpers.js';

const styles = ['esm-node', 'esm-bundler', 'cjs'] as const;
const idls = [
  { name: 'checkout', file: checkoutIdl, harness: 'checkout.harness.ts.txt', methods: 8 },
  { name: 'everything', file: everythingIdl, harness: 'everything.harness.ts.txt', methods: 12 },
  // A root importing two other namespaces: one folder per namespace.
  { name: 'multi-file', file: multiFileIdl, harness: 'multi-file.harness.ts.txt', methods: 5 },
];

describe.each(styles)('idlrpc -ts-module %s', (style) => {
  const suffix = style === 'esm-bundler' ? '' : '.js';

  test.each(idls)('$name: generates, type-checks with tsc --strict and runs client and server with node', async (idl) => {
    const dir = freshDir(`${style}-${idl.name}`);
    const generated = await idlrpc([
      '-plugin',
      'ts-client-server',
      '-dir',
      dir,
      '-ts-module',
      style,
      '-ts-gen-package-json',
      '-ts-gen-tsconfig',
      idl.file,
    ]);
    expect(generated.stderr).toBe('');
    expect(generated.code).toBe(0);

    writeTemplate(idl.harness, dir, 'main.ts', suffix);
    if (idl.name === 'checkout') writeTemplate('checkout.client-types.ts.txt', dir, 'client-types.ts', suffix);
    const checked = typeCheck(dir, style !== 'esm-bundler');
    expect(checked.output).toBe('');
    expect(checked.status).toBe(0);

    let entry = path.join(dir, 'dist/main.js');
    if (style === 'esm-bundler') {
      // Suffix-less imports are for bundlers: bundle, then run the bundle.
      entry = path.join(dir, 'bundle.mjs');
      await build({
        entryPoints: [path.join(dir, 'main.ts')],
        bundle: true,
        platform: 'node',
        format: 'esm',
        outfile: entry,
        logLevel: 'silent',
      });
    }
    const run = runNode(entry);
    expect(run.output).toContain(`HARNESS OK ${idl.name} ${idl.methods} methods`);
    expect(run.status).toBe(0);
  });
});

test('a wrong expectation about a generated client signature fails the type check', async () => {
  const dir = freshDir('wrong-types');
  expect((await idlrpc(['-plugin', 'ts-client-server', '-dir', dir, '-ts-gen-tsconfig', checkoutIdl])).code).toBe(0);
  writeTemplate('checkout.wrong-types.ts.txt', dir, 'wrong-types.ts', '.js');
  const checked = typeCheck(dir, false);
  expect(checked.status).not.toBe(0);
  expect(checked.output).toMatch(/wrong-types\.ts\(6,/);
});
