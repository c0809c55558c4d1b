/**
 * The package installed by pnpm, which gives an app only its own dependencies: `@sinclair/typebox`
 * sits below this package, not where the app can resolve it. The `.idl.d.ts` it writes must name
 * nothing the app cannot resolve, or `tsc` fails (TS2307 with `skipLibCheck: false`) or, worse,
 * silently types the schemas `any`. The tarball and TypeScript are installed with pnpm from the
 * registry into an empty app (a store of its own in the temporary folder); about 10 seconds.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../cli/run-cli.js';
import { tempFolder } from '../hostile/harness.js';
import { packPackage } from './pack.js';

const run = promisify(execFile);
const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
  name: string;
  devDependencies: Record<string, string>;
};
const pnpm = join(REPO_ROOT, 'node_modules/.bin/pnpm');

const project = tempFolder('idlrpc-pnpm-');
const app = join(project.dir, 'app');

const SHOP_IDL = `namespace shop

struct Product {
    id     string
    price  float
    tags   []string
}

errors {
    1001 NotFound "no such product"
}

interface Catalog {
    get(id string) Product raises(NotFound)
}
`;

/** Uses the declarations: a schema must be a `TSchema`, not `any` (the expected error proves it). */
const APP_TS = `import type { TSchema } from '${manifest.name}/runtime/core';
import { CatalogClient, NotFoundError, ProductSchema, type Product } from './shop.idl';

export const schema: TSchema = ProductSchema;
// @ts-expect-error a schema is not a number (were TSchema unresolved, ProductSchema would be any)
export const notANumber: number = ProductSchema;
export const price = (product: Product): number => product.price;
export const parts = [CatalogClient, NotFoundError];
`;

beforeAll(async () => {
  const filename = basename(await packPackage(project.dir));
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'pnpm-user', version: '1.0.0', type: 'module', private: true }));
  await run(
    pnpm,
    [
      'add',
      `../${filename}`,
      `typescript@${manifest.devDependencies.typescript}`,
      '--store-dir',
      join(project.dir, 'store'),
      '--reporter=silent',
    ],
    { cwd: app, timeout: 300_000 },
  );
  writeFileSync(join(app, 'shop.idl'), SHOP_IDL);
  writeFileSync(join(app, 'app.ts'), APP_TS);
  const compilerOptions = {
    target: 'ES2022',
    // A bundler app, as the plugin's users write it (TypeScript finds `shop.idl.d.ts` for './shop.idl').
    module: 'ESNext',
    moduleResolution: 'Bundler',
    lib: ['ES2022', 'DOM'],
    types: [],
    strict: true,
    skipLibCheck: false,
    noEmit: true,
  };
  writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['app.ts'] }));
}, 400_000);

afterAll(() => project.remove());

describe('the package installed by pnpm', () => {
  it('does not let the app resolve TypeBox itself (what the test is about)', () => {
    expect(existsSync(join(app, 'node_modules', manifest.name))).toBe(true);
    expect(existsSync(join(app, 'node_modules/@sinclair/typebox'))).toBe(false);
  });

  it('writes an .idl.d.ts that passes tsc --strict with skipLibCheck false', async () => {
    await run(join(app, 'node_modules/.bin/idlrpc'), ['-dts', 'shop.idl'], { cwd: app, timeout: 60_000 });
    const checked = await run(join(app, 'node_modules/.bin/tsc'), ['-p', '.'], { cwd: app, timeout: 120_000 }).then(
      (result) => ({ code: 0, output: `${result.stdout}${result.stderr}` }),
      (error: { code?: number; stdout?: string; stderr?: string }) => ({ code: error.code, output: `${error.stdout}${error.stderr}` }),
    );
    expect(checked.output).toBe('');
    expect(checked.code).toBe(0);
    expect(readFileSync(join(app, 'shop.idl.d.ts'), 'utf8')).not.toContain('@sinclair/typebox');
  }, 180_000);
});
