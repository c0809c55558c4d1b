/**
 * Compiling an `.idl` file for the plugin: the heavy part (the compiler, the generators, TypeBox).
 * Part of the compiler part (compiler-part.ts), which the plugin loads when it first compiles a file,
 * so that making a plugin, and a build that imports no `.idl`, never load it (test/plugin/start-up.test.ts).
 */
import { compileIdlSource, type CompiledIdlModule } from '../codegen/idl-module.js';
import { partSpecifier } from './module-parts.js';

/**
 * Compiles the text of an `.idl` file with the files it imports (read from disk, each at most
 * `maxBytes`) and generates its module; throws `IdlModuleError` for a broken file. `reuse`: the file
 * is compiled again and again (a dev server, a watch build; see `GenerateModuleOptions.reuse`).
 * `inParts`: the module is generated in parts (module-parts.ts).
 */
export function compileIdlText(text: string, file: string, maxBytes: number, reuse = false, inParts = false): CompiledIdlModule {
  const partImport = inParts ? (part: string) => partSpecifier(file, part) : undefined;
  return compileIdlSource(text, file, { maxImportedBytes: maxBytes }, { reuse, partImport });
}
