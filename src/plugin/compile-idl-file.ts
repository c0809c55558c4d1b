/**
 * Compiling an `.idl` file for the plugin: the heavy part (the compiler, the generators, TypeBox).
 * The plugin loads this module with `import()` when it first compiles a file, so that making a
 * plugin, and a build that imports no `.idl`, never load it (test/plugin/start-up.test.ts).
 */
import { compileIdlSource, IdlModuleError, type CompiledIdlModule } from '../codegen/idl-module.js';
import { tryCompileIdl } from '../idl/compile.js';
import { nodeFileHost } from '../idl/file-host.js';
import type { IdlModel } from '../idl/model.js';

/**
 * Compiles the text of an `.idl` file with the files it imports (read from disk, each at most
 * `maxBytes`) and generates its module; throws `IdlModuleError` for a broken file.
 */
export function compileIdlText(text: string, file: string, maxBytes: number): CompiledIdlModule {
  return compileIdlSource(text, file, { maxImportedBytes: maxBytes });
}

/**
 * Only the checked model of an `.idl` text (parse and check, no code generation): what
 * openapi.json needs when the module itself came from the cache. Throws `IdlModuleError`.
 */
export function compileIdlModel(text: string, file: string, maxBytes: number): IdlModel {
  const result = tryCompileIdl(text, file, { host: nodeFileHost({ maxBytes }) });
  if (!result.model) throw new IdlModuleError(file, result.diagnostics, result.sources, [...result.files, ...result.unreadableImports]);
  return result.model;
}
