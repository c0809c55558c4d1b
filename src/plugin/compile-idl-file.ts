/**
 * Compiling an `.idl` file for the plugin: the heavy part (the compiler, the generators, TypeBox).
 * Part of the compiler part (compiler-part.ts), which the plugin loads when it first compiles a file,
 * so that making a plugin, and a build that imports no `.idl`, never load it (test/plugin/start-up.test.ts).
 */
import { compileIdlSource, type CompiledIdlModule } from '../codegen/idl-module.js';

/**
 * Compiles the text of an `.idl` file with the files it imports (read from disk, each at most
 * `maxBytes`) and generates its module; throws `IdlModuleError` for a broken file. `reuse`: the file
 * is compiled again and again (a dev server, a watch build; see `GenerateModuleOptions.reuse`).
 */
export function compileIdlText(text: string, file: string, maxBytes: number, reuse = false): CompiledIdlModule {
  return compileIdlSource(text, file, { maxImportedBytes: maxBytes }, reuse);
}
