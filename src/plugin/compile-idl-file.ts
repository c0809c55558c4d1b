/**
 * Compiling an `.idl` file for the plugin: the heavy part (the compiler, the generators, TypeBox).
 * The plugin loads this module with `import()` when it first compiles a file, so that making a
 * plugin, and a build that imports no `.idl`, never load it (test/plugin/start-up.test.ts).
 */
import { compileIdlSource, type CompiledIdlModule } from '../codegen/idl-module.js';
import { readIdlFile } from './read-idl-file.js';

/**
 * Reads and compiles an `.idl` file with the files it imports; throws `IdlModuleError` for a broken
 * file and `IdlFileReadError` for one that is not a regular file or is larger than `maxBytes`.
 */
export async function compileIdlFile(file: string, maxBytes: number): Promise<CompiledIdlModule> {
  return compileIdlSource(await readIdlFile(file, maxBytes), file, { maxImportedBytes: maxBytes });
}
