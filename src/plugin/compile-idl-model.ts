/**
 * Only the checked model of an `.idl` file: parse and check, no code generation. What openapi.json
 * needs when the module itself came from the compile cache.
 */
import { IdlModuleError } from '../codegen/idl-module-error.js';
import { tryCompileIdl } from '../idl/compile.js';
import { nodeFileHost } from '../idl/file-host.js';
import type { IdlModel } from '../idl/model.js';

/** The checked model of an `.idl` text with the files it imports (each at most `maxBytes`); throws `IdlModuleError`. */
export function compileIdlModel(text: string, file: string, maxBytes: number): IdlModel {
  const result = tryCompileIdl(text, file, { host: nodeFileHost({ maxBytes }) });
  if (!result.model) throw new IdlModuleError(file, result.diagnostics, result.sources, [...result.files, ...result.unreadableImports]);
  return result.model;
}
