/**
 * A TypeScript client written by `@open-rpc/generator` (its `client` component) from an OpenRPC
 * document, compiled with esbuild and loaded, for the tests that call servers with it.
 *
 * One thing of the generator's stands between its output and a running client: its template
 * declares each method as a class member named exactly as the method
 * (`public CatalogService.listProducts: ... = ...`), which is not TypeScript when the name holds a
 * dot, as every IDL method name does (`Interface.method`); the same member quoted
 * (`public "CatalogService.listProducts"`) is, and is called as `client["CatalogService.listProducts"]()`.
 * The output imports `@open-rpc/client-js` (its transport), a dev dependency of this repository,
 * so the client runs on the OpenRPC project's own transport.
 */
import { createRequire } from 'node:module';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';

const repositoryRoot = path.resolve(import.meta.dirname, '..', '..');
const require = createRequire(import.meta.url);

/** The generated client class: `new Client({ transport: { type: 'http', host, port, path } })`. */
export type GeneratedClientClass = new (options: {
  transport: { type: 'http'; host: string; port: number; path?: string };
}) => Record<string, (...params: unknown[]) => Promise<unknown>>;

export interface GeneratedClient {
  /** The class the generator wrote, compiled and loaded. */
  Client: GeneratedClientClass;
  /** The TypeScript the generator wrote, as it wrote it. */
  written: string;
}

/** Quotes the method members whose names hold a dot (see above); leaves every other line alone. */
export function quoteDottedMembers(source: string): string {
  return source.replace(/^(\s*public )([A-Za-z_$][\w$]*(?:\.[\w$]+)+)(: )/gm, '$1"$2"$3');
}

/**
 * Runs the generator on `document` in a fresh folder of `test-output/` (inside the repository, so
 * that the compiled client finds lodash and `@open-rpc/schema-utils-js` in its node_modules), then
 * compiles and loads the client.
 */
export async function generatedClient(document: object, prefix: string): Promise<GeneratedClient> {
  const testOutput = path.join(repositoryRoot, 'test-output');
  await mkdir(testOutput, { recursive: true });
  const folder = await mkdtemp(path.join(testOutput, `${prefix}-`));
  const generator = (await import('@open-rpc/generator')) as unknown as { default: GeneratorFunction | { default: GeneratorFunction } };
  const generate = typeof generator.default === 'function' ? generator.default : generator.default.default;
  await generate({
    outDir: folder,
    openrpcDocument: structuredClone(document),
    components: [{ type: 'client', language: 'typescript', name: 'checkout-client' }],
  });
  const source = path.join(folder, 'client', 'typescript', 'src', 'index.ts');
  const written = await readFile(source, 'utf8');
  const compilable = path.join(folder, 'client', 'typescript', 'src', 'quoted.ts');
  await writeFile(compilable, quoteDottedMembers(written));
  const outfile = path.join(folder, 'client.cjs');
  await build({
    entryPoints: [compilable],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    logLevel: 'silent',
    external: ['lodash', '@open-rpc/schema-utils-js'],
  });
  const loaded = require(outfile) as { default: GeneratedClientClass };
  return { Client: loaded.default, written };
}

type GeneratorFunction = (options: { outDir: string; openrpcDocument: object; components: object[] }) => Promise<void>;
