/**
 * The plugin's one way to the compiler, which it loads on first use (compiler-part-loader.ts): making a
 * plugin (which every bundler process and dev-server start does) loads only the plugin's shell, and
 * the compiler, the generators, TypeBox and the OpenAPI converter (with yaml) load when the first
 * `.idl` is compiled or the first openapi.json is built (test/plugin/start-up.test.ts). Compiled
 * modules go through the compile cache (compile-cache.ts), which loads the compiler only on a miss;
 * the documents of a build or the dev server through the document cache (document-cache.ts), which
 * loads the converters only on a miss.
 */
import type { IdlModel } from '../idl/model.js';
import { type CachedIdlModule, compileIdlFileCached } from './compile-cache.js';
import { loadCompilerPart } from './compiler-part-loader.js';
import type { DeferredDiskWrites } from './deferred-disk-writes.js';
import { cachedDocument } from './document-cache.js';
import type { OpenApiAsset } from './openapi-asset.js';
import type { ResolvedOpenApiOptions, ResolvedOpenRpcOptions } from './options.js';
import { compileWhenSettled, diskProbe } from './settled-compile.js';

export type { CachedIdlModule } from './compile-cache.js';

/**
 * Reads and compiles an `.idl` file with the files it imports, or takes it from the compile cache
 * (in memory, and in `cacheFolder` when given); throws `IdlModuleError` for a broken file and
 * `IdlFileReadError` for one that is not a regular file or is larger than `maxBytes`. A compile
 * that read a file while it was being written runs again once it holds still (settled-compile.ts).
 * `deferredWrites` puts a new disk entry off until the file holds still (the dev server);
 * `hostTakesParts`: a large module may come in parts (module-parts.ts).
 */
export function compileIdlFile(
  file: string,
  maxBytes: number,
  cacheFolder: string | undefined,
  deferredWrites?: DeferredDiskWrites,
  hostTakesParts = false,
): Promise<CachedIdlModule> {
  return compileWhenSettled(() => compileIdlFileCached(file, maxBytes, cacheFolder, deferredWrites, hostTakesParts), diskProbe(maxBytes));
}

/** The openapi.json of the given models (see openapi-asset.ts). */
export async function openApiAsset(models: Iterable<IdlModel>, options: Omit<ResolvedOpenApiOptions, 'fileName'>): Promise<OpenApiAsset> {
  const { openApiAsset: build } = await loadCompilerPart();
  return build(models, options);
}

/** The openrpc.json of the given models (see openrpc-asset.ts). */
export async function openRpcAsset(models: Iterable<IdlModel>, options: Omit<ResolvedOpenRpcOptions, 'fileName'>): Promise<OpenApiAsset> {
  const { openRpcAsset: build } = await loadCompilerPart();
  return build(models, options);
}

/** The openapi.json of the given modules, from the document cache (memory, then `cacheFolder`) or converted now. */
export function openApiDocument(
  modules: readonly CachedIdlModule[],
  options: Omit<ResolvedOpenApiOptions, 'fileName'>,
  cacheFolder: string | undefined,
): Promise<OpenApiAsset> {
  return cachedDocument({ kind: 'openapi', options, modules, diskFolder: cacheFolder }, (models) => openApiAsset(models, options));
}

/** The openrpc.json of the given modules, from the document cache (memory, then `cacheFolder`) or converted now. */
export function openRpcDocument(
  modules: readonly CachedIdlModule[],
  options: Omit<ResolvedOpenRpcOptions, 'fileName'>,
  cacheFolder: string | undefined,
): Promise<OpenApiAsset> {
  return cachedDocument({ kind: 'openrpc', options, modules, diskFolder: cacheFolder }, (models) => openRpcAsset(models, options));
}
