/**
 * The public compiler API: parse, check, compile, print and serialize IDL.
 */
export type * from './ast.js';
export type { Diagnostic, Severity } from './diagnostic.js';
export type { IdlModel } from './model.js';
export { allFields } from './model.js';
export { parseIdl } from './parser.js';
export { RESERVED_WORDS, IDENTIFIER_PATTERN, nameProblem } from './names.js';
export { checkIdl, type CheckResult } from './checker.js';
export { compileIdl, tryCompileIdl, type CompileResult } from './compile.js';
export { IdlSyntaxError, IdlCompileError } from './errors.js';
export { formatDiagnostic, formatDiagnostics, formatDiagnosticHeaders, codeFrame, MAX_REPORTED_DIAGNOSTICS, type FrameGutter } from './code-frame.js';
export { toIdlJson, typeToJson, idlChecksum, canonicalContractText } from './json.js';
// `typeText` is the older name of `printType`, kept for callers of the public API.
export { printIdl, printType, printType as typeText, syntheticSpan, syntheticName, quoteMessage } from './format.js';
