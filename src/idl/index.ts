/**
 * The public compiler API: parse, check, compile, print and serialize IDL; and, for tools, the
 * passes one by one (`parse` -> `resolve` -> `check`) with the symbol table and its queries.
 */
export type * from './ast.js';
export type { Diagnostic, FormattableDiagnostic, RelatedLocation, Severity } from './diagnostic.js';
export type { IdlModel } from './model.js';
export { allFields, isStreamMethod } from './model.js';
export { discriminatorOf, DEFAULT_DISCRIMINATOR } from './ast.js';
export { parse, parseIdl, type ParseResult } from './parser.js';
export { resolve, type IdlSymbol, type SymbolKind, type SymbolReference, type SymbolTable } from './symbols.js';
export { referencesOf, referenceAt, symbolAt } from './symbol-queries.js';
export { RESERVED_WORDS, IDENTIFIER_PATTERN, nameProblem } from './names.js';
export { check, checkIdl, type CheckResult } from './checker.js';
export { compileIdl, tryCompileIdl, type CompileResult } from './compile.js';
export { IdlSyntaxError, IdlCompileError } from './errors.js';
export {
  formatDiagnostic,
  formatDiagnostics,
  formatDiagnosticHeaders,
  codeFrame,
  MAX_REPORTED_DIAGNOSTICS,
  type FrameGutter,
} from './code-frame.js';
export { escapeControlCharacters } from './visible-text.js';
export { toIdlJson, typeToJson, idlChecksum, canonicalContractText } from './json.js';
export { printIdl, printType, syntheticSpan, syntheticName, quoteMessage } from './format.js';
