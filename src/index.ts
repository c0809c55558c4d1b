/**
 * unplugin-idl-rpc: the compiler API (parse, check, JSON form, format), the TypeScript generator, the
 * OpenAPI converter and the OpenRPC emitter, as documented in docs/idl.md, docs/generator.md,
 * docs/openapi.md and docs/openrpc.md. The bundler plugins live at `unplugin-idl-rpc/<bundler>` and
 * the runtime at `unplugin-idl-rpc/runtime`.
 *
 * This list is the public surface: helpers the parts share among themselves stay internal.
 */
export type * from './idl/ast.js';
export type { Diagnostic, FormattableDiagnostic, RelatedLocation, Severity } from './idl/diagnostic.js';
export type { IdlModel } from './idl/model.js';
export { allFields } from './idl/model.js';
export { parse, parseIdl, type ParseResult } from './idl/parser.js';
export { resolve, type IdlSymbol, type SymbolKind, type SymbolReference, type SymbolTable } from './idl/symbols.js';
export { referencesOf, referenceAt, symbolAt } from './idl/symbol-queries.js';
export { RESERVED_WORDS, IDENTIFIER_PATTERN } from './idl/names.js';
export { check, checkIdl, type CheckResult } from './idl/checker.js';
export { compileIdl, tryCompileIdl, type CompileResult } from './idl/compile.js';
export { IdlSyntaxError, IdlCompileError } from './idl/errors.js';
export { formatDiagnostic, formatDiagnostics, codeFrame, MAX_REPORTED_DIAGNOSTICS } from './idl/code-frame.js';
export { escapeControlCharacters } from './idl/visible-text.js';
export { toIdlJson, idlChecksum, canonicalContractText } from './idl/json.js';
export { printIdl, printType } from './idl/format.js';

export { generateModule, type GeneratedModule, type GenerateModuleOptions } from './codegen/module.js';
export { sourceMapOf, type Mapping, type SourceMapOptions, type SourceMapV3 } from './codegen/source-map.js';
export { generateTypeScriptFiles, MODULE_STYLES, type GenerateFilesOptions, type ModuleStyle } from './codegen/output-directory.js';
export { CodegenError } from './codegen/names.js';

export { idlToOpenApi, type IdlToOpenApiOptions, type IdlToOpenApiResult, type OpenApiVersion } from './openapi/idl-to-openapi.js';
export {
  openApiToIdl,
  type MethodNaming,
  type OpenApiInput,
  type OpenApiToIdlOptions,
  type OpenApiToIdlResult,
} from './openapi/openapi-to-idl.js';
export type { PrefixedMethods } from './openapi/operation-converter.js';
export { ConversionError, type ConversionWarning } from './openapi/warnings.js';
export { BinaryDataError, type BinaryDataLocation } from './openapi/binary-data.js';

export {
  idlToOpenRpc,
  type IdlToOpenRpcOptions,
  type IdlToOpenRpcResult,
  type OpenRpcContact,
  type OpenRpcLicense,
} from './openrpc/idl-to-openrpc.js';
export { openRpcToIdl, type OpenRpcInput, type OpenRpcToIdlOptions, type OpenRpcToIdlResult } from './openrpc/openrpc-to-idl.js';
export type { RenamedMethod } from './openrpc/method-names.js';
