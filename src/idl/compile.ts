/**
 * Parse + check in one call: the entry point of the CLI, the plugin and the generators.
 */
import type { IdlFile } from './ast.js';
import { checkIdl } from './checker.js';
import type { Diagnostic } from './diagnostic.js';
import { IdlCompileError } from './errors.js';
import type { IdlModel } from './model.js';
import { parse } from './parser.js';

export interface CompileResult {
  /** Present only when there is no error. */
  model?: IdlModel;
  /** The syntax tree, when the text parsed (even if the checker then found errors). */
  file?: IdlFile;
  /**
   * Every problem, sorted by position: the syntax errors (the checker does not run then), or all
   * the checker's errors.
   */
  diagnostics: Diagnostic[];
  /** The text the positions refer to (the input without a byte order mark), for code frames. */
  source: string;
}

/**
 * Parses and checks IDL text without throwing. Use `formatDiagnostics(result.diagnostics,
 * result.source)` to show the problems.
 */
export function tryCompileIdl(text: string, fileName: string): CompileResult {
  const parsed = parse(text, fileName);
  const source = parsed.file.source;
  // A partial tree is for tools (`parse`); here a syntax error means the checker does not run.
  if (parsed.diagnostics.length > 0) return { diagnostics: parsed.diagnostics, source };
  const { model, diagnostics } = checkIdl(parsed.file);
  return model ? { model, file: parsed.file, diagnostics, source } : { file: parsed.file, diagnostics, source };
}

/**
 * Parses and checks IDL text.
 *
 * @throws IdlCompileError holding every diagnostic; its message shows them with code frames.
 */
export function compileIdl(text: string, fileName: string): IdlModel {
  const result = tryCompileIdl(text, fileName);
  if (!result.model) throw new IdlCompileError(result.diagnostics, result.source);
  return result.model;
}
