/**
 * The exceptions the compiler API throws. Both carry the structured diagnostics, and their message
 * is the formatted text (with code frames) so that an uncaught one still tells the user what to fix.
 */
import { type DiagnosticSources, formatDiagnostic, formatDiagnostics } from './code-frame.js';
import type { Diagnostic } from './diagnostic.js';

/**
 * Thrown by `parseIdl` when the text is not valid IDL syntax. `diagnostics` holds every syntax error
 * the parser found (in file order, see "Errors" in docs/idl.md); `diagnostic` is the first of them.
 */
export class IdlSyntaxError extends Error {
  override name = 'IdlSyntaxError';
  /** The first syntax error. */
  readonly diagnostic: Diagnostic;
  /** Every syntax error found, in file order; never empty. */
  readonly diagnostics: Diagnostic[];

  /** Every syntax error of the file, first one first. */
  constructor(all: Diagnostic[], source?: string) {
    if (all.length === 0) throw new TypeError('IdlSyntaxError needs at least one diagnostic');
    // One error reads as before: a single frame, no count line.
    super(all.length === 1 ? formatDiagnostic(all[0], source) : `${formatDiagnostics(all, source)}\n\n${all.length} errors`);
    this.diagnostic = all[0];
    this.diagnostics = all;
  }
}

/** Thrown by `compileIdl` when the file has syntax or semantic errors; holds every one of them. */
export class IdlCompileError extends Error {
  override name = 'IdlCompileError';
  readonly diagnostics: Diagnostic[];

  constructor(diagnostics: Diagnostic[], sources?: DiagnosticSources) {
    const count = diagnostics.length;
    super(`${formatDiagnostics(diagnostics, sources)}\n\n${count} error${count === 1 ? '' : 's'}`);
    this.diagnostics = diagnostics;
  }
}
