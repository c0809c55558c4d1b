/**
 * From TypeScript back to the IDL: the plugin and `idlrpc -dts` write `checkout.idl.d.ts.map`
 * beside the `.d.ts`, and "Go to Definition" in the language service editors run (tsserver) lands
 * on the IDL line and column of a client method, a struct field, an enum value and a declared
 * error class.
 */
import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { buildWith } from './harness/bundlers.js';
import { runDts } from './harness/cli.js';
import { startTsServer, type TsLocation, type TsServer } from './harness/tsserver.js';
import { checkoutIdlFile, freshDir } from './harness/workspace.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

/** Code using each kind of generated name once; each use is found by the text around it. */
const MAIN_TS = `import { HttpTransport } from 'unplugin-idl-rpc/runtime/client';
import { CartServiceClient, OrderStatus, OutOfStockError, type Cart } from './checkout.idl';

const carts = new CartServiceClient(new HttpTransport('/rpc'));

export async function addOne(cart: Cart): Promise<number> {
  const updated = await carts.addToCart({ cartId: cart.cartId, productId: 'p-1', quantity: 1 });
  return updated.subtotal;
}

export const paid = OrderStatus.paid;

export function isOutOfStock(error: unknown): boolean {
  return error instanceof OutOfStockError;
}
`;

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'ESNext',
    moduleResolution: 'bundler',
    strict: true,
    noEmit: true,
    allowArbitraryExtensions: true,
    types: [],
  },
  include: ['*.ts'],
};

/** The 1-based line and column of the first match of `pattern` in `text` (of its group 1 when it has one). */
function locate(text: string, pattern: RegExp): TsLocation {
  const match = pattern.exec(text);
  if (!match) throw new Error(`${pattern} not found`);
  const offset = match.index + (match[1] === undefined ? 0 : match[0].indexOf(match[1]));
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, offset: before.at(-1)!.length + 1 };
}

async function writeApp(name: string): Promise<string> {
  const dir = await freshDir(name);
  await writeFile(path.join(dir, 'checkout.idl'), await readFile(checkoutIdlFile, 'utf8'));
  await writeFile(path.join(dir, 'main.ts'), MAIN_TS);
  await writeFile(path.join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
  return dir;
}

describe('the declaration map the plugin writes', () => {
  let app: string;
  let tsserver: TsServer;
  const idl = readFile(checkoutIdlFile, 'utf8');

  beforeAll(async () => {
    app = await writeApp('declaration-map');
    await buildWith('esbuild', { root: app, entry: 'main.ts', outDir: path.join(app, 'out') });
    tsserver = startTsServer();
    tsserver.open(path.join(app, 'main.ts'));
  });
  afterAll(() => tsserver?.close());

  test('is linked from the .d.ts and names the .idl as its source', async () => {
    const dts = await readFile(path.join(app, 'checkout.idl.d.ts'), 'utf8');
    expect(dts.endsWith('\n//# sourceMappingURL=checkout.idl.d.ts.map\n')).toBe(true);
    const map = JSON.parse(await readFile(path.join(app, 'checkout.idl.d.ts.map'), 'utf8'));
    expect(map).toMatchObject({ version: 3, file: 'checkout.idl.d.ts', sources: ['checkout.idl'] });
  });

  test.each([
    ['a client method', /carts\.(addToCart)\(/, /^\s+(addToCart)\(/m],
    ['a struct field', /updated\.(subtotal)/, /^\s+(subtotal)\s+float/m],
    ['an enum value', /OrderStatus\.(paid)/, /^\s+(paid)$/m],
    ['a declared error class', /instanceof (OutOfStockError)/, /^\s+1004 (OutOfStock)\s/m],
    ['a client class', /new (CartServiceClient)\(/, /^interface (CartService) \{/m],
    ['a struct', /type (Cart) \}/, /^struct (Cart) \{/m],
  ])('"Go to Definition" on %s lands on its name in checkout.idl', async (_kind, use, declaration) => {
    const definitions = await tsserver.definition(path.join(app, 'main.ts'), locate(MAIN_TS, use));
    const expected = locate(await idl, declaration);
    expect(definitions).toContainEqual(expect.objectContaining({ file: path.join(app, 'checkout.idl'), start: expected }));
  });

  test('is rewritten only when its content changes (no rebuild loop in watch mode)', async () => {
    const mapFile = path.join(app, 'checkout.idl.d.ts.map');
    const before = await stat(mapFile);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await buildWith('esbuild', { root: app, entry: 'main.ts', outDir: path.join(app, 'out') });
    expect((await stat(mapFile)).mtimeMs).toBe(before.mtimeMs);

    const idlFile = path.join(app, 'checkout.idl');
    await writeFile(idlFile, `// A new first line moves every declaration down.\n${await readFile(idlFile, 'utf8')}`);
    await buildWith('esbuild', { root: app, entry: 'main.ts', outDir: path.join(app, 'out') });
    expect((await stat(mapFile)).mtimeMs).toBeGreaterThan(before.mtimeMs);
  });

  test('declarationMap: false writes the .d.ts alone, with no link', async () => {
    const dir = await writeApp('declaration-map-off');
    await buildWith('esbuild', { root: dir, entry: 'main.ts', outDir: path.join(dir, 'out'), plugin: { declarationMap: false } });
    expect(await readFile(path.join(dir, 'checkout.idl.d.ts'), 'utf8')).not.toContain('sourceMappingURL');
    await expect(stat(path.join(dir, 'checkout.idl.d.ts.map'))).rejects.toThrow(/ENOENT/);
  });
});

describe('idlrpc -dts', () => {
  test('writes the same .d.ts and map as the plugin; -check sees a stale map; -no-map writes none', async () => {
    const viaPlugin = await writeApp('declaration-map-plugin');
    await buildWith('esbuild', { root: viaPlugin, entry: 'main.ts', outDir: path.join(viaPlugin, 'out') });
    const viaCli = await writeApp('declaration-map-cli');
    const run = await runDts(['checkout.idl'], viaCli);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toContain('checkout.idl.d.ts.map: written');
    for (const file of ['checkout.idl.d.ts', 'checkout.idl.d.ts.map']) {
      expect(await readFile(path.join(viaCli, file), 'utf8')).toBe(await readFile(path.join(viaPlugin, file), 'utf8'));
    }
    expect((await runDts(['-check', 'checkout.idl'], viaCli)).code).toBe(0);
    await writeFile(path.join(viaCli, 'checkout.idl.d.ts.map'), '{}');
    const stale = await runDts(['-check', 'checkout.idl'], viaCli);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain('checkout.idl.d.ts.map');

    const noMap = await writeApp('declaration-map-cli-off');
    expect((await runDts(['-no-map', 'checkout.idl'], noMap)).code).toBe(0);
    expect(await readFile(path.join(noMap, 'checkout.idl.d.ts'), 'utf8')).not.toContain('sourceMappingURL');
    await expect(stat(path.join(noMap, 'checkout.idl.d.ts.map'))).rejects.toThrow(/ENOENT/);
  });
});
