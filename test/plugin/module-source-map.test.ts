/**
 * The JavaScript module the plugin serves carries a source map into the `.idl`: a position in the
 * module Vite's dev server serves maps back to the IDL line (what browser devtools show), a bundle
 * built with source maps names `checkout.idl` among its sources, and a Node stack trace through a
 * generated client method points at the IDL method.
 */
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { SourceMap, type SourceMapPayload } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import idlRpcEsbuild from '../../src/plugin/esbuild.js';
import idlRpcVite from '../../src/plugin/vite.js';
import { aroundEsbuildHooks } from './harness/esbuild-hooks.js';
import { startViteDevServer } from './harness/vite-dev.js';
import { checkoutIdlFile, freshDir } from './harness/workspace.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const idlLines = (await readFile(checkoutIdlFile, 'utf8')).split('\n');
/** The 0-based line of the IDL method `name`. */
const methodLine = (name: string) => idlLines.findIndex((line) => line.trimStart().startsWith(`${name}(`));

/** The 0-based line and column of the first `needle` in `text`. */
function positionIn(text: string, needle: string): { line: number; column: number } {
  const offset = text.indexOf(needle);
  if (offset === -1) throw new Error(`${needle} not found`);
  const before = text.slice(0, offset).split('\n');
  return { line: before.length - 1, column: before.at(-1)!.length };
}

async function appWithIdl(name: string): Promise<string> {
  const dir = await freshDir(name);
  await writeFile(path.join(dir, 'checkout.idl'), await readFile(checkoutIdlFile, 'utf8'));
  return dir;
}

describe('in the Vite dev server', () => {
  let app: string;
  let dev: Awaited<ReturnType<typeof startViteDevServer>>;

  beforeAll(async () => {
    app = await appWithIdl('module-source-map-vite');
    await writeFile(path.join(app, 'index.html'), '<script type="module" src="./checkout.idl"></script>\n');
    dev = await startViteDevServer(app);
  });
  afterAll(() => dev?.server.close());

  test('a position in the served module maps back to its IDL line', async () => {
    const served = await (await fetch(`${dev.base}/checkout.idl?import`)).text();
    const inline = /\/\/# sourceMappingURL=data:application\/json;base64,(\S+)\s*$/.exec(served);
    expect(inline, 'the served module has an inline source map').not.toBeNull();
    const map = new SourceMap(JSON.parse(Buffer.from(inline![1], 'base64').toString()) as SourceMapPayload);
    expect(map.payload.sourcesContent?.some((text) => text?.includes('interface CartService'))).toBe(true);

    for (const method of ['addToCart', 'getOrder']) {
      const { line, column } = positionIn(served, `  ${method}(`);
      const entry = map.findEntry(line, column + 2);
      expect(entry).toMatchObject({ originalLine: methodLine(method), originalColumn: 4 });
      expect('originalSource' in entry && entry.originalSource).toMatch(/checkout\.idl$/);
    }
  });
});

describe('in a bundle', () => {
  test('a Node stack trace through a client method points at the IDL method', async () => {
    const app = await appWithIdl('module-source-map-node');
    await writeFile(
      path.join(app, 'main.js'),
      [
        "import { CartServiceClient } from './checkout.idl';",
        'const failing = { call() { throw new Error("the transport failed"); } };',
        "await new CartServiceClient(failing).addToCart({ productId: 'p-1', quantity: 1 });",
        '',
      ].join('\n'),
    );
    const { build } = await import('esbuild');
    const outfile = path.join(app, 'out/app.mjs');
    await build({
      entryPoints: [path.join(app, 'main.js')],
      bundle: true,
      format: 'esm',
      platform: 'node',
      sourcemap: true,
      outfile,
      logLevel: 'silent',
      plugins: [idlRpcEsbuild()],
    });
    const map = JSON.parse(await readFile(`${outfile}.map`, 'utf8')) as { sources: string[] };
    expect(map.sources).toContain('../checkout.idl');

    const run = await promisify(execFile)(process.execPath, ['--enable-source-maps', outfile]).catch((error: { stderr: string }) => error);
    expect(run.stderr).toContain('the transport failed');
    expect(run.stderr).toContain(`checkout.idl:${methodLine('addToCart') + 1}:5`);
  });

  test('vite build is handed the module with its map only when it writes source maps', async () => {
    const app = await appWithIdl('module-source-map-vite-option');
    await writeFile(path.join(app, 'main.js'), "export { CartServiceClient } from './checkout.idl';\n");
    const { build } = await import('vite');
    const handedOver = async (sourcemap: boolean): Promise<unknown[]> => {
      const plugin = idlRpcVite();
      const load = plugin.load as { filter: unknown; handler: (...args: unknown[]) => Promise<{ map?: unknown } | null> };
      const maps: unknown[] = [];
      plugin.load = {
        filter: load.filter,
        async handler(...args: unknown[]) {
          const result = await load.handler.apply(this, args);
          if (result) maps.push(result.map);
          return result;
        },
      } as typeof plugin.load;
      await build({
        configFile: false,
        root: app,
        logLevel: 'silent',
        plugins: [plugin],
        build: { outDir: path.join(app, `out-vite-${sourcemap}`), sourcemap, lib: { entry: path.join(app, 'main.js'), formats: ['es'] } },
      });
      return maps;
    };
    const withMaps = await handedOver(true);
    expect(withMaps).toHaveLength(1);
    expect((withMaps[0] as { sources: string[] }).sources).toEqual([expect.stringMatching(/checkout\.idl$/)]);
    expect(await handedOver(false)).toEqual([null]);
  });

  test('esbuild is handed the module with its map only when it writes source maps', async () => {
    const app = await appWithIdl('module-source-map-esbuild-option');
    await writeFile(path.join(app, 'main.js'), "export { CartServiceClient } from './checkout.idl';\n");
    const { build } = await import('esbuild');
    const handedOver = async (sourcemap: boolean): Promise<string> => {
      const contents: string[] = [];
      const plugin = aroundEsbuildHooks(idlRpcEsbuild(), {
        loaded: (args, result) => {
          // The first .idl of a bundling build comes through a facade first (esbuild-module-facade.ts).
          if (args.namespace !== 'idl-rpc-facade' && args.path.endsWith('checkout.idl') && typeof result?.contents === 'string')
            contents.push(result.contents);
        },
      });
      const outfile = path.join(app, `out-${sourcemap}/app.mjs`);
      await build({
        entryPoints: [path.join(app, 'main.js')],
        bundle: true,
        format: 'esm',
        sourcemap,
        outfile,
        logLevel: 'silent',
        plugins: [plugin],
      });
      expect(contents).toHaveLength(1);
      return contents[0];
    };
    const inlineMap = /\/\/# sourceMappingURL=data:application\/json;[^\n]*base64,/;
    expect(await handedOver(true)).toMatch(inlineMap);
    const withoutMaps = await handedOver(false);
    expect(withoutMaps).toContain('class CartServiceClient');
    expect(withoutMaps).not.toMatch(inlineMap);
  });
});
