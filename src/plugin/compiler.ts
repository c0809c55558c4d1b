/**
 * The plugin's one way to the compiler, which it loads with `import()` on first use: making a
 * plugin (which every bundler process and dev-server start does) loads only the plugin's shell, and
 * the compiler, the generators, TypeBox and the OpenAPI converter (with yaml) load when the first
 * `.idl` is compiled or the first openapi.json is built (test/plugin/start-up.test.ts).
 */
import type { CompiledIdlModule } from '../codegen/idl-module.js';
import type { IdlModel } from '../idl/model.js';
import type { OpenApiAsset } from './openapi-asset.js';
import type { ResolvedOpenApiOptions } from './options.js';

/**
 * Reads and compiles an `.idl` file with the files it imports; throws `IdlModuleError` for a broken
 * file and `IdlFileReadError` for one that is not a regular file or is larger than `maxBytes`.
 */
export async function compileIdlFile(file: string, maxBytes: number): Promise<CompiledIdlModule> {
  const { compileIdlFile: compile } = await import('./compile-idl-file.js');
  return compile(file, maxBytes);
}

/** The openapi.json of the given models (see openapi-asset.ts). */
export async function openApiAsset(models: Iterable<IdlModel>, options: Omit<ResolvedOpenApiOptions, 'fileName'>): Promise<OpenApiAsset> {
  const { openApiAsset: build } = await import('./openapi-asset.js');
  return build(models, options);
}
