/**
 * examples/generator-output: the generator's output directory used from your own code, in an ES
 * module project (`esm`) and a CommonJS one (`cjs`, `-ts-module cjs`, no top-level await). As the
 * README says: the package.json `generate` script writes gen/, `tsc -p .` with the example's
 * tsconfig compiles src/ and gen/ together, `node dist/src/server.js` serves, and the user's client
 * (`node dist/src/client.js <address>`) and a plain JSON-RPC request get the right answers.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, test, vi } from 'vitest';
import { BIN, ensureBuilt, REPO_ROOT } from '../cli/run-cli.js';
import { copyExample, postJson, run, startServer, TSC } from './harness.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

interface Manifest {
  type: string;
  version?: string;
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}

async function manifest(folder: string): Promise<Manifest> {
  return JSON.parse(await readFile(path.join(folder, 'package.json'), 'utf8')) as Manifest;
}

beforeAll(() => ensureBuilt());

describe.each([
  { variant: 'esm', type: 'module', style: 'esm-node' },
  { variant: 'cjs', type: 'commonjs', style: 'cjs' },
])('$variant', ({ variant, type, style }) => {
  test('generates gen/, compiles it with the user code, serves and answers the user client', async () => {
    const example = await copyExample(`generator-output/${variant}`, `generator-output-${variant}`);
    const scripts = (await manifest(example)).scripts;

    // `npm run generate`, with the idlrpc of this repository's build.
    const [command, ...generateArgs] = scripts.generate.split(' ');
    expect(command).toBe('idlrpc');
    const generated = await run(process.execPath, [BIN, ...generateArgs], example);
    expect(generated.output).toMatch(new RegExp(`^Wrote \\d+ files to gen \\(${style}\\) from shop\\.idl\\n$`));
    expect(generated.code).toBe(0);
    expect(existsSync(path.join(example, 'gen/index.ts'))).toBe(true);

    expect(scripts.build).toContain('tsc -p .');
    const compiled = await run(TSC, ['-p', '.'], example);
    expect(compiled.output).toBe('');
    expect(compiled.code).toBe(0);
    const serverJs = await readFile(path.join(example, 'dist/src/server.js'), 'utf8');
    if (type === 'commonjs') expect(serverJs).toContain('require("../gen/index.js")');
    else expect(serverJs).toContain(`from '../gen/index.js'`);

    expect(scripts.start).toBe('node dist/src/server.js');
    const server = await startServer('dist/src/server.js', example);
    try {
      const client = await run(process.execPath, ['dist/src/client.js', server.baseUrl], example);
      expect(client).toEqual({
        code: 0,
        output: 'products: sencha, espresso\nplaced order-1, total 15\ndeclared error 2001: UnknownProduct: matcha\n',
      });

      const product = await postJson(`${server.baseUrl}/`, { jsonrpc: '2.0', id: 1, method: 'ShopService.getProduct', params: ['sencha'] });
      expect(product.body).toEqual({
        jsonrpc: '2.0',
        id: 1,
        result: { productId: 'sencha', name: 'Sencha, 100 g', category: 'tea', price: 7.5 },
      });
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  test('package.json says the module type and pins the versions this package uses', async () => {
    const example = path.join(REPO_ROOT, 'examples/generator-output', variant);
    const own = await manifest(REPO_ROOT);
    const pins = await manifest(example);
    expect(pins.type).toBe(type);
    expect(pins.dependencies).toEqual({ '@sinclair/typebox': own.dependencies['@sinclair/typebox'] });
    expect(pins.devDependencies).toEqual({
      '@types/node': own.devDependencies['@types/node'],
      typescript: own.devDependencies.typescript,
      'unplugin-idl-rpc': own.version,
    });
  });
});
